// Package gemini decodes Gemini CLI's non-interactive output into
// canonical events: `gemini -p ... --output-format stream-json`, and
// `--output-format json` read as the same run.
//
// Grammar (stream-json): NDJSON, one JSON object per line, each
// {type, timestamp, ...} with type one of
//
//	init {session_id, model}
//	message {role user|assistant, content, delta?}
//	tool_use {tool_name, tool_id, parameters}
//	tool_result {tool_id, status success|error, output?, error?{type, message}}
//	error {severity warning|error, message}
//	result {status success|error, error?{type, message}, stats?{total_tokens,
//	       input_tokens, output_tokens, cached, input, duration_ms, tool_calls, models?}}
//
// (gemini-cli packages/core/src/output/types.ts; Gemini CLI 0.61.0 adds
// the per-model models object). --output-format json is one indented
// object {session_id, response, stats, error}: an input whose first line
// is "{" alone is read whole (up to Config.MaxEventBytes).
//
// Mapping (docs/formats/gemini.md has the whole table): init opens the
// session (its line is SessionStart.Meta, MetaKind "gemini"), held until
// the next line so that the user's message becomes its Prompt; a run of
// assistant deltas is one text block, ended by the next line of another
// kind; tool_use and tool_result are a ToolCall and its ToolResult (output
// as text, the error object as Structured, status error as IsError);
// error is a non-fatal Error whose Type is its severity; result is the
// run's end (its line is RunEnd.Meta), with a fatal Error before it when
// it failed. Stream-json has no thinking, no stop reason and no turns:
// none is made up; the result's per-model counts stay in its line.
//
// Tolerance: lines end in LF or CRLF; blank lines and a byte order mark
// are skipped; invalid UTF-8 is replaced (one warning). A line that is no
// JSON object is a *event.ParseError and reading goes on; a line of a
// known type with a field of the wrong type is reported and kept as
// event.Unknown, as is a line of a type this package does not know. A
// line of another format is reported as such. A stream that ends without
// its result line is cut (event.ErrTruncated, last), never a finished
// run; an input with no line of the format is a problem.
//
// The wire types are declared once in internal/wire/gemini, shared with
// emit/gemini and parse/geminisession.
package gemini
