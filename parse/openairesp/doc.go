// Package openairesp decodes the streaming body of the OpenAI Responses
// API (server-sent events, `event: response.*` + `data: JSON`) into
// canonical events.
//
// Grammar: SSE messages whose data is a JSON object with a type and a
// sequence_number: the lifecycle events (response.created, .queued,
// .in_progress, .completed, .incomplete, .failed, and error), the output
// item events (response.output_item.added/.done), content parts
// (response.content_part.added/.done), text (response.output_text.delta,
// .done, .annotation.added), refusals (response.refusal.delta/.done),
// reasoning (response.reasoning_summary_part.added/.done,
// response.reasoning_summary_text.delta/.done,
// response.reasoning_text.delta/.done), tool arguments
// (response.function_call_arguments.*, response.custom_tool_call_input.*,
// response.mcp_call_arguments.*) and the progress events of the built-in
// tools (web_search_call, file_search_call, code_interpreter_call,
// image_generation_call, mcp_call, mcp_list_tools). One body is one
// response; bodies concatenated (one per call of an agent loop) are read
// one after the other, each response.created opening a new turn.
//
// Mapping: response.created is a TurnStart (response id, model); the final
// lifecycle event a TurnEnd with the stop reason mapped from status and
// incomplete_details.reason (completed: end_turn, or tool_use when the
// response holds client tool calls; max_output_tokens: max_tokens;
// content_filter: refusal) and the usage (input tokens without the cached
// ones, which are cache reads; reasoning tokens); response.failed sets the
// TurnEnd's Error. An output_text or refusal part is a text block, its
// annotations (url_citation, file_citation, ...) one Citations event after
// it; a reasoning summary part or reasoning text is a thinking block whose
// BlockEnd carries the item's encrypted_content as its signature. A
// function_call, custom_tool_call (input as a JSON string),
// local_shell_call (name local_shell, input its action) and Codex's
// tool_search_call are client ToolCalls, emitted at the item's end with
// the arguments of its done event. An mcp_call is a ToolCall with its
// MCP server and a ToolResult with its output or error. The built-in
// tools' items are a server ToolCall (name without _call; input the
// action, queries or code) and a server ToolResult (its results, outputs
// or image as text; the whole item as Structured). Other item types
// (mcp_list_tools, mcp_approval_request, newer ones), the audio events
// and unknown event types are kept as Unknown events (Format "openai-responses"). An error
// event ends the open response and becomes a fatal Error event.
//
// Tolerance: framing is frame.SSE (LF, CRLF or CR; the type may come from
// the data alone). A sequence_number that skips or goes back is a
// *event.ParseError (reading goes on). Items streamed without their part
// events, or only in their output_item.done, are read from the item. A
// message that is not JSON is a ParseError. One SSE message and one tool
// call's arguments may be at most MaxEventBytes. A body that ends before
// its final lifecycle event yields what arrived (tool calls with the
// arguments so far) and then a ParseError wrapping event.ErrTruncated.
package openairesp
