// Package agui decodes an AG-UI event stream (protocol 1.0, as @ag-ui/core
// 1.0.0 defines it) into canonical events.
//
// Grammar: SSE messages, each a data: line (or several, joined) holding
// one event object with a "type" (AG-UI's HTTP transport writes
// "data: <json>" and a blank line; event:, id: and retry: fields are
// ignored, as @ag-ui/client's parser ignores them).
//
// Mapping: RUN_STARTED is a SessionStart of the run's agent (its runId;
// the threadId as the session id when it differs; parentRunId as its
// parent agent); RUN_FINISHED a RunEnd
// with the result text and the usage entries summed (inputTokens less the
// cached and cache-written parts); RUN_ERROR a fatal Error (code as its
// type) and a failed RunEnd. STEP_STARTED and STEP_FINISHED are a turn
// (TurnStart, TurnEnd, the step name as message id). Assistant text
// messages are text blocks, reasoning messages thinking blocks (a
// REASONING_ENCRYPTED_VALUE of the message is its signature); the
// TEXT_MESSAGE_CHUNK, REASONING_MESSAGE_CHUNK and TOOL_CALL_CHUNK
// shorthands are expanded as @ag-ui/client expands them; the THINKING_*
// events of producers older than 1.0 are a thinking block of the run's
// agent. A tool call is
// one ToolCall at TOOL_CALL_END, its arguments joined (kept as a JSON
// string when they do not parse; the fragments' lengths kept); a
// TOOL_CALL_RESULT is a ToolResult (string content, or text and image
// parts; other parts as their JSON text). SUBAGENT_STARTED is a
// SessionStart of the subagent (its subagentRunId) with its parent agent
// and tool call, SUBAGENT_FINISHED its RunEnd, SUBAGENT_ERROR a fatal
// Error and a failed RunEnd; every event with a subagentRunId belongs to
// that agent. A CUSTOM event named "agentstream.error" (what agentstream
// writes a non-fatal error as) is a non-fatal Error. Text messages of
// other roles, STATE_SNAPSHOT, STATE_DELTA, MESSAGES_SNAPSHOT,
// ACTIVITY_*, CUSTOM, RAW, encrypted values of tool calls and event types
// the protocol does not know are kept as Unknown events, verbatim (an
// object of an unknown type that Config.Foreign names another format's is
// a problem instead).
//
// Tolerance: framing is frame.SSE (LF, CRLF or CR line ends). Data that is
// not a JSON object with a type, and an event without a member its type
// requires, is a *event.ParseError and reading goes on. Content or
// arguments of a message or tool call that is not open open it (and are
// reported); what RUN_FINISHED leaves open is closed. A stream that does
// not begin with RUN_STARTED is read. One SSE message, and one tool
// call's arguments, may be at most MaxEventBytes. A stream that ends
// inside a run (no RUN_FINISHED or RUN_ERROR) yields what arrived (open
// tool calls with their arguments so far; open messages stay open) and
// then a ParseError wrapping event.ErrTruncated. Invalid UTF-8 is
// replaced with U+FFFD and reported once as a warning.
package agui
