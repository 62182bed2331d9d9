// Package jsonenv decodes the JSON envelope stream (the anthropic_agent
// "json" formatter) into canonical events.
//
// Grammar: every SSE data message, or every NDJSON line, is one compact
// JSON object
//
//	{"type": T, "agent": ID, "final": BOOL, "delta": STRING, ...extras}
//
// with T one of the thirteen types of the spec (meta_init, thinking, text,
// citation, tool_call, server_tool_call, tool_result, tool_result_image,
// server_tool_result, awaiting_frontend_tools, meta_files, error,
// meta_final). SSE or NDJSON framing is chosen from the first line that
// tells ('{' means NDJSON, an SSE field SSE). `data: [DONE]` ends one SSE
// stream: with Config.StopAtDone (for live connections) the input ends
// there; otherwise what follows is read as the next stream.
//
// Tolerance: SSE framing follows the SSE specification (frame.SSE: LF,
// CRLF or CR; `data:` with or without a space; `event:`, `id:` and comments
// ignored; multi-line data joined with "\n"). An undecodable message is
// reported as a *event.ParseError with its line, and reading goes on. The
// server's {"error", "message", "traceback"} object becomes a fatal Error
// event. A rollback (agent_base's) takes back the agent's open text and
// thinking blocks (no BlockEnd) and becomes a Notice of kind
// event.NoticeAbandoned. Unknown types become Unknown events. Streamed blocks are grouped
// by (agent, type) and buffered payloads reassembled per (agent, type), so
// agents may interleave. Whitespace-only deltas are content. A stream that
// ends inside a block yields what it read, then a ParseError wrapping
// event.ErrTruncated.
//
// The type strings and payload structs in wire.go are this format's wire
// vocabulary, shared with package emit/jsonenv.
package jsonenv
