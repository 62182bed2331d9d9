package respwire

//go:generate go run ../../gen
//go:generate go run ../../gen -write

import (
	"encoding/json"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/wire/openai"
)

// Name is the format's name, and the event.Unknown.Format of its items.
const Name = "openai-responses"

// Stream event types (the API reference's, shared with emit/openairesp).
const (
	EvCreated          = "response.created"
	EvInProgress       = "response.in_progress"
	EvQueued           = "response.queued"
	EvCompleted        = "response.completed"
	EvIncomplete       = "response.incomplete"
	EvFailed           = "response.failed"
	EvError            = "error"
	EvItemAdded        = "response.output_item.added"
	EvItemDone         = "response.output_item.done"
	EvPartAdded        = "response.content_part.added"
	EvPartDone         = "response.content_part.done"
	EvTextDelta        = "response.output_text.delta"
	EvTextDone         = "response.output_text.done"
	EvAnnotation       = "response.output_text.annotation.added"
	EvRefusalDelta     = "response.refusal.delta"
	EvRefusalDone      = "response.refusal.done"
	EvSummaryPartAdded = "response.reasoning_summary_part.added"
	EvSummaryPartDone  = "response.reasoning_summary_part.done"
	EvSummaryDelta     = "response.reasoning_summary_text.delta"
	EvSummaryDone      = "response.reasoning_summary_text.done"
	EvReasoningDelta   = "response.reasoning_text.delta"
	EvReasoningDone    = "response.reasoning_text.done"
	EvArgsDelta        = "response.function_call_arguments.delta"
	EvArgsDone         = "response.function_call_arguments.done"
	EvCustomInputDelta = "response.custom_tool_call_input.delta"
	EvCustomInputDone  = "response.custom_tool_call_input.done"
	EvMCPArgsDelta     = "response.mcp_call_arguments.delta"
	EvMCPArgsDone      = "response.mcp_call_arguments.done"
	EvCodeDelta        = "response.code_interpreter_call_code.delta"
	EvCodeDone         = "response.code_interpreter_call_code.done"
	EvImagePartial     = "response.image_generation_call.partial_image"
)

// Output item types.
const (
	ItemMessage        = "message"
	ItemReasoning      = "reasoning"
	ItemFunctionCall   = "function_call"
	ItemCustomToolCall = "custom_tool_call"
	ItemWebSearch      = "web_search_call"
	ItemFileSearch     = "file_search_call"
	ItemCodeInterp     = "code_interpreter_call"
	ItemImageGen       = "image_generation_call"
	ItemMCPCall        = "mcp_call"
	ItemMCPListTools   = "mcp_list_tools"
	ItemLocalShell     = "local_shell_call"
	ItemToolSearch     = "tool_search_call" // Codex's, with "execution": "client"
)

// Content part types.
const (
	PartOutputText  = "output_text"
	PartRefusal     = "refusal"
	PartSummaryText = "summary_text"
	PartReasoning   = "reasoning_text"
)

// Statuses of a response or an item.
const (
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
)

// LocalShellTool is the tool name of a local_shell_call item.
const LocalShellTool = "local_shell"

// ToolSearchTool is the tool name of a tool_search_call item.
const ToolSearchTool = "tool_search"

// IsServerItem reports whether an item type is a tool the API runs
// itself, whose item carries call and result.
func IsServerItem(typ string) bool {
	switch typ {
	case ItemWebSearch, ItemFileSearch, ItemCodeInterp, ItemImageGen:
		return true
	}
	return false
}

// StreamEvent is one Responses API stream event: the union of the fields
// of the event types read, decoded in one pass, in the order the API
// writes them. Reader reads event after event into one: its
// SequenceNumber, Response, Item and Part point into it, and the item id,
// response id and model are kept while they repeat.
type StreamEvent struct {
	Type           string      `json:"type" wire:"intern=Ev"`
	SequenceNumber *int64      `json:"sequence_number" wire:"buf=seq"`
	ItemID         string      `json:"item_id" wire:"keep=item.id"` // the last item's id while it repeats
	OutputIndex    int         `json:"output_index"`
	ContentIndex   int         `json:"content_index"`
	Delta          string      `json:"delta"`
	Response       *Response   `json:"response" wire:"buf=resp"`
	Item           *Item       `json:"item" wire:"buf=item"`
	Part           *Part       `json:"part" wire:"buf=part"`
	Arguments      string      `json:"arguments"`
	Input          string      `json:"input"`
	Annotation     *Annotation `json:"annotation"`
	// The error event's fields.
	Code    any    `json:"code"`
	Message string `json:"message"`
	Param   any    `json:"param"`

	seq  int64
	resp Response
	item Item
	part Part
}

