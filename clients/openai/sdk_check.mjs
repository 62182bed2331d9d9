// sdk_check.mjs feeds agentstream's openai-chat and openai-responses output
// to the official openai Node SDK's streaming helpers (ChatCompletionStream,
// ResponseStream, over Stream.fromSSEResponse) through a fake fetch, and
// compares the messages the SDK rebuilds with `agentstream assemble -o json`
// of the same input.
//
// Usage: node sdk_check.mjs MANIFEST
// MANIFEST is a JSON array of {name, format, output, expected}: format is
// openai-chat or openai-responses, output our body (one or more responses
// concatenated), expected the JSON lines of assemble -o json of the input.
// The SDK is imported from $OPENAI_SDK_DIR (the package's directory).
// It prints one line per failure and exits 1 if there was any.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const sdkDir = process.env.OPENAI_SDK_DIR;
if (!sdkDir) {
  console.error('OPENAI_SDK_DIR is not set');
  process.exit(2);
}
const { default: OpenAI } = await import(pathToFileURL(join(sdkDir, 'index.mjs')).href);

function client(body) {
  return new OpenAI({
    apiKey: 'sk-test',
    baseURL: 'http://sdk.invalid/v1',
    maxRetries: 0,
    fetch: async () =>
      new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
}

// bodies splits a concatenation into one body per response: chat bodies
// end at [DONE] (or an error object), responses bodies begin at
// response.created (or an error event alone).
function bodies(format, text) {
  const messages = text.split('\n\n').filter((m) => m.trim() !== '');
  const out = [];
  let cur = [];
  for (const m of messages) {
    if (format === 'openai-responses' && cur.length > 0 && /^event: (response\.created|error)\n/.test(m)) {
      out.push(cur);
      cur = [];
    }
    cur.push(m);
    if (format === 'openai-chat' && (m === 'data: [DONE]' || m.startsWith('data: {"error"'))) {
      out.push(cur);
      cur = [];
    }
  }
  if (cur.length > 0) out.push(cur);
  return out.map((ms) => ms.join('\n\n') + '\n\n');
}

const finishOf = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter' };

// expectedOf reads the main agent's content from assemble -o json.
function expectedOf(path) {
  const blocks = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const main = blocks.length > 0 ? blocks[0].agent : '';
  const want = { text: '', calls: [], stops: [], usage: { prompt: 0, output: 0 }, errors: 0 };
  let last = null; // the usage of the turn that ended last
  for (const b of blocks) {
    if (b.agent !== main) continue;
    switch (b.type) {
      case 'text':
        want.text += b.text ?? '';
        break;
      case 'tool_call':
        want.calls.push({ id: b.id, name: b.name, input: b.input ?? {}, mcp: b.mcp_server ?? '' });
        break;
      case 'turn_end':
        if (b.stop_reason) want.stops.push(b.stop_reason);
        last = null;
        if (b.usage) {
          last = { prompt: (b.usage.input_tokens ?? 0) + (b.usage.cache_read_tokens ?? 0) + (b.usage.cache_write_tokens ?? 0), output: b.usage.output_tokens ?? 0 };
          want.usage.prompt += last.prompt;
          want.usage.output += last.output;
        }
        if (b.is_error) want.errors++;
        break;
      case 'error':
        want.errors++;
        if (last) {
          // An error right after a turn's end takes the place of its
          // final event: its usage is not written.
          want.usage.prompt -= last.prompt;
          want.usage.output -= last.output;
          last = null;
        }
        break;
      default:
        if (b.type !== 'unknown' && b.type !== 'notice') last = null;
    }
  }
  return want;
}

function parseArgs(s) {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

async function readChat(body, got) {
  const stream = client(body).chat.completions.stream({ model: 'm', messages: [], stream_options: { include_usage: true } });
  let c;
  try {
    c = await stream.finalChatCompletion();
  } catch (e) {
    if (!(e instanceof OpenAI.APIError)) throw e;
    // An error object ended the completion: what arrived before it is
    // the SDK's snapshot.
    got.errors++;
    c = stream.currentChatCompletionSnapshot;
    if (!c) return;
  }
  const ch = c.choices.find((x) => x.index === 0);
  if (!ch) throw new Error('no choice 0');
  got.text += (ch.message.content ?? '') + (ch.message.refusal ?? '');
  for (const t of ch.message.tool_calls ?? []) {
    got.calls.push({ id: t.id, name: t.function.name, input: parseArgs(t.function.arguments) });
  }
  if (ch.finish_reason) got.finishes.push(ch.finish_reason);
  if (c.usage) {
    got.usage.prompt += c.usage.prompt_tokens;
    got.usage.output += c.usage.completion_tokens;
  }
}

async function readResponses(body, got) {
  const stream = client(body).responses.stream({ model: 'm', input: 'x' });
  const done = [];
  let partial = '';
  stream.on('event', (ev) => {
    if (ev.type === 'response.output_item.done') {
      done.push(ev.item);
      partial = '';
    } else if (ev.type === 'response.output_text.delta') {
      partial += ev.delta;
    }
  });
  let r;
  try {
    r = await stream.finalResponse();
  } catch (e) {
    if (!(e instanceof OpenAI.APIError)) throw e;
    // An error event ended the response: what arrived before it are the
    // items done and the text of the one open.
    got.errors++;
    r = { output: [...done, { type: 'message', content: [{ type: 'output_text', text: partial }] }] };
  }
  for (const item of r.output) {
    switch (item.type) {
      case 'message':
        for (const p of item.content) got.text += p.type === 'output_text' ? p.text : (p.refusal ?? '');
        break;
      case 'function_call':
        got.calls.push({ id: item.call_id, name: item.name, input: parseArgs(item.arguments) });
        break;
      case 'custom_tool_call':
        got.calls.push({ id: item.call_id, name: item.name, input: item.input });
        break;
      case 'mcp_call':
        got.calls.push({ id: item.id, name: item.name, input: parseArgs(item.arguments) });
        break;
    }
  }
  if (r.status === 'failed') got.errors++;
  if (r.status) got.finishes.push(r.status === 'incomplete' ? r.incomplete_details?.reason : r.status);
  if (r.usage) {
    got.usage.prompt += r.usage.input_tokens;
    got.usage.output += r.usage.output_tokens;
  }
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

const manifest = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let failures = 0;
let checked = 0;
for (const run of manifest) {
  const fail = (msg) => {
    failures++;
    console.log(`${run.name} -> ${run.format}: ${msg}`);
  };
  const want = expectedOf(run.expected);
  const got = { text: '', calls: [], finishes: [], usage: { prompt: 0, output: 0 }, errors: 0 };
  try {
    for (const body of bodies(run.format, readFileSync(run.output, 'utf8'))) {
      if (run.format === 'openai-chat') await readChat(body, got);
      else await readResponses(body, got);
    }
  } catch (e) {
    fail(`the SDK failed: ${e.stack ?? e}`);
    continue;
  }
  checked++;
  if (got.text !== want.text) fail(`text ${JSON.stringify(got.text).slice(0, 200)} != ${JSON.stringify(want.text).slice(0, 200)}`);
  const wantCalls = want.calls.map(({ mcp, ...c }) => c);
  if (!same(got.calls, wantCalls)) fail(`tool calls ${JSON.stringify(got.calls)} != ${JSON.stringify(wantCalls)}`);
  if (want.usage.prompt + want.usage.output > 0 && !same(got.usage, want.usage)) {
    fail(`usage ${JSON.stringify(got.usage)} != ${JSON.stringify(want.usage)}`);
  }
  if (got.errors < want.errors) fail(`${got.errors} errors raised by the SDK, want ${want.errors}`);
  // Every stop reason the input said is found, mapped, among the finishes.
  for (const s of want.stops) {
    const f = run.format === 'openai-chat' ? finishOf[s] : { max_tokens: 'max_output_tokens', refusal: 'content_filter' }[s] ?? 'completed';
    if (f && !got.finishes.includes(f)) fail(`stop reason ${s}: no ${f} among ${JSON.stringify(got.finishes)}`);
  }
}
console.log(`${checked} runs read by the openai SDK, ${failures} failures`);
process.exit(failures > 0 ? 1 : 0);
