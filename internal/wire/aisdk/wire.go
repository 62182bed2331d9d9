// Package aisdk declares the wire types of the Vercel AI SDK's UI message
// stream protocol v1 (what useChat reads): the chunk types, their fields,
// the finish reasons and the response header, as vercel/ai
// packages/ai/src/ui-message-stream/ui-message-chunks.ts defines them in
// ai 5.x and 7.x. parse/aisdk and emit/aisdk translate between these and
// events.
package aisdk

//go:generate go run ../gen

import (
	"encoding/json"
	"strings"
)

// Name is the format's name, and the event.Unknown.Format of its items.
const Name = "aisdk"

// Done is the data of the SSE message that ends a body.
const Done = "[DONE]"

// The response header a UI message stream is served with, beside
// Content-Type text/event-stream.
const (
	HeaderName  = "x-vercel-ai-ui-message-stream"
	HeaderValue = "v1"
	ContentType = "text/event-stream"
)

// Chunk types. The ones marked 7.x are not in ai 5.x, whose client
// rejects them.
const (
	TypeStart                = "start"
	TypeFinish               = "finish"
	TypeAbort                = "abort"
	TypeStartStep            = "start-step"
	TypeFinishStep           = "finish-step"
	TypeResetStep            = "reset-step" // 7.x
	TypeTextStart            = "text-start"
	TypeTextDelta            = "text-delta"
	TypeTextEnd              = "text-end"
	TypeReasoningStart       = "reasoning-start"
	TypeReasoningDelta       = "reasoning-delta"
	TypeReasoningEnd         = "reasoning-end"
	TypeError                = "error"
	TypeToolInputStart       = "tool-input-start"
	TypeToolInputDelta       = "tool-input-delta"
	TypeToolInputAvailable   = "tool-input-available"
	TypeToolInputError       = "tool-input-error"
	TypeToolOutputAvailable  = "tool-output-available"
	TypeToolOutputError      = "tool-output-error"
	TypeToolOutputDenied     = "tool-output-denied"     // 7.x
	TypeToolApprovalRequest  = "tool-approval-request"  // 7.x
	TypeToolApprovalResponse = "tool-approval-response" // 7.x
	TypeSourceURL            = "source-url"
	TypeSourceDocument       = "source-document"
	TypeFile                 = "file"
	TypeReasoningFile        = "reasoning-file" // 7.x
	TypeMessageMetadata      = "message-metadata"
	TypeCustom               = "custom"           // 7.x
	TypeSteeringMessage      = "steering-message" // 7.x
	// DataPrefix begins the type of an application's data part
	// ("data-weather").
	DataPrefix = "data-"
)

// Finish reasons of the finish chunk.
const (
	FinishStop          = "stop"
	FinishLength        = "length"
	FinishContentFilter = "content-filter"
	FinishToolCalls     = "tool-calls"
	FinishError         = "error"
	FinishOther         = "other"
	FinishUnknown       = "unknown"     // 5.x only
	FinishInterrupted   = "interrupted" // 7.x only
)

// FinishReasons are the finish reasons the 5.x or the 7.x client accepts.
var FinishReasons = []string{
	FinishStop, FinishLength, FinishContentFilter, FinishToolCalls, FinishError, FinishOther,
	FinishUnknown, FinishInterrupted,
}

