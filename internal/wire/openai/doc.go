// Package openai holds the wire vocabulary the OpenAI formats' parse and
// emit packages share (openai-responses and openai-chat): the stop reason
// and usage tables between the OpenAI bodies and the canonical model, the
// error object, and the splitting of long text into stream deltas. The
// chunk and event declarations are in its chatwire and respwire packages;
// the stream logic both formats share is in internal/openaistream.
//
// The canonical stop reasons are the Anthropic Messages API's (end_turn,
// tool_use, max_tokens, stop_sequence, refusal, pause_turn), the
// vocabulary the other formats already carry; the tables below map them
// to and from finish_reason (chat) and status + incomplete_details.reason
// (responses). docs/formats/openai-chat.md and openai-responses.md print
// the same tables.
package openai
