// Package codex decodes the output of the Codex CLI's `codex exec --json`
// into canonical events.
//
// Grammar: NDJSON, one JSON object per line, its "type" one of
//
//	thread.started {thread_id}            (session.created {session_id} before 0.44)
//	turn.started
//	turn.completed {usage{input_tokens, cached_input_tokens,
//	               cache_write_input_tokens, output_tokens, reasoning_output_tokens}}
//	turn.failed {error{message}}
//	item.started / item.updated / item.completed {item{id, type, ...}}
//	error {message}
//
// where an item's type (item_type before codex 0.44) is agent_message
// (assistant_message before 0.44), reasoning, command_execution,
// file_change, mcp_tool_call, web_search, todo_list, error, plan or
// collab_tool_call, its own fields flat beside id and type. Any other
// event or item type is kept as an event.Unknown with the line's bytes.
//
// Mapping (docs/formats/codex.md has the whole table): the thread id is
// the agent scope of every event; agent_message and reasoning become
// whole text and thinking blocks at completion; command_execution,
// mcp_tool_call, web_search and collab_tool_call become a ToolCall and its
// ToolResult, paired by item id; file_change, todo_list, error and plan
// items become FileChange, TodoList, Error and Notice events;
// collab_tool_call receivers become subagent scopes (SessionStart with
// ParentAgent and ParentToolID).
//
// Usage: turn.completed counts are cumulative per thread, as Codex writes
// them; each TurnEnd carries the difference from the thread's previous
// turn.completed. When a counter goes down, the producer restarted its
// count and the counts are taken as they are. Config.UsagePerTurn takes
// every count as it is.
//
// Tolerance: lines end in LF or CRLF; blank lines and a leading byte order
// mark are skipped. A line that is not a JSON object is reported as a
// *event.ParseError (source, line, column 1, offset, wrapping
// event.ErrSyntax) and reading goes on; a JSON object whose fields have
// unexpected types is reported the same way and kept as an Unknown event;
// the events of a line come out before the problem about it.
// A line over Config.MaxEventBytes is skipped and reported (ErrTooLarge).
// Duplicate keys: the last one counts, as encoding/json decides, except an
// item's id, which is its first: Codex flattens web_search's own id after
// the item's. An item seen only at item.completed is complete. Items still
// open when their turn ends yield what they carry before the TurnEnd (the
// last state of a text item, a web search's call); a stream that ends
// inside a turn or an item yields the same, then a ParseError wrapping
// event.ErrTruncated naming them.
//
// The wire vocabulary (type strings and structs) is declared in the
// module's internal/wire/codex, shared with package emit/codex; what a
// caller sees are events.
package codex
