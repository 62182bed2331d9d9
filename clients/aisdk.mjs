// The Vercel AI SDK's own client reads `agentstream convert --to aisdk` of
// every corpus recording: the transport useChat uses
// (DefaultChatTransport, which validates every chunk against the
// package's uiMessageChunkSchema) read through readUIMessageStream, with
// ai 5.x (package "ai") and 7.x (package "ai-7"). The final UIMessage's
// text, reasoning and tool parts must equal `assemble -o json` of the
// recording (the main agent's blocks), the finish chunk's finishReason
// must be what the recording says of its end (none when it says none),
// and a cut recording must stay cut (no finish, no [DONE], its last part
// still streaming). An aisdk recording must also come back with the
// message the SDK builds of the recording itself.
//
// run.mjs calls aisdkCheck once, after its own clients.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as ai5 from 'ai';
import * as ai7 from 'ai-7';

// The corpus folders agentstream reads, and the aisdk folder (one level
// of version folders deeper).
const folders = ['anthropic', 'claude', 'codex', 'jsonenv', 'xml', 'openai', 'aisdk'];

function recordings(corpora) {
  const out = [];
  const walk = (dir, depth) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) {
        if (depth > 0) walk(p, depth - 1);
        continue;
      }
      if (f.startsWith('hand-') || !/\.(sse|jsonl)$/.test(f) || f === 'assembled.jsonl') continue;
      out.push(p);
    }
  };
  for (const root of corpora) {
    for (const dir of folders) {
      const p = join(root, dir);
      try {
        if (!statSync(p).isDirectory()) continue;
      } catch {
        continue;
      }
      walk(p, dir === 'aisdk' ? 1 : 0);
    }
  }
  return out;
}

// read runs body through one version's client: the chunks it accepted,
// the final message, and the errors it reported (error chunks, and what
// made it reject the stream).
async function read(sdk, body) {
  const transport = new sdk.DefaultChatTransport({
    api: 'http://agentstream.invalid/api/chat',
    fetch: async () => new Response(body, {
      headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
    }),
  });
  const stream = await transport.sendMessages({
    chatId: 'c', messages: [], trigger: 'submit-message', messageId: undefined, abortSignal: undefined,
  });
  const [a, b] = stream.tee();
  const errors = [];
  const rejected = [];
  let message = null;
  const chunks = [];
  const collect = (async () => {
    const r = b.getReader();
    try {
      for (;;) {
        const { done, value } = await r.read();
        if (done) break;
        chunks.push(value);
      }
    } catch { /* the same error reaches onError below */ }
  })();
  for await (const m of sdk.readUIMessageStream({
    stream: a,
    onError: (e) => (String(e?.name ?? '').startsWith('AI_') ? rejected : errors).push(e?.message ?? String(e)),
  })) message = m;
  await collect;
  return { message, errors, rejected, chunks };
}

// ref is what the parts of the message must be, from assemble -o json of
// the recording.
function expected(ref) {
  const parts = [];
  const tools = new Map();
  let cut = false;
  for (const b of ref.blocks) {
    if (b.agent !== ref.main && b.agent !== '') continue;
    if (b.truncated) cut = true;
    switch (b.type) {
      case 'text':
        parts.push({ type: 'text', text: b.text ?? '', streaming: b.truncated === true });
        break;
      case 'thinking':
        parts.push({ type: 'reasoning', text: b.text ?? '', streaming: b.truncated === true });
        break;
      case 'tool_call': case 'server_tool_call': {
        const p = { type: `tool-${b.name}`, toolCallId: b.id, state: 'input-available', input: b.input ?? {} };
        tools.set(b.id, p);
        parts.push(p);
        break;
      }
      case 'tool_result': case 'server_tool_result': {
        const p = tools.get(b.id);
        if (!p) break; // a call not in the stream: no place for its result
        tools.delete(b.id);
        if (b.is_error) {
          p.state = 'output-error';
          p.errorText = b.content ?? '';
        } else {
          p.state = 'output-available';
          p.output = !b.content && b.structured !== undefined && !(b.images?.length) ? b.structured : (b.content ?? '');
        }
        break;
      }
    }
  }
  return { parts, cut };
}

function actual(message) {
  const out = [];
  for (const p of message?.parts ?? []) {
    if (p.type === 'text' || p.type === 'reasoning') {
      out.push({ type: p.type, text: p.text, streaming: p.state === 'streaming' });
    } else if (p.type.startsWith('tool-') || p.type === 'dynamic-tool') {
      const t = { type: p.type === 'dynamic-tool' ? `tool-${p.toolName}` : p.type, toolCallId: p.toolCallId, state: p.state, input: p.input };
      if (p.state === 'output-error') t.errorText = p.errorText;
      if (p.state === 'output-available') t.output = p.output;
      out.push(t);
    }
  }
  return out;
}

// The canonical stop reasons and the finish reasons they are written as.
const finishOf = {
  end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', tool_use: 'tool-calls', refusal: 'content-filter',
  other: 'other', unknown: 'unknown', interrupted: 'interrupted',
};

function expectedFinish(ref) {
  const mine = ref.blocks.filter((b) => b.agent === ref.main || b.agent === '');
  const final = mine.filter((b) => b.type === 'meta_final').at(-1);
  const failed = final?.is_error || mine.some((b) => (b.type === 'error' && b.fatal) || (b.type === 'turn_end' && b.is_error));
  if (failed) return 'error';
  const stop = final?.stop_reason ?? mine.filter((b) => b.type === 'turn_end').at(-1)?.stop_reason;
  return stop === undefined ? undefined : finishOf[stop];
}

export async function aisdkCheck({ corpora, agentstream, assembled, check, count }) {
  for (const [c, sdk] of [['ai@5', ai5], ['ai@7', ai7]]) {
    for (const file of recordings(corpora)) {
      try {
        const out = agentstream(['convert', '--to', 'aisdk', file]);
        const got = await read(sdk, out);
        count(c, 'files');
        count(c, 'lines', got.chunks.length);
        check(c, file, 'the client accepts every chunk', [], got.rejected);
        const ref = assembled(file);
        const want = expected(ref);
        check(c, file, 'text, reasoning and tool parts', want.parts, actual(got.message));
        const finish = got.chunks.filter((k) => k.type === 'finish');
        if (want.cut) {
          check(c, file, 'a cut stays cut: no finish, no [DONE]', [0, false], [finish.length, out.includes('data: [DONE]')]);
        } else {
          check(c, file, 'one finish and [DONE]', [1, true], [finish.length, out.trimEnd().endsWith('data: [DONE]')]);
          check(c, file, 'finishReason as the recording ends', expectedFinish(ref), finish[0]?.finishReason);
        }
        if (file.includes('/aisdk/')) {
          const orig = await read(sdk, readFileSync(file, 'utf8'));
          const strip = (m) => ({ ...m, parts: m.parts.map((p) => (p.type === 'reasoning' ? { ...p, id: undefined } : p)) });
          check(c, file, 'the message the SDK builds of the recording', strip(orig.message), strip(got.message));
          check(c, file, 'the errors the SDK reports of the recording', orig.errors, got.errors);
        }
      } catch (e) {
        check(c, file, 'client ran', null, e.stack?.split('\n').slice(0, 3).join(' | '));
      }
    }
  }
}
