// Package openairesp writes canonical events as OpenAI Responses API
// streaming bodies: one response (response.created ... response.completed)
// per model turn of the main agent, concatenated.
//
// Each event carries a sequence_number, 0 at response.created. A text
// block is a message item with one output_text part, streamed as
// response.output_text.delta events of at most 64 bytes;
// its citations become annotations (the source's annotation when it was
// one, else a url_citation; citations without a URL are lost). A thinking
// block is a reasoning item with one summary_text part, its signature the
// item's encrypted_content. A tool call is a function_call item whose
// arguments stream as deltas, or a custom_tool_call when its input is a
// JSON string; an MCP call is an mcp_call item carrying its result; a
// server tool call is written back as its item when its result holds an
// OpenAI built-in tool item (read by this format), and lost otherwise. The
// turn's end is response.completed, or response.incomplete for max_tokens
// (max_output_tokens) and refusal (content_filter), with the usage and
// every item of the turn as its output; a failed turn is response.failed;
// an error event ends the response it interrupts. created_at is 0 and
// model what the source said (empty when it said none). Unknown items of
// this format are written back; unknown event types are not (the SDKs
// reject them). What the body cannot carry (client tool results,
// subagents, session and run metadata, other formats' unknown items) is
// reported once per kind to Config.Warn.
package openairesp
