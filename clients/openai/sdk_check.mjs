// sdk_check.mjs feeds agentstream's openai-chat and openai-responses output
// to the official openai Node SDK's streaming helpers (ChatCompletionStream,
// ResponseStream, over Stream.fromSSEResponse) through a fake fetch, and
// compares what the SDK rebuilds (content, usage, finish reasons and
// statuses, errors raised, whether it rejects the body) with `agentstream
// assemble -o json` of the same input, or, for an input of the target
// format, with what the SDK rebuilds of the input itself.
//
// Usage: node sdk_check.mjs MANIFEST
// MANIFEST is a JSON array of {name, format, output, expected, cut,
// original}: format is openai-chat or openai-responses, output our body
// (one or more responses concatenated), expected the JSON lines of
// assemble -o json of the input, cut whether the input was cut off (the
// SDK must then reject our output), original the input when it is a body
// of format.
// The SDK is imported from $OPENAI_SDK_DIR (the package's directory).
// It prints one line per failure and exits 1 if there was any.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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
  let closed = false; // the response of cur has ended
  for (const m of messages) {
    // An error event after a response's end is a body of its own; one
    // inside a response ends it.
    if (format === 'openai-responses' && cur.length > 0 && (/^event: response\.created\n/.test(m) || (closed && /^event: error\n/.test(m)))) {
      out.push(cur);
      cur = [];
    }
    closed = /^event: response\.(completed|failed|incomplete)\n/.test(m);
    cur.push(m);
    if (format === 'openai-chat' && (m === 'data: [DONE]' || m.startsWith('data: {"error"'))) {
      out.push(cur);
      cur = [];
    }
  }
  if (cur.length > 0) out.push(cur);
  return out.map((ms) => ms.join('\n\n') + '\n\n');
}

// As the writers map them: the canonical reasons, and Chat's own words
// where a reader kept them (OpenCode's stop).
const finishOf = {
  end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter',
  stop: 'stop', tool_calls: 'tool_calls', length: 'length', content_filter: 'content_filter',
};
const statusOf = { max_tokens: 'max_output_tokens', refusal: 'content_filter', length: 'max_output_tokens', content_filter: 'content_filter' };
// The form each format writes a stop reason in that the source does not
// name (or one it has no word for): never one of the API's own reasons.
const unknownFinish = { 'openai-chat': 'unknown', 'openai-responses': 'completed' };

// expectedOf reads the main agent's content and accounting from assemble
// -o json: text, client tool calls, the stop reasons said (mapped into
// format's words), the usage said (null when the source says none), and
// the fatal errors and failed turns.
function expectedOf(path, format) {
  const blocks = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const main = blocks.length > 0 ? blocks[0].agent : '';
  const want = { text: '', calls: [], stops: [], runStops: [], usage: null, errors: 0 };
  let last = null; // the usage of the turn that ended last
  const mapStop = (s) => (format === 'openai-chat' ? (finishOf[s] ?? 'unknown') : (statusOf[s] ?? 'completed'));
  for (const b of blocks) {
    if (b.agent !== main) continue;
    switch (b.type) {
      case 'text':
        want.text += b.text ?? '';
        break;
      case 'tool_call':
        want.calls.push({ id: b.id, name: b.name, input: b.input ?? {}, mcp: b.mcp_server ?? '', server: b.server ?? false });
        break;
      case 'turn_end':
        if (b.stop_reason) want.stops.push(mapStop(b.stop_reason));
        last = null;
        if (b.usage) {
          last = { prompt: (b.usage.input_tokens ?? 0) + (b.usage.cache_read_tokens ?? 0) + (b.usage.cache_write_tokens ?? 0), output: b.usage.output_tokens ?? 0 };
          want.usage ??= { prompt: 0, output: 0 };
          want.usage.prompt += last.prompt;
          want.usage.output += last.output;
        }
        if (b.is_error) want.errors++;
        break;
      case 'meta_final':
        // The run's stop reason: written when the run ends inside a
        // turn (a source without turn boundaries), so it may be there.
        if (b.stop_reason) want.runStops.push(mapStop(b.stop_reason));
        if (b.usage) want.runUsage = { prompt: (b.usage.input_tokens ?? 0) + (b.usage.cache_read_tokens ?? 0) + (b.usage.cache_write_tokens ?? 0), output: b.usage.output_tokens ?? 0 };
        break;
      case 'error':
        if (!b.fatal) break; // the run went on: not written (an error event ends a response)
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
  let snapshot;
  stream.on('chunk', (_, s) => {
    snapshot = s;
  });
  let c;
  try {
    c = await stream.finalChatCompletion();
  } catch (e) {
    if (!(e instanceof OpenAI.OpenAIError)) throw e;
    if (e instanceof OpenAI.APIError) {
      // An error object ended the completion.
      got.errors++;
    } else {
      // The SDK rejects the body (a completion without finish_reason).
      got.rejected.push(e.message);
    }
    // What arrived before is the SDK's snapshot.
    c = stream.currentChatCompletionSnapshot ?? snapshot;
    if (!c) return;
  }
  got.ids.push(c.id);
  const ch = c.choices.find((x) => x.index === 0);
  if (!ch) throw new Error('no choice 0');
  got.text += (ch.message.content ?? '') + (ch.message.refusal ?? '');
  for (const t of ch.message.tool_calls ?? []) {
    got.calls.push({ id: t.id, name: t.function.name, input: parseArgs(t.function.arguments) });
  }
  if (ch.finish_reason) got.finishes.push(ch.finish_reason);
  if (c.created !== undefined) got.created.push(c.created);
  addUsage(got, c.usage, 'prompt_tokens', 'completion_tokens');
}

function addUsage(got, u, prompt, output) {
  if (!u) return;
  got.usage ??= { prompt: 0, output: 0 };
  got.usage.prompt += u[prompt];
  got.usage.output += u[output];
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
    if (!(e instanceof OpenAI.OpenAIError)) throw e;
    if (e instanceof OpenAI.APIError) {
      // An error event ended the response.
      got.errors++;
    } else {
      // The SDK rejects the body (no response.completed).
      got.rejected.push(e.message);
    }
    // What arrived before it are the items done and the text of the one
    // open.
    r = { output: [...done, { type: 'message', content: [{ type: 'output_text', text: partial }] }] };
  }
  if (r.id) got.ids.push(r.id);
  if (r.created_at !== undefined) got.created.push(r.created_at);
  for (const item of r.output) if (item.id) got.ids.push(item.id);
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
      case 'tool_search_call':
        got.calls.push({ id: item.call_id, name: 'tool_search', input: item.arguments });
        break;
    }
  }
  if (r.status === 'failed') got.errors++;
  if (r.status === 'in_progress' || r.status === 'queued') {
    // The SDK resolves a body without its end with the response as it
    // was: unfinished, which is how it shows a cut.
    got.rejected.push(`response ${r.id} ${r.status}`);
  } else if (r.status && r.status !== 'failed') {
    got.finishes.push(r.status === 'incomplete' ? r.incomplete_details?.reason : r.status);
  }
  addUsage(got, r.usage, 'input_tokens', 'output_tokens');
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// read has the SDK read every body of a file of format.
async function read(format, path) {
  const got = { text: '', calls: [], finishes: [], usage: null, errors: 0, rejected: [], ids: [], created: [] };
  for (const body of bodies(format, readFileSync(path, 'utf8'))) {
    if (format === 'openai-chat') await readChat(body, got);
    else await readResponses(body, got);
  }
  return got;
}

