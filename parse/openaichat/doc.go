// Package openaichat decodes the streaming body of the OpenAI Chat
// Completions API (server-sent events of chat.completion.chunk objects)
// into canonical events.
//
// Grammar: SSE messages with a data: line each and no event: line. Each
// data is a chat.completion.chunk ({"id", "object", "model", "choices":
// [{"index", "delta", "finish_reason"}], "usage"}), a mid-stream error
// object ({"error": {"message", "type", "code"}}), or [DONE], which ends
// one completion. Several bodies concatenated (one per call of an agent
// loop) are read one after the other: a chunk with a new id opens a new
// turn.
//
// Mapping: the first chunk of a choice is a TurnStart (the chunk id as
// MessageID, its model); content and refusal deltas stream as a text
// block, reasoning_content (or reasoning) deltas as a thinking block; tool
// call deltas are collected by index (id and name from the first, the
// arguments concatenated wherever they were split, several calls
// interleaved) and emitted as ToolCalls, in index order, when the choice's
// finish_reason arrives. The TurnEnd follows the usage chunk (choices []
// or null) or [DONE] or the next completion, with the finish_reason mapped
// to the canonical stop reason (stop: end_turn, length: max_tokens,
// tool_calls: tool_use, content_filter: refusal) and the usage (input
// tokens without the cached ones, which are cache reads). Choice 0 belongs
// to Config.Agent; a choice N > 0 (n > 1) is its own agent scope,
// "choice-N"; the usage goes on choice 0's TurnEnd. An error object ends
// the open completion and becomes a fatal Error event. A chunk of another
// object type is kept as an Unknown event.
//
// Tolerance: framing is frame.SSE (LF, CRLF or CR, "data:" with or without
// the space); chunks without a role chunk, with content null, with
// choices null in the usage chunk are read. A data line
// that is not JSON is a *event.ParseError and reading goes on. One SSE
// message, and one choice's tool arguments, may be at most MaxEventBytes.
// A body that ends before a choice's finish_reason yields what arrived
// (tool calls with their arguments so far, as a JSON string when they do
// not parse) and then a ParseError wrapping event.ErrTruncated; so does
// one that ends after every choice finished but before [DONE] (its usage
// chunk may be what was cut off).
package openaichat
