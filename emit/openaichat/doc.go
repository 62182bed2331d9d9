// Package openaichat writes canonical events as OpenAI Chat Completions
// streaming bodies: one completion (chunks, then data: [DONE]) per model
// turn of the main agent, concatenated.
//
// Each turn begins with a role chunk; text deltas become delta.content,
// thinking deltas delta.reasoning_content (as DeepSeek-style servers send
// them); a tool call becomes tool_calls deltas at the next index: the
// first with id, type function, name and empty arguments, then the
// arguments in pieces of at most 64 bytes. Long text deltas
// are split the same way. The turn's end is a chunk with the
// finish_reason (canonical stop reason mapped: end_turn and stop_sequence
// to stop, tool_use to tool_calls, max_tokens to length, refusal to
// content_filter; none said: tool_calls after tool calls, else stop),
// then a usage chunk with choices [] when the turn has usage, then
// [DONE]. An error, or a failed turn, is an {"error": {...}} chunk that
// ends the completion without [DONE]. created is 0 and model is what the
// source said (empty when it said none). What the body cannot carry
// (client tool results, signatures, citations, server tools, subagents,
// session and run metadata) is reported once per kind to Config.Warn.
package openaichat
