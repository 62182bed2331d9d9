// The ACP check of make test-clients: our `convert --to acp` output of
// every corpus recording agentstream reads is parsed, message by message,
// with the official ACP SDK's own zod schemas (@agentclientprotocol/sdk,
// the ones its connections parse incoming messages with): session/update
// params with zSessionNotification, the agent's requests with theirs, the
// responses with zInitializeResponse, zNewSessionResponse,
// zPromptResponse and zError. Each must be accepted by the stable schema,
// and what we wrote must come out of the unstable one (which knows the
// prompt response's usage) unchanged: the SDK's lenient fields (a value
// replaced by a default on error) would hide a wrong value otherwise. The
// text, thinking and tool calls the notifications carry are compared with
// `agentstream assemble -o json` of the input.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

// The SDK exports its schema file, not the zod modules beside its dist.
const root = dirname(dirname(dirname(fileURLToPath(import.meta.resolve('@agentclientprotocol/sdk/schema/v1/schema.json')))));
const stable = await import(pathToFileURL(join(root, 'dist/v1/schema/zod.gen.js')).href);
const unstable = await import(pathToFileURL(join(root, 'dist/v1/unstable/schema/zod.gen.js')).href);

// schemas names the schema of each message an agent sends.
function schemas(z, msg) {
  if (msg.method === 'session/update') return ['session/update params', z.zSessionNotification, msg.params];
  if (msg.method === 'session/request_permission') return ['session/request_permission params', z.zRequestPermissionRequest, msg.params];
  if (msg.method) return null; // other agent requests: not written by agentstream but as read
  if (msg.error !== undefined) return ['error', z.zError, msg.error];
  const r = msg.result ?? {};
  if ('stopReason' in r) return ['session/prompt response', z.zPromptResponse, r];
  if ('protocolVersion' in r) return ['initialize response', z.zInitializeResponse, r];
  if ('sessionId' in r) return ['session/new response', z.zNewSessionResponse, r];
  return ['response', null, r];
}

// kept reports whether every value of ours is in parsed, as written
// (parsed may have more: the schema's defaults). With unknown set, a
// member the schema does not know (stripped) is let go: the initialize
// and session/new responses are an ACP source's own, written as read
// (Gemini 0.61.0's session/new has a models member this schema drops).
function kept(ours, parsed, unknown) {
  if (Array.isArray(ours)) return Array.isArray(parsed) && ours.length === parsed.length && ours.every((v, i) => kept(v, parsed[i], unknown));
  if (ours !== null && typeof ours === 'object') {
    return parsed !== null && typeof parsed === 'object' &&
      Object.entries(ours).every(([k, v]) => (unknown && !(k in parsed)) || kept(v, parsed[k], unknown));
  }
  return isDeepStrictEqual(ours, parsed);
}

// folders of the corpus agentstream reads (the others hold formats it has
// no decoder for, or the client's side of ACP sessions).
function recordings(corpora) {
  const out = [];
  for (const root of corpora) {
    for (const dir of readdirSync(root).sort()) {
      if (!statSync(join(root, dir)).isDirectory() || dir === 'sessions' || dir === 'openai' || dir === 'aisdk') continue;
      for (const f of readdirSync(join(root, dir)).sort()) {
        if (f.startsWith('hand-') || f.endsWith('.md') || f.endsWith('.txt') || f.endsWith('.client.jsonl') || f.includes('-raw-')) continue;
        if (!statSync(join(root, dir, f)).isFile()) continue;
        out.push(join(root, dir, f));
      }
    }
  }
  return out;
}

export async function acpCheck({ corpora, agentstream, count, check, failures }) {
  const c = 'acp-sdk';
  for (const file of recordings(corpora)) {
    const out = agentstream(['convert', '--to', 'acp', file]);
    const ref = agentstream(['assemble', '-o', 'json', file]).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    if (ref.length === 0) continue; // not a format agentstream detects
    count(c, 'files');
    const main = ref.find((b) => b.agent !== '')?.agent ?? '';
    const mine = ref.filter((b) => b.agent === main || b.agent === '');
    const got = { text: '', thinking: '', tools: [] };
    for (const [i, line] of out.split('\n').filter(Boolean).entries()) {
      count(c, 'lines');
      let msg;
      try {
        msg = JSON.parse(line);
      } catch (e) {
        failures.push(`${c} ${file}: line ${i + 1} is not JSON: ${e.message}`);
        continue;
      }
      if (msg.jsonrpc !== '2.0') failures.push(`${c} ${file}: line ${i + 1} is not JSON-RPC 2.0`);
      const s = schemas(stable, msg);
      if (s === null) continue;
      const [what, schema, value] = s;
      if (schema === null) {
        failures.push(`${c} ${file}: line ${i + 1}: a response the client cannot place: ${line.slice(0, 200)}`);
        continue;
      }
      const r = schema.safeParse(value);
      if (!r.success) {
        failures.push(`${c} ${file}: line ${i + 1}: ${what} rejected: ${r.error.message.slice(0, 400)}`);
        continue;
      }
      const [, uschema] = schemas(unstable, msg);
      const u = uschema.safeParse(value);
      const asRead = what === 'initialize response' || what === 'session/new response';
      if (!u.success || !kept(value, u.data, asRead)) {
        failures.push(`${c} ${file}: line ${i + 1}: ${what} not kept as written: ${JSON.stringify(u.data ?? u.error?.message).slice(0, 400)}`);
      }
      const up = r.data.update;
      if (msg.method !== 'session/update' || !up) continue;
      if (up.sessionUpdate === 'agent_message_chunk' && up.content.type === 'text') got.text += up.content.text;
      if (up.sessionUpdate === 'agent_thought_chunk' && up.content.type === 'text') got.thinking += up.content.text;
      if (up.sessionUpdate === 'tool_call') got.tools.push([up.toolCallId, up.title]);
    }
    const join2 = (type) => mine.filter((b) => b.type === type).map((b) => b.text).join('');
    check(c, file, 'text', join2('text'), got.text);
    check(c, file, 'thinking', join2('thinking'), got.thinking);
    const calls = mine.filter((b) => b.type === 'tool_call' || b.type === 'server_tool_call').map((b) => [b.id, b.name]);
    const changes = mine.filter((b) => b.type === 'file_change').map((b) => b.id);
    check(c, file, 'tool calls', calls, got.tools.filter(([id]) => !changes.includes(id) || calls.some(([cid]) => cid === id)));
  }
}
