// Package anthropic decodes the streaming body of the Anthropic Messages
// API (server-sent events) into canonical events.
//
// Grammar: SSE messages, each an `event: TYPE` line and a `data: JSON`
// line, TYPE one of message_start, content_block_start,
// content_block_delta, content_block_stop, message_delta, message_stop,
// ping and error. One body is one API call; several bodies concatenated
// (one per call of an agent loop) are read one after the other, each
// message_start opening a new turn.
//
// Mapping (shared with Claude Code's stream_event lines, through package
// internal/messages): message_start is a TurnStart, message_stop a
// TurnEnd with the stop reason and usage of message_delta; text and
// thinking blocks stream as BlockStart, Delta, BlockEnd (the thinking
// signature on BlockEnd; citations_delta collected into one Citations
// event after the text block's end); tool_use, server_tool_use and
// mcp_tool_use blocks become one ToolCall each, their input assembled from
// input_json_delta fragments and kept verbatim; server tool results
// (*_tool_result) become ToolResults with Server set and the block's
// content JSON as one text part. redacted_thinking, other block types,
// unknown delta types and unknown events are kept as Unknown events
// (Format "anthropic") with their JSON. ping is skipped. An error event
// ends the turn it interrupts and becomes a fatal Error event. The body
// names no agent: every event gets Config.Agent.
//
// Tolerance: framing is frame.SSE (LF, CRLF or CR line ends,
// `data:` with or without a space; the type may come from the data alone).
// A message whose data is not JSON, or that breaks the block structure
// (a delta for a block never started, ...), is reported as a
// *event.ParseError with its line, and reading goes on. One SSE message
// may be at most MaxEventBytes (default 16 MiB), and so may one tool input.
// A body that ends without message_stop — cut off, or inside an SSE
// message — yields what arrived (text blocks stay open; a tool call whose
// input had begun is emitted with what arrived, as a JSON string when it
// does not parse) and then a ParseError wrapping event.ErrTruncated. A
// message whose message_delta arrived but not its message_stop ends its
// turn with the stop reason and usage the delta gave, before the report.
package anthropic
