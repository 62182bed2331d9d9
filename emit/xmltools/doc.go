// Package xmltools writes canonical events as XML tool transport text (the
// format parse/xmltools reads), for replaying a transcript to a model that
// uses netdata's transport.
//
//   - Text is written as it is; thinking as <think>…</think>.
//   - A tool call as <ai-agent-NONCE-000N tool="name">input</…>, slots
//     numbered from 0001 in call order (a call id that already is a slot of
//     the nonce keeps its number).
//   - A tool result as an XML-PAST entry: the call's slot with
//     status="ok|failed", the call's input in <request> and the result text
//     in <response>.
//   - A run's result in the FINAL slot with its status and format. A text
//     block just before the run end that holds the same answer becomes
//     FINAL's content (so the last text block is held back until the next
//     event shows whether it is the report).
//   - Progress and meta notices in the PROGRESS and META slots.
//
// The nonce is Config.Nonce, else the nonce of the first call id shaped
// like a slot, else eight hex digits of an FNV-1a hash of the session id
// (or the first call id): the same input always gives the same nonce.
// Nothing is escaped. Payloads holding their own close tag, tool names
// that cannot be attribute values, images, exit codes, session metadata,
// turn boundaries and other agents' events are warned about
// (*event.LossError).
package xmltools
