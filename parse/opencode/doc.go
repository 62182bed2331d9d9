// Package opencode decodes the output of OpenCode's `opencode run --format
// json` (OpenCode 1.18.33) into canonical events. It is read only.
//
// Grammar: NDJSON, one JSON object per line, {type, timestamp (ms),
// sessionID, part | error}, type one of
//
//	step_start  {part{id, messageID, sessionID, type: "step-start"}}
//	text        {part{..., type: "text", text, time{start, end}}}        one whole part, not deltas
//	reasoning   {part{..., type: "reasoning", text, time}}               only with --thinking
//	tool_use    {part{type: "tool", tool, callID, state{status, input, output | error, title, metadata, time}}}
//	step_finish {part{..., type: "step-finish", reason, tokens{total, input, output, reasoning, cache{read, write}}, cost}}
//	error       {error{name, data{message, statusCode, isRetryable, responseBody, ...}}}
//
// as packages/opencode/src/cli/cmd/run.ts writes them (the wire types are
// declared in internal/wire/opencode). A tool_use line holds the call and
// its result: run.ts writes a tool part only once its state is completed
// or error.
//
// Mapping: the first line's sessionID opens the session
// (event.SessionStart with SessionID only: the format has no start line,
// no model, no prompt, no cwd, and none is made up); a step is a turn
// (TurnStart, TurnEnd with the step's reason as its stop reason, its
// tokens as usage, reasoning included in OutputTokens, and its cost); a
// text or reasoning part is a whole block (BlockStart, one Delta, BlockEnd);
// a tool_use line is a ToolCall and its ToolResult (output or error as
// text, the state's metadata as Structured, a bash metadata.exit as the
// exit code); an error line is a fatal Error (message data.message, type
// the error's name, the line as Raw), and ends the open step as failed.
//
// The run's end: 1.18.33 writes no run-end line (newer versions add one).
// A run has ended after a step_finish whose reason is not tool-calls, or
// after an error line. An input that ends inside a step, or right after a
// step that finished with tool-calls (the agent goes on with another
// step), is reported as truncated (event.ErrTruncated); the decoder emits
// no RunEnd, since the format has none.
//
// Tolerance: LF or CRLF, blank lines and a BOM skipped; a line that is not
// a JSON object is a positioned problem (name:line:1: ...) and reading
// goes on; a JSON object whose fields have unexpected types, or a part
// line without its part, is a problem and kept as an event.Unknown; an
// unknown line type is kept as an event.Unknown; a line of another format
// is a problem naming it; invalid UTF-8 is replaced with U+FFFD and
// warned about once; a line over the cap (event.DefaultMaxBytes by default)
// is skipped and reported. docs/formats/opencode.md has the details.
package opencode
