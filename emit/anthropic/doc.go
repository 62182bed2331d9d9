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
// signature_delta, tool calls (tool_use, server_tool_use) with their input
// as input_json_delta (one per fragment of ToolCall.InputDeltas, else
// one), server and MCP tool results as whole blocks, Unknown
// events read from this format back as they were. MCP tool calls and
// results are tool_use (with server_name) and tool_result, which clients
// read without the MCP connector beta; the beta's mcp_tool_use and
// mcp_tool_result only with Config.MCPBeta.
//
// Errors go where the API puts them: a fatal Error becomes an `event:
// error` message where it arrived, which ends the body it interrupts (the
// block it cut gets no content_block_stop, its message no message_delta
// or message_stop; a turn end is held until the next event shows whether
// an error replaces it); an error no agent claims belongs to the main
// agent; a failed turn (TurnEnd.Error) and a failed run no error told of
// (RunEnd.IsError) end with an error event; a non-fatal error is written
// only when it is an API error object the source kept (the envelope's,
// XML's), others (Codex error items) are warned about, since clients raise
// at once. error.type is one of the API's types (APIError's rules, table
// in docs/stop-usage-errors.md), the replaced type leading the message.
//
// Usage and stop reasons: TurnStart.Usage in message_start (with
// service_tier), TurnEnd.Usage in message_delta; a run's cumulative usage
// (RunEnd.Usage) goes on the last message as what the others did not
// carry. A turn with no stop reason takes the run end's when it is the
// last; else its stop_reason is null, never a made-up end_turn or
// tool_use. A message with no usage known has the unknown form,
// "usage":{"input_tokens":null,"output_tokens":null} in message_start
// and "output_tokens":null in message_delta, never a made-up 0. With
// Config.LateSignatures, thinking signatures the envelope gives only in
// meta_final are written as a late signature_delta of the last message's
// blocks (off by default: the API never sends a delta after its block's
// stop). Message ids come from
// TurnStart; a message whose source names none has id "" (unknown),
// never a made-up one.
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
