// Package claude decodes Claude Code's stream-json output
// (claude -p --output-format stream-json --verbose, with or without
// --include-partial-messages) into canonical events.
//
// Grammar: one JSON object per line (LF or CRLF), each with a type —
// system (subtype init, api_retry, status, task_*, hook_*, ...),
// assistant (one completed content block of a model message), user (tool
// results; a subagent's prompt), stream_event (one raw Messages API stream
// event), result, and the rest of the catalogue (tool_progress,
// rate_limit_event, keep_alive, ...). The single JSON array that
// --output-format json prints is accepted too, when the input starts with
// '['.
//
// Mapping: system/init opens the session (SessionStart, with the line as
// Meta, MetaKind "claude"); the main agent's scope is the session id.
// Message content goes through package internal/messages: stream events
// build blocks as they arrive (text and thinking deltas at once, tool input
// assembled from input_json_delta and emitted as one ToolCall), and the
// assistant snapshot of a block already built (same message id, same
// content index) is compared with it, never emitted again; without partial
// messages the snapshots are the blocks. A snapshot that extends the
// streamed text fills in the missing deltas; one that contradicts it is
// reported as a *event.ParseError and the streamed version kept (for tool
// input, the snapshot's is kept: it is what the tool ran with). User lines
// become ToolResults paired by tool_use_id, with tool_use_result as
// Structured. Lines with a parent_tool_use_id belong to that subagent's
// scope, opened by a SessionStart (ParentToolID, Name = subagent_type,
// Description = task_description, Prompt = its first user text, Model =
// the model of its first message) the first time it appears; opened by its
// prompt, that SessionStart, and the events after it, wait at most 8 lines
// for the subagent's first message. result becomes RunEnd (Meta: the line). Other system
// subtypes and status lines become Notices with a one-line summary;
// Claude Code's synthetic error messages become Errors; an assistant line
// marked "aborted": true (what agentstream's writer makes of a block the
// input was cut off inside) gives its text or thinking block without an
// end, truncated; unknown line types
// are kept as Unknown (Format "claude"), unknown blocks and deltas as
// Unknown (Format "anthropic"). Turns: TurnStart at message_start or at a
// message's first snapshot; TurnEnd at message_stop, or, without partial
// messages, when the agent's next message begins, when a subagent's result
// arrives, or at the result line (with its stop reason).
//
// Tolerance: lines are framed by frame.Lines, at most MaxEventBytes
// (default 16 MiB) each; a longer line, or one that is not JSON, is
// reported as a *event.ParseError with its line number, and reading goes
// on with the next line. A UTF-8 byte order mark, CRLF, blank lines and
// several objects written on one line are accepted; of fused objects,
// each bad one is reported at its column (after a syntax error the line
// is resynchronised at the next "}{"). A line's problems are returned
// after the events it still produced. Inside the top-level array a
// syntax error ends the input (an array cannot be resynchronised); an
// element over MaxEventBytes is reported (ErrTooLarge) and skipped when it
// ends within a few KB past the cap, and otherwise ends the input there,
// unread. An
// input that ends inside a streamed message, or without a result line,
// yields what it read and then a ParseError wrapping event.ErrTruncated.
//
// The line types and structs in wire.go are this format's vocabulary,
// shared with package emit/claude.
package claude