// Chunk is one UI message chunk, every type's fields in one struct: Type
// says which apply (Fields lists them per type). Optional fields are
// omitted when absent; the pointers tell an empty string from an absent
// one where the schema requires the field. The SDK writes a chunk's keys
// in the order declared here (type, id, delta; type, toolCallId,
// toolName, ...), so the reader asks for them in that order; each type
// has few of them, so a key out of that order is told by its first byte.
//
//wire:order
//wire:sparse
type Chunk struct {
	Type string `json:"type" wire:"intern=Type"`

	// text-*, reasoning-* (required); data-* (optional)
	ID    string  `json:"id,omitempty" wire:"keep=id"`
	Delta *string `json:"delta,omitempty" wire:"buf=delta"`

	// error, tool-input-error, tool-output-error
	ErrorText *string `json:"errorText,omitempty" wire:"buf=errorText"`

	// tool-*
	ToolCallID       string          `json:"toolCallId,omitempty" wire:"keep=toolCallID"`
	ToolName         *string         `json:"toolName,omitempty" wire:"buf=toolName"`
	InputTextDelta   *string         `json:"inputTextDelta,omitempty" wire:"buf=inputTextDelta"`
	Input            json.RawMessage `json:"input,omitempty"`
	Output           json.RawMessage `json:"output,omitempty"`
	ProviderExecuted *bool           `json:"providerExecuted,omitempty" wire:"buf=providerExecuted"`
	Dynamic          *bool           `json:"dynamic,omitempty" wire:"buf=dynamic"`
	Preliminary      *bool           `json:"preliminary,omitempty" wire:"buf=preliminary"`
	ApprovalID       string          `json:"approvalId,omitempty"`

	// source-url, source-document, file
	SourceID  *string `json:"sourceId,omitempty" wire:"buf=sourceID"`
	URL       *string `json:"url,omitempty"`
	Title     *string `json:"title,omitempty"`
	MediaType *string `json:"mediaType,omitempty" wire:"buf=mediaType"`
	Filename  *string `json:"filename,omitempty" wire:"buf=filename"`

	// data-*
	Data      json.RawMessage `json:"data,omitempty" wire:"borrow"`
	Transient *bool           `json:"transient,omitempty" wire:"buf=transient"`

	// start, finish, message-metadata
	MessageID       *string         `json:"messageId,omitempty" wire:"buf=messageID"`
	MessageMetadata json.RawMessage `json:"messageMetadata,omitempty" wire:"borrow"`
	FinishReason    string          `json:"finishReason,omitempty" wire:"intern=Finish"`

	// abort
	Reason *string `json:"reason,omitempty" wire:"buf=reason"`

	ProviderMetadata json.RawMessage `json:"providerMetadata,omitempty" wire:"borrow"`

	// What the generated reader points the pointers tagged wire:"buf"
	// at, instead of allocating: the chunk's own, valid while it is not
	// copied or reused. (URL and Title, which a citation keeps, are
	// allocated.) The raw JSON tagged wire:"borrow", which a decoder
	// keeps whole in the chunk's Raw, points into the text read. The
	// part and tool call ids are read with the last one's text kept
	// (wire:"keep"): a part's chunks repeat it, one comparison each.
	id, toolCallID                                                                               string
	delta, errorText, toolName, inputTextDelta, sourceID, mediaType, filename, messageID, reason string
	providerExecuted, dynamic, preliminary, transient                                            bool
}

// IsData reports whether typ is an application data part's type.
func IsData(typ string) bool { return strings.HasPrefix(typ, DataPrefix) && len(typ) > len(DataPrefix) }

// Fieldset is what the schema says of one chunk type's members.
type Fieldset struct {
	Required []string
	Optional []string
}

