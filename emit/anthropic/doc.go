// Package anthropic encodes canonical events as Anthropic Messages API
// streaming bodies: for every model turn of the main agent, a valid SSE
// body message_start, content_block_start / content_block_delta /
// content_block_stop per block, message_delta (stop reason and usage),
// message_stop; the bodies of successive turns are concatenated, which
// package parse/anthropic reads back.
//
// Blocks: text as text_delta events (citations as citations_delta events
// before the block's stop: the stop of a text block is held until the next
// event shows whether citations follow), thinking as thinking_delta plus a
// signature_delta, tool calls (tool_use, server_tool_use, mcp_tool_use)
// with their input as input_json_delta, server and MCP tool results as
// whole blocks, Unknown events read from this format back as they were.
// An Error event becomes an `event: error` message, which ends the body it
// interrupts (no message_stop, as the API does); a failed turn
// (TurnEnd.Error) ends its body with an error event of type turn_failed. Message ids come from
// TurnStart, or are derived from a counter (msg_agentstream_0001, ...).
//
// Turns: where the source marks them (TurnStart/TurnEnd) they are kept;
// where it does not, the first content opens a message and it ends once
// all its tool calls have their results, or at the run's end or Close.
//
// What a response body cannot carry is reported once per kind through
// Config.Warn as *event.LossError: session metadata, client tool results
// (the client sends them in the next request), subagents (only the first
// agent's turns are written), notices, run summaries, awaiting tools,
// generated files, file changes, todo lists, unknown events of other
// formats. A block left open at Close (the input was cut off) gets no
// message_stop, and Close returns an error wrapping event.ErrTruncated.
package anthropic