// Response is the response object of the lifecycle events; only the
// fields read are declared (its output is the items already streamed).
type Response struct {
	ID                string           `json:"id" wire:"keep=id"`
	CreatedAt         json.RawMessage  `json:"created_at" wire:"borrow"` // Unix seconds; kept raw: any JSON is tolerated
	Status            string           `json:"status" wire:"intern=Status"`
	Error             *openai.APIError `json:"error"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Model       string `json:"model" wire:"keep=model"`
	ServiceTier string `json:"service_tier"`
	Usage       *Usage `json:"usage"`

	id, model string
}

// Usage is a response's token counts.
//
//wire:write nohtml
type Usage struct {
	InputTokens        *int64 `json:"input_tokens"`
	InputTokensDetails struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens        *int64 `json:"output_tokens"`
	OutputTokensDetails struct {
		ReasoningTokens *int64 `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
	TotalTokens *int64 `json:"total_tokens"`
}

// Counts returns u in the shared terms: the cached and reasoning counts
// only when the body says them (a count null or absent is unknown, the
// form agentstream writes for a count its source did not give).
func (u *Usage) Counts() openai.Usage {
	var o openai.Usage
	if u.InputTokens != nil {
		o.Prompt, o.Has = *u.InputTokens, o.Has|event.HasInput
	}
	if u.OutputTokens != nil {
		o.Output, o.Has = *u.OutputTokens, o.Has|event.HasOutput
	}
	if n := u.InputTokensDetails.CachedTokens; n != nil {
		o.Cached, o.Has = *n, o.Has|event.HasCacheRead
	}
	if n := u.OutputTokensDetails.ReasoningTokens; n != nil {
		o.Reasoning, o.Has = *n, o.Has|event.HasReasoning
	}
	return o
}

// UsageOf returns the wire usage of shared counts: a cached or reasoning
// count not said is nil, written in the unknown form null (the API's
// schema requires both details objects and their counts).
func UsageOf(o openai.Usage) *Usage {
	u := &Usage{}
	u.InputTokens, u.OutputTokens, u.TotalTokens = o.Tokens()
	if o.Has&event.HasCacheRead != 0 {
		u.InputTokensDetails.CachedTokens = &o.Cached
	}
	if o.Has&event.HasReasoning != 0 {
		u.OutputTokensDetails.ReasoningTokens = &o.Reasoning
	}
	return u
}

// Item is an output item: the union of the fields of the item types
// read. Raw is the item's JSON, verbatim: Reader points it and the raw
// fields into the event's text.
//
//wire:order
type Item struct {
	ID               string          `json:"id" wire:"keep=id"`
	Type             string          `json:"type" wire:"intern=Item+Status"`
	Status           string          `json:"status" wire:"intern=Item+Status"`
	Content          []Part          `json:"content"`
	Arguments        json.RawMessage `json:"arguments" wire:"borrow"` // a string, but an object in some vendors' items
	CallID           string          `json:"call_id"`
	Name             string          `json:"name"`
	Summary          []Part          `json:"summary"`
	EncryptedContent string          `json:"encrypted_content"`
	Input            string          `json:"input"`
	ServerLabel      string          `json:"server_label"`
	Output           *string         `json:"output"`
	Error            json.RawMessage `json:"error" wire:"borrow"`
	Action           json.RawMessage `json:"action" wire:"borrow"`
	Queries          json.RawMessage `json:"queries" wire:"borrow"`
	Results          json.RawMessage `json:"results" wire:"borrow"`
	Code             *string         `json:"code"`
	ContainerID      string          `json:"container_id"`
	Outputs          json.RawMessage `json:"outputs" wire:"borrow"`
	Result           *string         `json:"result"`
	Raw              json.RawMessage `json:"-" wire:"whole,borrow"`

	id string
}

// UnmarshalJSON decodes an item and keeps its JSON.
func (it *Item) UnmarshalJSON(b []byte) error {
	type plain Item
	if err := json.Unmarshal(b, (*plain)(it)); err != nil {
		return err
	}
	it.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// Part is a content part (output_text, refusal) or a summary part.
//
//wire:order
type Part struct {
	Type        string       `json:"type" wire:"intern=Part"`
	Annotations []Annotation `json:"annotations"`
	Text        string       `json:"text"`
	Refusal     string       `json:"refusal"`
}

// Annotation is a citation of an output_text part (url_citation,
// file_citation, container_file_citation, file_path). Raw is its JSON.
type Annotation struct {
	Type       string          `json:"type"`
	URL        *string         `json:"url"`
	Title      *string         `json:"title"`
	StartIndex *int64          `json:"start_index"`
	EndIndex   *int64          `json:"end_index"`
	Filename   *string         `json:"filename"`
	Index      *int64          `json:"index"`
	Raw        json.RawMessage `json:"-" wire:"whole"`
}

// UnmarshalJSON decodes an annotation and keeps its JSON.
func (a *Annotation) UnmarshalJSON(b []byte) error {
	type plain Annotation
	if err := json.Unmarshal(b, (*plain)(a)); err != nil {
		return err
	}
	a.Raw = append(json.RawMessage(nil), b...)
	return nil
}
