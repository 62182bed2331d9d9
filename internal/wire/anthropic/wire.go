package anthropic

import (
	"encoding/json"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// Format is the event.Unknown.Format of Messages API items.
const Format = "anthropic"

// Stream event types.
const (
	EventMessageStart      = "message_start"
	EventContentBlockStart = "content_block_start"
	EventContentBlockDelta = "content_block_delta"
	EventContentBlockStop  = "content_block_stop"
	EventMessageDelta      = "message_delta"
	EventMessageStop       = "message_stop"
	EventPing              = "ping"
	EventError             = "error"
)

// Content block types.
const (
	BlockText             = "text"
	BlockThinking         = "thinking"
	BlockRedactedThinking = "redacted_thinking"
	BlockToolUse          = "tool_use"
	BlockServerToolUse    = "server_tool_use"
	BlockMCPToolUse       = "mcp_tool_use"
	BlockMCPToolResult    = "mcp_tool_result"
	BlockToolResult       = "tool_result" // user side
	BlockImage            = "image"       // user side
)

// Delta types.
const (
	DeltaText      = "text_delta"
	DeltaInputJSON = "input_json_delta"
	DeltaThinking  = "thinking_delta"
	DeltaSignature = "signature_delta"
	DeltaCitations = "citations_delta"
)

// readsFields reports whether the fields of a content block of type typ
// (but its type) are read here. A block of another type is kept whole, as
// its JSON (an Unknown), so a field of it whose value has not the type of
// the Block field of that name is no problem: it is not that field.
func readsFields(typ string) bool {
	switch typ {
	case "", BlockText, BlockThinking, BlockToolUse, BlockServerToolUse, BlockMCPToolUse,
		BlockMCPToolResult, BlockToolResult, BlockImage:
		return true
	}
	return IsServerToolResult(typ)
}

// IsServerToolResult reports whether a content block type is the result of
// a server tool (web_search_tool_result, code_execution_tool_result, ...).
func IsServerToolResult(typ string) bool {
	return len(typ) > len("_tool_result") && typ[len(typ)-len("_tool_result"):] == "_tool_result" &&
		typ != BlockMCPToolResult
}

// IsStreamEvent reports whether typ names a stream event rather than a
// content block.
func IsStreamEvent(typ string) bool {
	switch typ {
	case EventMessageStart, EventContentBlockStart, EventContentBlockDelta, EventContentBlockStop,
		EventMessageDelta, EventMessageStop, EventPing, EventError:
		return true
	}
	return false
}

// StreamEvent is one Messages API stream event. Only the fields of its
// type are set.
//
//wire:order
type StreamEvent struct {
	Type         string          `json:"type" wire:"intern=Event"`
	Message      *Message        `json:"message,omitempty"`                     // message_start
	Index        *int            `json:"index,omitempty" wire:"buf=idx"`        // content_block_*
	ContentBlock json.RawMessage `json:"content_block,omitempty" wire:"borrow"` // content_block_start
	Delta        json.RawMessage `json:"delta,omitempty" wire:"parse=delta"`    // content_block_delta, message_delta
	Usage        *Usage          `json:"usage,omitempty"`                       // message_delta
	Error        *APIError       `json:"error,omitempty"`                       // error

	delta *Delta // Delta decoded by the reader, or nil (see ParsedDelta)
	idx   int    // what Index points to
}

// Message is a Messages API message object: the message_start payload, or
// Claude Code's assistant line message. Its content blocks point into the
// text read.
//
//wire:order
type Message struct {
	ID           string            `json:"id"`
	Type         string            `json:"type"`
	Role         string            `json:"role"`
	Model        string            `json:"model"`
	Content      []json.RawMessage `json:"content" wire:"borrow"`
	StopReason   *string           `json:"stop_reason"`
	StopSequence *string           `json:"stop_sequence"`
	Usage        *Usage            `json:"usage,omitempty"`
}

// Block is the union of the content block fields read. Its raw fields are
// copies: blocks outlive their line.
//
//wire:order
type Block struct {
	Type      string            `json:"type" wire:"intern=Block"`
	Text      *string           `json:"text,omitempty"`
	Citations []json.RawMessage `json:"citations,omitempty"`
	Thinking  *string           `json:"thinking,omitempty"`
	Signature *string           `json:"signature,omitempty"`
	// tool_use, server_tool_use, mcp_tool_use
	ID         string          `json:"id,omitempty"`
	Name       string          `json:"name,omitempty"`
	Input      json.RawMessage `json:"input,omitempty"`
	ServerName string          `json:"server_name,omitempty"`
	// tool results
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   *bool           `json:"is_error,omitempty"`
	// image
	Source *ImageSource `json:"source,omitempty"`
}

// ImageSource is an image block's source.
type ImageSource struct {
	Type      string `json:"type"` // base64 or url
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// Delta is the union of the delta fields read: a content_block_delta's
// delta, or a message_delta's.
//
//wire:order
type Delta struct {
	Type        string          `json:"type" wire:"intern=Delta"`
	Text        string          `json:"text"`
	PartialJSON string          `json:"partial_json"`
	Thinking    string          `json:"thinking"`
	Signature   string          `json:"signature"`
	Citation    json.RawMessage `json:"citation" wire:"borrow"`
	// message_delta
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
}

// Usage is the token usage object.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
	// ServiceTier is Anthropic's service_tier ("standard", ...), when given.
	ServiceTier string `json:"service_tier,omitempty"`
	// Has is the counts the object gives (keys that are not null): an
	// object whose counts are all null or absent is the "unknown" form
	// agentstream writes where the format wants a usage object and the
	// source had none, and reads as no usage.
	Has event.Counts `json:"-"`
}

// UnmarshalJSON decodes a usage object as ReadUsage does, so that a
// usage of null counts reads as unknown whichever reader decodes it.
func (u *Usage) UnmarshalJSON(b []byte) error {
	var r jsontext.Reader
	r.Reset(b)
	if r.Null() {
		return nil
	}
	if ReadUsage(&r, u); r.End() {
		return nil
	}
	// Not a usage object ReadUsage reads: encoding/json's error.
	var plain struct {
		InputTokens, OutputTokens, CacheCreationInputTokens, CacheReadInputTokens int64
		ServiceTier                                                               string
	}
	return json.Unmarshal(b, &plain)
}

// HasCounts reports whether u gives a token count: a usage object whose
// counts are all null or absent (the unknown form) gives none.
func (u *Usage) HasCounts() bool { return u != nil && u.Has != 0 }

// Event returns u as a canonical usage.
func (u *Usage) Event() *event.Usage {
	if !u.HasCounts() {
		return nil
	}
	return &event.Usage{
		InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens,
		ServiceTier: u.ServiceTier, Has: u.Has,
	}
}

// APIError is the error object of an error event.
type APIError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Citation is a citation object of a text block, the fields this
// package reads and writes (others are kept in event.Citation.Raw).
type Citation struct {
	Type            string  `json:"type"`
	CitedText       string  `json:"cited_text"`
	DocumentIndex   *int64  `json:"document_index,omitempty"`
	DocumentTitle   *string `json:"document_title,omitempty"`
	StartCharIndex  *int64  `json:"start_char_index,omitempty"`
	EndCharIndex    *int64  `json:"end_char_index,omitempty"`
	StartPageNumber *int64  `json:"start_page_number,omitempty"`
	EndPageNumber   *int64  `json:"end_page_number,omitempty"`
	URL             *string `json:"url,omitempty"`
	Title           *string `json:"title,omitempty"`
}
