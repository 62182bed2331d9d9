// Package codex encodes canonical events as `codex exec --json` output:
// one compact JSON object per line, keys in Codex's order, strings
// escaped as serde_json escapes them (UTF-8 as is, no HTML escaping).
//
// What is written:
//
//   - thread.started once, for the first main session (its SessionID, else
//     its agent id, else Config.Agent, else defaultThreadID);
//   - turn.started at a TurnStart or before the first item, and
//     turn.completed (usage cumulative for the thread: the sum of the
//     TurnEnd usages so far, or the RunEnd's when no turn carried any) or
//     turn.failed at the turn's end. A Codex turn spans every model call
//     made for one prompt, so a TurnEnd with a message id, with stop
//     reason tool_use, or with another stop reason that leaves tool calls
//     waiting for their result keeps the turn open and the next TurnStart
//     continues it (a TurnEnd with neither message id nor stop reason is
//     a Codex turn: it ends there);
//   - a text or thinking block as one item.completed agent_message or
//     reasoning, when its BlockEnd arrives. The block's text is held until
//     then, at most Config.MaxBlockBytes of it (event.DefaultMaxBytes by
//     default): the rest is dropped and reported once through Config.Warn;
//   - a tool call as item.started when it arrives and item.completed when
//     its result arrives (paired by id): shell tools (Bash, shell,
//     local_shell, command_execution, with a command) as
//     command_execution; MCP tools (MCPServer set, or named
//     mcp__server__tool) as mcp_tool_call; WebSearch and web_search as
//     web_search; TodoWrite as the turn's todo_list (item.started, then
//     item.updated, completed when the turn ends); Codex's own collab
//     tools (read from a Codex stream) as collab_tool_call, whose
//     receivers are the subagent scopes the call started; any other tool,
//     Claude's subagent tools Agent and Task included, as an mcp_tool_call
//     with an empty server, which reads back as the same name and input
//     (collab_tool_call is not among the item types the Codex SDK
//     declares, so nothing else is written as one);
//   - the Codex SDK's item shapes: a completed command_execution has
//     exit_code only when the source gave one (item.started keeps
//     Codex's null), a completed mcp_tool_call has result or error, never
//     the other as null;
//   - FileChange as file_change (status in_progress as item.started, the
//     later FileChange of the same ID as item.completed of that item),
//     TodoList as todo_list, an Error as the
//     top-level error event (or an error item when its Type is
//     "error_item"; a "turn_failed" Error ends the turn as turn.failed,
//     and so does the end of a stream after a fatal Error, even inside an
//     open block, so that the SDK's run() fails as the run did), a
//     plan Notice as a plan item, a codex Unknown as its own bytes.
//
// A tool call's item id is the call's own id; other item ids (and a
// call's without one) are item_0, item_1, ... in the order items are
// first written, past any item_N id a call brought.
// turn.completed's usage always has all five counts: canonical usage
// cannot tell a count the input left out from 0, and Codex writes all
// five.
// Only the main thread is written: events of subagent scopes are dropped.
// Whatever the format cannot carry (signatures, citations, notices,
// images outside MCP results, ...) is reported once per kind through
// Config.Warn as an *event.LossError; docs/formats/codex.md lists it.
package codex