// Fields lists each chunk type's members as ai 5.x and 7.x declare them
// (uiMessageChunkSchema; the members 7.x added are optional), "type"
// left out. Data parts are under DataPrefix.
var Fields = map[string]Fieldset{
	TypeStart:                {nil, []string{"messageId", "messageMetadata"}},
	TypeFinish:               {nil, []string{"finishReason", "messageMetadata"}},
	TypeAbort:                {nil, []string{"reason"}},
	TypeStartStep:            {},
	TypeFinishStep:           {},
	TypeResetStep:            {},
	TypeTextStart:            {[]string{"id"}, []string{"providerMetadata"}},
	TypeTextDelta:            {[]string{"id", "delta"}, []string{"providerMetadata"}},
	TypeTextEnd:              {[]string{"id"}, []string{"providerMetadata", "citations"}},
	TypeReasoningStart:       {[]string{"id"}, []string{"providerMetadata"}},
	TypeReasoningDelta:       {[]string{"id", "delta"}, []string{"providerMetadata"}},
	TypeReasoningEnd:         {[]string{"id"}, []string{"providerMetadata"}},
	TypeError:                {[]string{"errorText"}, nil},
	TypeToolInputStart:       {[]string{"toolCallId", "toolName"}, []string{"providerExecuted", "providerMetadata", "dynamic", "title", "inputEncoding", "toolMetadata", "_meta"}},
	TypeToolInputDelta:       {[]string{"toolCallId", "inputTextDelta"}, nil},
	TypeToolInputAvailable:   {[]string{"toolCallId", "toolName", "input"}, []string{"providerExecuted", "providerMetadata", "dynamic", "title", "toolMetadata", "_meta"}},
	TypeToolInputError:       {[]string{"toolCallId", "toolName", "input", "errorText"}, []string{"providerExecuted", "providerMetadata", "dynamic", "title", "toolMetadata"}},
	TypeToolOutputAvailable:  {[]string{"toolCallId", "output"}, []string{"providerExecuted", "providerMetadata", "dynamic", "preliminary", "toolMetadata"}},
	TypeToolOutputError:      {[]string{"toolCallId", "errorText"}, []string{"providerExecuted", "providerMetadata", "dynamic", "toolMetadata"}},
	TypeToolOutputDenied:     {[]string{"toolCallId"}, nil},
	TypeToolApprovalRequest:  {[]string{"approvalId", "toolCallId"}, []string{"approvalDescriptor", "inputSchemaInput", "reason", "isAutomatic", "signature"}},
	TypeToolApprovalResponse: {[]string{"approvalId", "approved"}, []string{"reason", "providerExecuted", "providerMetadata"}},
	TypeSourceURL:            {[]string{"sourceId", "url"}, []string{"title", "providerMetadata"}},
	TypeSourceDocument:       {[]string{"sourceId", "mediaType", "title"}, []string{"filename", "providerMetadata"}},
	TypeFile:                 {[]string{"url", "mediaType"}, []string{"providerMetadata"}},
	TypeReasoningFile:        {[]string{"url", "mediaType"}, []string{"providerMetadata"}},
	TypeMessageMetadata:      {[]string{"messageMetadata"}, nil},
	TypeCustom:               {[]string{"kind"}, []string{"providerMetadata"}},
	TypeSteeringMessage:      {[]string{"id", "parts"}, nil},
	DataPrefix:               {[]string{"data"}, []string{"id", "transient"}},
}

// FieldsOf returns the fieldset of chunk type typ, and false for a type
// the protocol does not define.
func FieldsOf(typ string) (Fieldset, bool) {
	if IsData(typ) {
		return Fields[DataPrefix], true
	}
	f, ok := Fields[typ]
	return f, ok && typ != DataPrefix
}

// The canonical stop reasons (the Messages API's) the finish reasons map
// onto.
const (
	stopEndTurn  = "end_turn"
	stopSequence = "stop_sequence"
	stopMaxToks  = "max_tokens"
	stopToolUse  = "tool_use"
	stopRefusal  = "refusal"
)

// StopFromFinish maps a finish reason to the canonical stop reason: stop
// is end_turn, length max_tokens, tool-calls tool_use, content-filter
// refusal; other, unknown and interrupted stay as they are. "" stays ""
// (the chunk had none); error is no stop reason but a failed run, which
// the caller says otherwise.
func StopFromFinish(finish string) string {
	switch finish {
	case FinishStop:
		return stopEndTurn
	case FinishLength:
		return stopMaxToks
	case FinishToolCalls:
		return stopToolUse
	case FinishContentFilter:
		return stopRefusal
	}
	return finish
}

// FinishFromStop maps a canonical stop reason to a finish reason: the
// inverse of StopFromFinish, with stop_sequence also stop. ok is false
// for a reason with no counterpart; "" (none given) maps to "" with ok.
func FinishFromStop(stop string) (finish string, ok bool) {
	switch stop {
	case "":
		return "", true
	case stopEndTurn, stopSequence:
		return FinishStop, true
	case stopMaxToks:
		return FinishLength, true
	case stopToolUse:
		return FinishToolCalls, true
	case stopRefusal:
		return FinishContentFilter, true
	case FinishOther, FinishUnknown, FinishInterrupted:
		return stop, true
	}
	return "", false
}
