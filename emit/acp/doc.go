// Package acp writes canonical events as the JSON-RPC 2.0 messages an
// Agent Client Protocol agent sends for them, one per line: any run, of
// any format, as an ACP agent's output.
//
// What is written (docs/formats/acp.md has the details): an ACP source's
// initialize and session/new responses as they were, the prompt as a
// user_message_chunk, text and thinking deltas as agent_message_chunk and
// agent_thought_chunk, tool calls and results as tool_call and
// tool_call_update, todo lists as plans, and at the end the session/prompt
// response with the source's stop reason mapped to ACP's, or the error
// response for a fatal error. A run whose source names no stop reason of
// ACP's gets no response (reported as a loss, NoRunEnd): no end_turn is
// made up. A session cut before its first prompt turn is written as
// nothing (reported, SetupCut): its setup answers alone would read as a
// session that ended. Only the main agent is written. Whatever ACP cannot carry is
// reported once per kind through Config.Warn as an *event.LossError.
package acp
