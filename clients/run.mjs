// make test-clients: feeds agentstream's output of every corpus recording
// to the official clients of the target format and compares what each
// client rebuilds with the same client's result on the original recording
// (same format) or with `agentstream assemble -o json` of the input.
//
//   node run.mjs AGENTSTREAM_BINARY STUB CORPUS_DIR...
//
// It must run from the folder where the clients were installed
// (npm install --prefix DIR), which the Makefile arranges by copying this
// file and stub.mjs there. Exit status 1 when any file mismatches.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { Codex } from '@openai/codex-sdk';
import { aguiRun } from './agui.mjs';

const [bin, stub, ...corpora] = process.argv.slice(2);
if (!bin || !stub || corpora.length === 0) {
  console.error('usage: node run.mjs AGENTSTREAM STUB CORPUS_DIR...');
  process.exit(2);
}
// CLIENTS=anthropic,codex-sdk runs only those clients.
const only = process.env.CLIENTS?.split(',');
const work = mkdtempSync(join(tmpdir(), 'agentstream-clients-'));
// Folders of the corpus whose files agentstream reads (sessions/ and
// openai/ hold formats it has no decoder for).
const readable = new Set(['anthropic', 'claude', 'codex', 'jsonenv', 'xml']);

function files() {
  const out = [];
  for (const root of corpora) {
    for (const dir of readdirSync(root).sort()) {
      if (!readable.has(dir) || !statSync(join(root, dir)).isDirectory()) continue;
      for (const f of readdirSync(join(root, dir)).sort()) {
        // Recordings only: testdata's hand-made edge cases and notes are
        // not what a producer wrote.
        if (f.startsWith('hand-') || f.endsWith('.md') || !statSync(join(root, dir, f)).isFile()) continue;
        out.push(join(root, dir, f));
      }
    }
  }
  return out;
}

