#!/usr/bin/env node
// Stand-in for the `claude` and `codex` executables: prints the file named
// by AGENTSTREAM_STUB_FILE on stdout, as the real CLI prints its stream.
// For the Claude Agent SDK it also answers the control requests the SDK
// writes on stdin (initialize, ...) with an empty success, so that the SDK
// reads on. It never looks at what it prints.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const file = process.env.AGENTSTREAM_STUB_FILE;
if (!file) {
  process.stderr.write('stub: AGENTSTREAM_STUB_FILE is not set\n');
  process.exit(2);
}
const claude = process.env.AGENTSTREAM_STUB_KIND === 'claude';

function print() {
  return new Promise((resolve, reject) => {
    const s = createReadStream(file);
    s.on('error', reject);
    s.on('end', resolve);
    s.pipe(process.stdout, { end: false });
  });
}

if (!claude) {
  // Codex: the SDK writes the prompt and closes stdin; read it to its end
  // first, as codex exec does (exiting before would break the SDK's
  // write with EPIPE), then print.
  await new Promise((resolve) => {
    process.stdin.on('data', () => {});
    process.stdin.on('end', resolve);
    process.stdin.on('error', resolve);
    process.stdin.resume();
  });
  await print();
  process.exit(0);
}

// Claude: answer each control request, print the file after the first
// (initialize), exit when stdin closes.
let printed = false;
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  let msg;
  try { msg = JSON.parse(line); } catch { continue; }
  if (msg.type === 'control_request') {
    process.stdout.write(JSON.stringify({
      type: 'control_response',
      response: { subtype: 'success', request_id: msg.request_id, response: {} },
    }) + '\n');
    if (!printed) {
      printed = true;
      await print();
      // The real CLI ends after its result with a string prompt; the SDK
      // closes stdin then. Leave if it does not within the file's end.
      break;
    }
  }
}
process.exit(0);
