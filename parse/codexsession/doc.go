// Package codexsession decodes the rollout files Codex keeps on disk
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl) into canonical events.
//
// Grammar: one JSON object per line, {timestamp, ordinal, type, payload},
// type one of session_meta, turn_context, response_item (Responses API
// items: message, reasoning, function_call, custom_tool_call, their
// outputs, web_search_call, ...), event_msg (task_started, task_complete,
// item_completed, token_count, ...), world_state, token_usage_record,
// compacted.
//
// Mapping: session_meta opens the session (its model from turn_context,
// its prompt from the first user message); task_started and task_complete
// are the turn, with the growth of the cumulative token count as its
// usage and task_complete.error as an event.Error and a failed TurnEnd;
// response items are the content; a shell command is read as the exec
// item Codex completes for the model's function call, as codex exec
// --json shows it. Events that repeat a response item are not read twice.
//
// Tolerance: as package claudesession (positioned errors, a line cap, a
// rollout still being written read to its last whole line, then
// event.ErrTruncated). docs/formats/codex-session.md has the details.
package codexsession