// count returns the multiset of xs as a map.
function count(xs) {
  const m = new Map();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

const manifest = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let failures = 0;
let checked = 0;
for (const run of manifest) {
  const fail = (msg) => {
    failures++;
    console.log(`${run.name} -> ${run.format}: ${msg}`);
  };
  const want = expectedOf(run.expected, run.format);
  let got;
  try {
    got = await read(run.format, run.output);
  } catch (e) {
    fail(`the SDK failed: ${e.stack ?? e}`);
    continue;
  }
  checked++;
  if (run.original && !basename(run.original).startsWith('hand-')) {
    // A body of the target format: the SDK reads ours as it reads the
    // original, ids, created times, usage, finishes and rejections
    // included.
    let orig;
    try {
      orig = await read(run.format, run.original);
    } catch (e) {
      fail(`the SDK failed on the original: ${e.stack ?? e}`);
      continue;
    }
    got.rejected = got.rejected.length > 0;
    orig.rejected = orig.rejected.length > 0;
    for (const k of Object.keys(orig)) {
      if (!same(got[k], orig[k])) fail(`${k} ${JSON.stringify(got[k]).slice(0, 300)} != the original's ${JSON.stringify(orig[k]).slice(0, 300)}`);
    }
    continue;
  }
  if (got.text !== want.text) fail(`text ${JSON.stringify(got.text).slice(0, 200)} != ${JSON.stringify(want.text).slice(0, 200)}`);
  const wantCalls = want.calls.filter((c) => !c.server).map(({ mcp, server, ...c }) => c);
  if (!same(got.calls, wantCalls)) fail(`tool calls ${JSON.stringify(got.calls)} != ${JSON.stringify(wantCalls)}`);
  // Usage: the source's, summed; none at all where the source has none.
  // A run without usage per turn gives its usage to the response it ends
  // inside, when it ends inside one.
  if (!same(got.usage, want.usage) && !(want.usage === null && same(got.usage, want.runUsage))) {
    fail(`usage ${JSON.stringify(got.usage)} != the source's ${JSON.stringify(want.usage ?? want.runUsage ?? null)}`);
  }
  if (got.errors !== want.errors) fail(`${got.errors} errors raised by the SDK, want ${want.errors}`);
  // Finish reasons and statuses: every one the source said is there, and
  // none it did not say (the unknown form aside).
  const unknown = unknownFinish[run.format];
  const said = count(want.stops.filter((s) => s !== unknown));
  const may = count([...want.stops, ...want.runStops].filter((s) => s !== unknown));
  const written = count(got.finishes.filter((f) => f !== unknown));
  for (const [f, n] of written) {
    if ((may.get(f) ?? 0) < n) fail(`finish ${f} written ${n} times, the source says it ${said.get(f) ?? 0} times (${JSON.stringify(got.finishes)})`);
  }
  for (const [s, n] of said) {
    if ((written.get(s) ?? 0) < n) fail(`stop reason ${s} said ${n} times, written ${written.get(s) ?? 0} times (${JSON.stringify(got.finishes)})`);
  }
  // A cut source makes the SDK reject the body, as it rejects a cut
  // original; a whole one does not.
  if (run.cut && got.rejected.length === 0) fail('the source is cut, the SDK accepts our output as complete');
  if (!run.cut && got.rejected.length > 0) fail(`the SDK rejects our output: ${got.rejected.join('; ')}`);
}
console.log(`${checked} runs read by the openai SDK, ${failures} failures`);
process.exit(failures > 0 ? 1 : 0);
