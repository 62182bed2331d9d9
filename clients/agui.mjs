// make test-clients, AG-UI: @ag-ui/client's HttpAgent reads our
// `convert --to agui` output of every corpus recording agentstream can
// read, through its whole pipeline: the SSE parser, the compatibility
// boundary, the schema enforcement (events.ts's zod schemas), the event
// verifier (verifyEvents) and the applier (defaultApplyEvents). A
// rejected event fails the run; an event or member the enforcement
// drops, or any other warning the client prints, is a mismatch. The
// messages the applier built must hold what `assemble -o json` of the
// input holds: per agent, text, reasoning and tool calls (name and
// input) in order, and every tool result's text.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HttpAgent } from '@ag-ui/client';

const C = 'ag-ui-client';

// A corpus file's text as AG-UI, or null when agentstream cannot tell
// its format (a format it has no decoder for: skipped).
function convert(h, file) {
  const r = spawnSync(h.bin, ['convert', '--to', 'agui', file], { maxBuffer: 1 << 28 });
  if (r.status === 2 && r.stderr.toString().includes('cannot detect the input format')) return null;
  return r.stdout.toString('utf8');
}

// files lists the files under dir, recursively, in name order.
function files(dir) {
  const out = [];
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (!f.startsWith('hand-') && !f.endsWith('.md')) out.push(p);
  }
  return out;
}

async function run(body) {
  const agent = new HttpAgent({
    url: 'http://agentstream.invalid/agui',
    fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
  });
  const warnings = [];
  const events = [];
  const warn = console.warn;
  const error = console.error;
  console.warn = (...a) => warnings.push(a.map(String).join(' '));
  console.error = (...a) => warnings.push(a.map(String).join(' '));
  let failure = null;
  try {
    await agent.runAgent({}, { onEvent: ({ event }) => { events.push(event); } });
  } catch (e) {
    failure = e.message ?? String(e);
  } finally {
    console.warn = warn;
    console.error = error;
  }
  return { messages: agent.messages, events, warnings, failure };
}

const partsText = (c) => (typeof c === 'string' ? c : c.filter((p) => p.type === 'text').map((p) => p.text).join('\n'));

// What the client built, per agent ('' the parent): content in message
// order, and tool results by call id.
function built(messages) {
  const content = {};
  const results = {};
  const add = (agent, b) => (content[agent] ??= []).push(b);
  for (const m of messages) {
    const agent = m.subagentRunId ?? '';
    if (m.role === 'reasoning') add(agent, { type: 'thinking', text: m.content });
    if (m.role === 'assistant') {
      if (m.content) add(agent, { type: 'text', text: m.content });
      for (const tc of m.toolCalls ?? []) {
        let input;
        try { input = JSON.parse(tc.function.arguments); } catch { input = tc.function.arguments; }
        add(agent, { type: 'tool_call', name: tc.function.name, input });
      }
    }
    if (m.role === 'tool') results[m.toolCallId] = partsText(m.content);
  }
  return { content, results };
}

// What assemble -o json says, in the same shape.
function wanted(ref) {
  const content = {};
  const results = {};
  const main = ref.main;
  for (const b of ref.blocks) {
    const agent = b.agent === main || b.agent === '' ? '' : b.agent;
    if (b.type === 'text' && b.text !== '') (content[agent] ??= []).push({ type: 'text', text: b.text });
    if (b.type === 'thinking') (content[agent] ??= []).push({ type: 'thinking', text: b.thinking ?? b.text });
    if (b.type === 'tool_call' || b.type === 'server_tool_call') (content[agent] ??= []).push({ type: 'tool_call', name: b.name, input: b.input });
    if (b.type === 'tool_result' || b.type === 'server_tool_result') {
      const c = b.content;
      results[b.id] = typeof c === 'string' ? c : Array.isArray(c) ? c.filter((p) => p.type === 'text').map((p) => p.text).join('\n') : '';
    }
  }
  return { content, results };
}

// aguiRun checks every readable file of the corpora; h holds run.mjs's
// helpers (bin, agentstream, assembled, check, count, failures).
export async function aguiRun(corpora, h) {
  for (const root of corpora) {
    for (const file of files(root)) {
      const body = convert(h, file);
      if (body === null) continue;
      try {
        await aguiCheck(file, body, h);
      } catch (e) {
        h.failures.push(`${C} ${file}: client failed: ${e.stack?.split('\n').slice(0, 3).join(' | ')}`);
      }
    }
  }
}

async function aguiCheck(file, body, h) {
  const got = await run(body);
  h.count(C, 'files');
  h.count(C, 'lines', got.events.length);
  const frames = body.split('\n\n').filter((s) => s.trim()).length;
  h.check(C, file, 'the run is accepted', null, got.failure);
  h.check(C, file, 'every event applied', frames, got.events.length);
  h.check(C, file, 'no warnings', [], got.warnings.map((w) => w.slice(0, 300)));
  const ref = h.assembled(file);
  const want = wanted(ref);
  const have = built(got.messages);
  h.check(C, file, 'agents', Object.keys(want.content).sort(), Object.keys(have.content).sort());
  for (const agent of Object.keys(want.content)) {
    h.check(C, file, `content of agent '${agent}'`, want.content[agent], have.content[agent] ?? []);
  }
  h.check(C, file, 'tool results', want.results, have.results);
  // The run ends as the source did: failed, finished, or cut; an error
  // the run went on after is agentstream's CUSTOM error.
  const last = got.events.at(-1)?.type;
  const failed = ref.final?.is_error === true || (ref.fatal.length > 0 && !ref.final);
  const errors = got.events.filter((e) => e.type === 'RUN_ERROR' || (e.type === 'CUSTOM' && e.name === 'agentstream.error' && e.value.fatal));
  // A run whose end says it failed (is_error) ends with RUN_ERROR even
  // when no error event was fatal (the AI SDK's finishReason error).
  h.check(C, file, 'errors that ended a turn or the run', ref.fatal.length > 0 || ref.final?.is_error === true, errors.length > 0);
  if (ref.final?.is_error) h.check(C, file, 'a failed run ends with RUN_ERROR', 'RUN_ERROR', last);
  if (ref.final && !ref.final.is_error) h.check(C, file, 'a finished run ends with RUN_FINISHED', 'RUN_FINISHED', last);
  if (ref.usage && !failed) {
    const u = got.events.find((e) => e.type === 'RUN_FINISHED')?.usage?.[0];
    h.check(C, file, 'output tokens', ref.usage.output_tokens ?? 0, u?.outputTokens);
  }
}
