// Package claude encodes canonical events as Claude Code stream-json, the
// way the real CLI writes it, so that a consumer written for
// `claude -p --output-format stream-json --verbose` accepts the output.
//
// Output: one compact JSON object per line. The system/init line comes
// first (the source's own when it was read from this format, after the
// lines that came before it there, such as SessionStart hook lines, which
// are written as they came; else one made of the session's model, tools
// and cwd, "" for what the source does not name); each completed content block is
// one assistant line (a snapshot carrying that block, with the message's
// id and model); tool results are user lines (content a string when the
// result is one text part, else text and image blocks; is_error as
// Claude Code writes it: when true, false on Bash results, absent on
// other tools' successes;
// tool_use_result from Structured); errors, and failed turns (error type
// turn_failed), are Claude Code's synthetic assistant messages (model
// "<synthetic>", a top-level error); notices go
// back verbatim when they came from this format, else as
// system/informational lines; a result line closes the run (the source's
// own, or one made of what is known: stop reason, turns, duration, cost,
// usage, errors, the last text as result; is_error, subtype
// error_during_execution and the error messages when the main agent had a
// fatal error or a failed turn). Subagent lines carry
// parent_tool_use_id: the tool call that started the subagent (its
// SessionStart.ParentToolID, or else its parent's latest tool call without
// a result); a subagent's prompt is written as its first user line, and
// its model as the model of its messages; its open message ends before
// the parent's result for that call, so its last lines come first. A
// second main session (concatenated inputs) is a run of its own: the
// first run gets its result line, the second its own init. A stop reason
// nobody named stays null. Every line has uuid and session_id; uuids are derived from the
// session id and a counter, so output is deterministic.
//
// With Config.Partial (CLI flag --partial) the raw Messages API stream
// events are written too, as stream_event lines, as
// --include-partial-messages does: message_start, content_block_start,
// deltas (tool input as one input_json_delta per fragment the source
// streamed, ToolCall.InputDeltas, else one), the assistant snapshot, then
// content_block_stop, and message_delta/message_stop at the end of each
// turn. As Claude Code, it forwards no stream events of subagents.
//
// Turns: where the source marks them (TurnStart/TurnEnd) they are kept;
// where it does not (the JSON envelope, say), the first content opens a
// message and it ends once all its tool calls have their results, or at
// the run's end.
//
// A text or thinking block is held until its end to write its assistant
// line, which stays within Config.MaxBlockBytes (event.DefaultMaxBytes by
// default) with the text JSON-escaped in it: text beyond is dropped, from
// the stream events too, and reported once through Config.Warn.
//
// What stream-json cannot carry is reported once per kind through
// Config.Warn as *event.LossError: subagent ids (Claude Code names a
// subagent by its tool call), tool result exit codes and status,
// awaiting tools, generated files, file changes, todo lists, a subagent's
// run summary, unknown events of other formats. A block left open at
// Close (the input was cut off) is written as an assistant line marked
// "aborted": true, no result line is written, and Close returns an error
// wrapping event.ErrTruncated.
package claude