function agentstream(args) {
  try {
    return execFileSync(bin, args, { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8');
  } catch (e) {
    // Truncated inputs exit non-zero after writing what they could.
    return e.stdout.toString('utf8');
  }
}

// assemble -o json of the input: the reference for cross-format pairs.
function assembled(file) {
  const blocks = agentstream(['assemble', '-o', 'json', file]).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const main = blocks.find((b) => b.agent !== '')?.agent ?? '';
  const mine = (b) => b.agent === main || b.agent === '';
  const final = blocks.find((b) => b.type === 'meta_final' && mine(b));
  return {
    main,
    blocks,
    content: blocks.filter((b) => mine(b) && ['text', 'thinking', 'tool_call', 'server_tool_call'].includes(b.type)),
    // Errors that ended the run or a turn: what an Anthropic body says
    // with an error event.
    fatal: blocks.filter((b) => mine(b) && ((b.type === 'error' && b.fatal) || (b.type === 'turn_end' && b.is_error))),
    usage: final?.usage,
    final,
    // The main agent's model turns: message id, stop reason, usage.
    turns: blocks.filter((b) => mine(b) && b.type === 'turn_end'),
  };
}

// runAccount is what the source says of its main agent's accounting: the
// run's usage (its own, else its turns' summed, else null) and stop
// reason (the run's, else the last turn's, else null), and its cost.
function runAccount(ref) {
  const turns = ref.turns.filter((t) => t.usage);
  const sum = (k) => turns.reduce((n, t) => n + (t.usage[k] ?? 0), 0);
  const usage = ref.usage ?? (turns.length > 0 ? { input_tokens: sum('input_tokens'), output_tokens: sum('output_tokens') } : null);
  return {
    usage: usage && [usage.input_tokens ?? 0, usage.output_tokens ?? 0],
    stop: ref.final?.stop_reason ?? ref.turns.at(-1)?.stop_reason ?? null,
    cost: ref.final?.cost_usd ?? null,
  };
}

function norm(b) {
  switch (b.type) {
    case 'text': return { type: 'text', text: b.text };
    case 'thinking': return { type: 'thinking', thinking: b.thinking ?? b.text };
    case 'tool_use': case 'server_tool_use': case 'mcp_tool_use': case 'tool_call': case 'server_tool_call':
      return { type: 'tool_use', name: b.name, input: b.input };
    default: return { type: b.type };
  }
}
const isContent = (b) => ['text', 'thinking', 'tool_use', 'server_tool_use', 'mcp_tool_use', 'tool_call', 'server_tool_call'].includes(b.type);

const counts = {};
const failures = [];
function count(client, what, n = 1) {
  counts[client] ??= { files: 0, responses: 0, lines: 0 };
  counts[client][what] += n;
}
function check(client, file, what, want, got) {
  if (!isDeepStrictEqual(want, got)) {
    if (Array.isArray(want) && Array.isArray(got)) {
      // Show where they part.
      let i = 0;
      while (i < want.length && i < got.length && isDeepStrictEqual(want[i], got[i])) i++;
      failures.push(`${client} ${file}: ${what} (${want.length} wanted, ${got.length} got; first difference at ${i})\n    want ${JSON.stringify(want[i])?.slice(0, 600)}\n    got  ${JSON.stringify(got[i])?.slice(0, 600)}`);
      return false;
    }
    failures.push(`${client} ${file}: ${what}\n    want ${JSON.stringify(want)?.slice(0, 600)}\n    got  ${JSON.stringify(got)?.slice(0, 600)}`);
    return false;
  }
  return true;
}

// ---- Anthropic TypeScript SDK: messages.stream over each response body.

// bodies splits a concatenation of Messages API SSE bodies at each
// message_start; an error event outside a message is a body of its own.
function bodies(text) {
  const out = [];
  let cur = null;
  for (const ev of text.split(/\n\n+/)) {
    if (!ev.trim()) continue;
    const type = /^event: (.*)$/m.exec(ev)?.[1];
    if (type === 'message_start' || cur === null) {
      cur = [];
      out.push(cur);
    }
    cur.push(ev);
    if (type === 'message_stop' || type === 'error') cur = null;
  }
  return out.map((b) => b.join('\n\n') + '\n\n');
}

async function anthropicRun(text) {
  const out = [];
  for (const body of bodies(text)) {
    const client = new Anthropic({
      apiKey: 'test', maxRetries: 0,
      fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    });
    let partial = null;
    try {
      const stream = client.messages.stream({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] });
      stream.on('streamEvent', (_, snapshot) => { partial = snapshot; });
      const m = await stream.finalMessage();
      out.push({
        id: m.id, model: m.model, stop_reason: m.stop_reason,
        usage: { input_tokens: m.usage.input_tokens, output_tokens: m.usage.output_tokens, service_tier: m.usage.service_tier ?? null },
        content: m.content.map(norm),
      });
    } catch (e) {
      const err = e.error?.error;
      if (!err) throw e; // not an error event: the client rejected our bytes
      // What the client had rebuilt when the error arrived.
      out.push({ error: { type: err.type, message: err.message }, content: (partial?.content ?? []).map(norm) });
    }
  }
  return out;
}

const anthropicErrorTypes = new Set([
  'invalid_request_error', 'authentication_error', 'billing_error', 'permission_error', 'not_found_error',
  'request_too_large', 'rate_limit_error', 'api_error', 'overloaded_error', 'timeout_error',
]);

async function anthropicCheck(file, format) {
  const out = agentstream(['convert', '--to', 'anthropic', file]);
  const got = await anthropicRun(out);
  count('anthropic', 'files');
  count('anthropic', 'responses', got.length);
  const c = 'anthropic';
  for (const r of got) {
    if (r.error) check(c, file, 'error type is one of the API\'s', true, anthropicErrorTypes.has(r.error.type));
  }
  if (format === 'anthropic') {
    check(c, file, 'responses', await anthropicRun(readFileSync(file, 'utf8')), got);
    return;
  }
  const ref = assembled(file);
  const msgs = got.filter((r) => !r.error);
  check(c, file, 'content blocks', ref.content.map(norm), got.flatMap((m) => m.content.filter(isContent)));
  const errs = got.filter((r) => r.error);
  check(c, file, 'fatal errors', [...new Set(ref.fatal.map((e) => e.text))], errs.map((e) => ref.fatal.find((f) => e.error.message.includes(f.text))?.text ?? e.error.message));
  if (errs.length > 0) check(c, file, 'an error ends the stream', true, got.at(-1).error !== undefined);
  // Accounting: what the source says, exactly; nothing it does not say
  // (a stop reason nobody named is null, usage nobody gave the null
  // counts, a message id nobody gave "").
  const acct = runAccount(ref);
  const failed = ref.final?.is_error || ref.fatal.length > 0;
  if (ref.turns.length === msgs.length && !failed) {
    const last = msgs.length - 1;
    check(c, file, 'stop reason of every message', ref.turns.map((t, i) => t.stop_reason ?? (i === last ? acct.stop : null)), msgs.map((m) => m.stop_reason));
    check(c, file, 'message ids', ref.turns.map((t) => t.message_id ?? ''), msgs.map((m) => m.id));
  } else if (ref.turns.length === 0 && !failed) {
    // A source without turns (the envelope, XML): one message per turn
    // the writer makes, none with a stop reason but the run's on the last.
    check(c, file, 'stop reason of every message', msgs.map((_, i) => (i === msgs.length - 1 ? acct.stop : null)), msgs.map((m) => m.stop_reason));
    check(c, file, 'no made-up message id', msgs.map(() => ''), msgs.map((m) => m.id));
  }
  if (!failed && msgs.length > 0) {
    const sum = (k) => (msgs.every((m) => m.usage[k] === null) ? null : msgs.reduce((n, m) => n + (m.usage[k] ?? 0), 0));
    check(c, file, 'usage summed over messages', acct.usage ?? [null, null], [sum('input_tokens'), sum('output_tokens')]);
  }
}

// ---- Claude Agent SDK: query() through the stand-in executable.

async function claudeRun(path) {
  process.env.AGENTSTREAM_STUB_FILE = path;
  process.env.AGENTSTREAM_STUB_KIND = 'claude';
  const msgs = [];
  for await (const m of query({ prompt: 'x', options: { pathToClaudeCodeExecutable: stub, executable: 'node' } })) msgs.push(m);
  return msgs;
}

function claudeSummary(msgs) {
  const out = [];
  for (const m of msgs) {
    const parent = m.parent_tool_use_id ?? null;
    if (m.type === 'assistant') {
      for (const b of m.message.content) out.push({ t: 'assistant', parent, ...norm(b), model: m.message.model });
    } else if (m.type === 'user' && Array.isArray(m.message?.content)) {
      for (const b of m.message.content) {
        if (b.type !== 'tool_result') continue;
        const text = typeof b.content === 'string' ? b.content : (b.content ?? []).filter((p) => p.type === 'text').map((p) => p.text).join('\n');
        out.push({ t: 'tool_result', parent, id: b.tool_use_id, is_error: b.is_error ?? null, text });
      }
    } else if (m.type === 'result') {
      out.push({
        t: 'result', subtype: m.subtype, is_error: m.is_error, stop_reason: m.stop_reason ?? null,
        usage: { input_tokens: m.usage?.input_tokens, output_tokens: m.usage?.output_tokens }, result: m.result ?? null,
        cost: m.total_cost_usd ?? null, session_id: m.session_id,
      });
    } else if (m.type === 'system' && m.subtype === 'init') {
      out.push({ t: 'init', model: m.model, cwd: m.cwd });
    }
  }
  return out;
}

async function claudeCheck(file, format) {
  const c = 'claude-agent-sdk';
  const partial = basename(file).startsWith('partial-');
  const out = agentstream(['convert', '--to', 'claude', ...(partial ? ['--partial'] : []), file]);
  const path = join(work, 'claude.jsonl');
  writeFileSync(path, out);
  const msgs = await claudeRun(path);
  const lines = out.split('\n').filter((l) => l.trim()).length;
  count(c, 'files');
  count(c, 'lines', msgs.length);
  check(c, file, 'every line read as a message', lines, msgs.length);
  const got = claudeSummary(msgs);
  if (format === 'claude') {
    check(c, file, 'messages', claudeSummary(await claudeRun(file)), got);
    // One content_block_delta per text or thinking delta (tool input is
    // one fragment: a ToolCall is whole in the event model).
    const deltas = (ms) => ms.filter((m) => m.type === 'stream_event' && m.event.type === 'content_block_delta' && m.event.delta.type !== 'input_json_delta').map((m) => m.event.delta);
    check(c, file, 'text and thinking deltas', deltas(await claudeRun(file)), deltas(msgs));
    return;
  }
  const ref = assembled(file);
  // Claude Code writes an API error as a synthetic assistant message:
  // not content of the run.
  const main = got.filter((g) => g.t === 'assistant' && g.parent === null && g.model !== '<synthetic>' && isContent(g)).map(({ t, parent, model, ...b }) => b);
  check(c, file, 'main agent content blocks', ref.content.map(norm), main);
  for (const g of got) {
    if (g.t === 'init' || g.t === 'assistant') check(c, file, 'no invented model or cwd', false, g.model === 'unknown' || g.cwd === '/');
  }
  const result = got.find((g) => g.t === 'result');
  if (ref.fatal.length > 0 || ref.final?.is_error) check(c, file, 'failed run', true, result?.is_error === true);
  // Accounting on the result line: the source's, exactly, or null.
  const acct = runAccount(ref);
  if (result) {
    check(c, file, 'usage', acct.usage ?? [null, null], [result.usage.input_tokens, result.usage.output_tokens]);
    check(c, file, 'cost', acct.cost, result.cost);
    if (!result.is_error) check(c, file, 'stop reason', acct.stop, result.stop_reason);
    check(c, file, 'no made-up session id', false, /^0{8}-0{4}-/.test(result.session_id ?? ''));
  }
}

// ---- Codex SDK: runStreamed() through the stand-in executable.

async function codexRun(path) {
  process.env.AGENTSTREAM_STUB_FILE = path;
  delete process.env.AGENTSTREAM_STUB_KIND;
  const thread = new Codex({ codexPathOverride: stub }).startThread();
  const events = [];
  const { events: stream } = await thread.runStreamed('x');
  for await (const ev of stream) events.push(ev);
  let failure = null;
  try {
    await new Codex({ codexPathOverride: stub }).startThread().run('x');
  } catch (e) {
    failure = e.message;
  }
  return { events, failure };
}

const codexItemTypes = new Set(['agent_message', 'reasoning', 'command_execution', 'file_change', 'mcp_tool_call', 'web_search', 'todo_list', 'error']);

function codexSummary({ events, failure }) {
  const items = events.filter((e) => e.type === 'item.completed').map((e) => e.item).map((i) => {
    switch (i.type) {
      case 'agent_message': case 'reasoning': return { type: i.type, text: i.text };
      case 'command_execution': return { type: i.type, command: i.command, output: i.aggregated_output, exit_code: i.exit_code ?? null, status: i.status };
      case 'mcp_tool_call': return { type: i.type, server: i.server, tool: i.tool, arguments: i.arguments, result: i.result ?? null, error: i.error ?? null, status: i.status };
      default: return { type: i.type };
    }
  });
  const usage = events.filter((e) => e.type === 'turn.completed').at(-1)?.usage ?? null;
  return { items, usage, failure };
}

async function codexCheck(file, format) {
  const c = 'codex-sdk';
  const out = agentstream(['convert', '--to', 'codex', file]);
  const path = join(work, 'codex.jsonl');
  writeFileSync(path, out);
  const run = await codexRun(path);
  count(c, 'files');
  count(c, 'lines', run.events.length);
  check(c, file, 'every line read as an event', out.split('\n').filter((l) => l.trim()).length, run.events.length);
  for (const ev of run.events) {
    if (ev.item) check(c, file, 'declared item type', true, codexItemTypes.has(ev.item.type));
    if (ev.type === 'item.completed' && ev.item.type === 'command_execution') check(c, file, 'exit_code a number or absent', true, ev.item.exit_code === undefined || typeof ev.item.exit_code === 'number');
    if (ev.type === 'item.completed' && ev.item.type === 'mcp_tool_call') check(c, file, 'no null result or error', true, ev.item.result !== null && ev.item.error !== null);
  }
  const got = codexSummary(run);
  if (format === 'codex') {
    check(c, file, 'thread', codexSummary(await codexRun(file)), got);
    return;
  }
  const ref = assembled(file);
  const text = (k) => ref.content.filter((b) => b.type === k).map((b) => b.text);
  check(c, file, 'agent messages', text('text'), got.items.filter((i) => i.type === 'agent_message').map((i) => i.text));
  check(c, file, 'reasoning', text('thinking'), got.items.filter((i) => i.type === 'reasoning').map((i) => i.text));
  const failed = ref.fatal.length > 0 || ref.final?.is_error === true;
  check(c, file, 'run() fails exactly when the run failed', failed, got.failure !== null);
  if (failed) return; // turn.failed carries no usage
  // Usage: the source's (its turns' summed, else the run's); none at all
  // where the source has none ("usage":{}). A cache or reasoning count is
  // written only when the source gives one, and assemble -o json leaves a
  // 0 out: those compare when not 0.
  const u = sourceUsage(ref);
  const optional = new Set(['cached_input_tokens', 'cache_write_input_tokens', 'reasoning_output_tokens']);
  const nonzero = (o) => Object.fromEntries(Object.entries(o).filter(([k, v]) => !optional.has(k) || (v ?? 0) !== 0));
  const gotCounts = nonzero(got.usage ?? {});
  const want = u ? nonzero({ input_tokens: u.input_tokens ?? 0, cached_input_tokens: u.cache_read_tokens, cache_write_input_tokens: u.cache_write_tokens, output_tokens: u.output_tokens ?? 0, reasoning_output_tokens: u.reasoning_tokens }) : {};
  check(c, file, 'usage', want, gotCounts);
}

// sourceUsage is the main agent's usage in assemble -o json: its turns'
// summed, else the run's; undefined when the source says none.
function sourceUsage(ref) {
  let sum;
  for (const b of ref.blocks) {
    if (b.type !== 'turn_end' || !b.usage || (b.agent !== ref.main && b.agent !== '')) continue;
    sum ??= {};
    for (const [k, v] of Object.entries(b.usage)) if (typeof v === 'number') sum[k] = (sum[k] ?? 0) + v;
  }
  return sum ?? ref.usage;
}

for (const file of files()) {
  const format = basename(dirname(file));
  for (const [name, fn] of [['anthropic', anthropicCheck], ['claude-agent-sdk', claudeCheck], ['codex-sdk', codexCheck]]) {
    if (only && !only.includes(name)) continue;
    try {
      await fn(file, format);
    } catch (e) {
      failures.push(`${name} ${file}: client failed: ${e.stack?.split('\n').slice(0, 3).join(' | ')}`);
    }
  }
}

if (!only || only.includes('acp-sdk')) await (await import('./acp.mjs')).acpCheck({ corpora, agentstream, count, check, failures });
if (!only || only.includes('aisdk')) await (await import('./aisdk.mjs')).aisdkCheck({ corpora, agentstream, assembled, check, count });
if (!only || only.includes('ag-ui-client')) await aguiRun(corpora, { bin, agentstream, assembled, check, count, failures });

for (const [client, n] of Object.entries(counts)) {
  console.log(`${client}: ${n.files} files, ${n.responses ? n.responses + ' responses' : n.lines + ' lines'} accepted`);
}
if (failures.length > 0) {
  console.log(`\n${failures.length} mismatches:`);
  for (const f of failures) console.log('  ' + f);
  process.exit(1);
}
console.log('all clients agree');
