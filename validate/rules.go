package validate

import "slices"

// Rule is one check validate makes. docs/validate.md is generated from
// Rules by hand: keep the two in step.
type Rule struct {
	ID   string
	Name string
	// Formats lists the formats the rule applies to; nil means every
	// format.
	Formats []string
	Doc     string
	// NotFor lists formats a rule for every format does not apply to.
	NotFor []string
}

// Rule ids.
const (
	Syntax         = "GEN001"
	Truncated      = "GEN002"
	TooLarge       = "GEN003"
	UTF8           = "GEN004"
	MetaInitFirst  = "GEN005"
	MetaFinalLast  = "GEN006"
	ToolAnswered   = "GEN007"
	ToolInputJSON  = "GEN008"
	TurnClosed     = "GEN009"
	EnvFields      = "ENV001"
	EnvByteCap     = "ENV002"
	EnvFinalFlag   = "ENV003"
	EnvImage       = "ENV004"
	EnvCitation    = "ENV005"
	EnvPayloadJSON = "ENV006"
	EnvDone        = "ENV007"
	EnvKnownType   = "ENV008"
	EnvAgent       = "ENV009"
	CodexItem      = "CDX001"
	CodexTurn      = "CDX002"
	XMLStructure   = "XML001"
	XMLAttributes  = "XML002"
	XMLEscaping    = "XML003"
	MsgOrder       = "MSG001"
	MsgDelta       = "MSG002"
	MsgEventName   = "MSG003"
	ClaudeResult   = "CLA001"
)

// Rules is every rule, in report order.
var Rules = []Rule{
	{Syntax, "syntax", nil, "every unit (line, SSE message, element) follows the format's grammar", nil},
	{Truncated, "truncated", nil, "the stream does not end inside a block, a buffered payload or a citation group", nil},
	{TooLarge, "too-large", nil, "no line, SSE message or block is over --max-event-bytes", nil},
	{UTF8, "utf8", nil, "the input is valid UTF-8", nil},
	{MetaInitFirst, "meta-init-first", nil, "an agent's session start (meta_init, system/init, thread.started) comes once, before any other content of that agent", nil},
	{MetaFinalLast, "meta-final-last", nil, "nothing of an agent follows its run summary (meta_final, result)", nil},
	{ToolAnswered, "tool-answered", nil, "every client tool call is answered by a tool result, or listed as pending in awaiting_frontend_tools, by the end of the stream (not for one model response, whose tool results go in the next request: raw Anthropic and OpenAI SSE and the inline XML tool protocols)", []string{"anthropic", "openai-responses", "openai-chat", "inlinexml", "xmltools"}},
	{ToolInputJSON, "tool-input-json", nil, "a tool call's input is a JSON object", nil},
	{TurnClosed, "turn-closed", nil, "every model turn that starts ends (message_stop, turn.completed or turn.failed) before the next starts and before the stream ends", nil},
	{EnvFields, "envelope-fields", []string{"jsonenv"}, "every envelope is a JSON object with type, agent and delta strings and a final boolean; extra fields have their documented types", nil},
	{EnvByteCap, "byte-cap", []string{"jsonenv"}, "an envelope with a delta is at most 2048 bytes of JSON text as written (escapes counted); images and empty markers are not checked", nil},
	{EnvFinalFlag, "final-flag", []string{"jsonenv"}, "text and thinking end with a final marker whose delta is empty; tool_result_image is never final; a buffered payload ends with final before another of its type and agent begins; a citation group ends with a final citation before its agent goes on", nil},
	{EnvImage, "image-placement", []string{"jsonenv"}, "tool_result_image comes inside an open tool_result of the same agent and id, and has src and media_type", nil},
	{EnvCitation, "citation-placement", []string{"jsonenv"}, "citations come right after their text block's final marker (or another citation of the group)", nil},
	{EnvPayloadJSON, "payload-json", []string{"jsonenv"}, "the reassembled payloads of meta_init, meta_final, meta_files and error are JSON objects, that of awaiting_frontend_tools a JSON array of {tool_use_id, name, input}", nil},
	{EnvDone, "done-marker", []string{"jsonenv"}, "an SSE stream ends with data: [DONE] (or the server's error object) and nothing follows it", nil},
	{EnvKnownType, "known-type", []string{"jsonenv"}, "the envelope's type is one of the 13 types of the specification", nil},
	{EnvAgent, "agent-present", []string{"jsonenv"}, "the envelope's agent is not empty", nil},
	{CodexItem, "item-lifecycle", []string{"codex"}, "an item is started at most once, updated only between item.started and item.completed, completed at most once, and completed before its turn completes", nil},
	{CodexTurn, "turn-lifecycle", []string{"codex"}, "turn.completed and turn.failed end a turn.started one; items come inside a turn", nil},
	{MsgOrder, "event-order", []string{"anthropic", "claude"}, "Messages API stream events come in order: message_start; per block content_block_start, its deltas, content_block_stop, one block at a time in index order; message_delta; message_stop (Claude: per agent scope, over stream_event lines)", nil},
	{MsgDelta, "delta-type", []string{"anthropic", "claude"}, "a delta suits its block: text_delta and citations_delta for text, thinking_delta and signature_delta for thinking, input_json_delta for tool use", nil},
	{MsgEventName, "event-name", []string{"anthropic"}, "an SSE message's event: field names the type of its data", nil},
	{ClaudeResult, "result-present", []string{"claude"}, "the stream has a result line for the main agent (a run that finished)", nil},
	{XMLStructure, "element-structure", []string{"xml"}, "outside text and thinking blocks the stream is known elements and white space; close tags match open ones; a text or thinking block is closed before another block opens", nil},
	{XMLAttributes, "required-attributes", []string{"xml"}, "elements carry their attributes: id, name and arguments on tool calls; id and name on tool results; data on meta_init, meta_final and awaiting_frontend_tools; type on citation; src and media_type on image", nil},
	{XMLEscaping, "escaping", []string{"xml"}, "every line is an SSE field (a raw newline in a chunk breaks the framing); attribute values have no raw < and only known entities after &", nil},
}

// applies reports whether the rule applies to format.
func (r Rule) applies(format string) bool {
	return (r.Formats == nil || slices.Contains(r.Formats, format)) && !slices.Contains(r.NotFor, format)
}

// RuleByID returns the rule with the given id.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
