// Package acp decodes Agent Client Protocol sessions (agent-client-protocol
// schema/v1/schema.json) into canonical events: an agent's output, or a
// two-way transcript.
//
// Grammar: one JSON-RPC 2.0 message per line, as an agent writes it on
// stdout (responses to the client's initialize, session/new and
// session/prompt; session/update notifications; its requests to the
// client, session/request_permission, fs/*, terminal/*), or transcript
// lines {"dir": "client->agent" | "agent->client", "msg": <message>}. The
// wire types are declared in internal/wire/acp.
//
// Mapping (docs/formats/acp.md has the whole table): the session/new
// response opens the session (its initialize and session/new responses
// kept verbatim as the start's Meta, MetaKind "acp"), the prompt (a
// transcript's session/prompt request, or user_message_chunks) is its
// Prompt; agent_message_chunk and agent_thought_chunk are text and
// thinking deltas, a block ending at a change of kind or messageId or at
// anything else the agent does; tool_call and tool_call_update are merged
// by toolCallId into a ToolCall (once no longer pending) and, at completed
// or failed, a ToolResult (diff content also as a FileChange); plan is a
// TodoList; the session/prompt response is the RunEnd (stop reason, usage,
// the response verbatim); a JSON-RPC error response is a fatal Error.
// usage_update, available_commands_update and any other update are kept
// as event.Unknown; the agent's requests as event.Notice.
//
// Tolerance: a line that is not a JSON-RPC 2.0 message is a positioned
// problem (naming the format it looks like); reading goes on. A prompt
// turn left without its response is reported cut (event.ErrTruncated). An
// input with only the client's messages (detected, so that no other format
// takes it) is reported as no agent output.
// Invalid UTF-8 is replaced and warned about once; a line over the cap is
// skipped and reported.
package acp
