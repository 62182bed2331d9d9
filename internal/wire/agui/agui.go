// Package agui declares the wire types of the AG-UI protocol, version 1.0,
// as @ag-ui/core 1.0.0 defines them (its generated events schema): one
// tagged struct per event type, the event type strings, and the SSE framing
// of AG-UI's HTTP transport. parse/agui and emit/agui translate between
// these structs and canonical events; nothing else names an AG-UI type.
//
// Fields the schema marks optional are pointers or omitempty; required
// fields are always written, an empty string included.
package agui

//go:generate go run ../gen

import "encoding/json"

// Name is the format's name in agentstream.
const Name = "agui"

// ProtocolVersion is the AG-UI protocol version these types follow.
const ProtocolVersion = "1.0"

// ContentType is the media type of an AG-UI SSE response body, as every
// SSE body's: @ag-ui/client parses any body as SSE but one of the
// protobuf media type (application/vnd.ag-ui.event+proto).
const ContentType = "text/event-stream"

// The event types (EventType of @ag-ui/core).
const (
	TextMessageStart        = "TEXT_MESSAGE_START"
	TextMessageContent      = "TEXT_MESSAGE_CONTENT"
	TextMessageEnd          = "TEXT_MESSAGE_END"
	TextMessageChunk        = "TEXT_MESSAGE_CHUNK"
	ToolCallStart           = "TOOL_CALL_START"
	ToolCallArgs            = "TOOL_CALL_ARGS"
	ToolCallEnd             = "TOOL_CALL_END"
	ToolCallChunk           = "TOOL_CALL_CHUNK"
	ToolCallResult          = "TOOL_CALL_RESULT"
	StateSnapshot           = "STATE_SNAPSHOT"
	StateDelta              = "STATE_DELTA"
	MessagesSnapshot        = "MESSAGES_SNAPSHOT"
	ActivitySnapshot        = "ACTIVITY_SNAPSHOT"
	ActivityDelta           = "ACTIVITY_DELTA"
	Raw                     = "RAW"
	Custom                  = "CUSTOM"
	RunStarted              = "RUN_STARTED"
	RunFinished             = "RUN_FINISHED"
	RunError                = "RUN_ERROR"
	StepStarted             = "STEP_STARTED"
	StepFinished            = "STEP_FINISHED"
	ReasoningStart          = "REASONING_START"
	ReasoningMessageStart   = "REASONING_MESSAGE_START"
	ReasoningMessageContent = "REASONING_MESSAGE_CONTENT"
	ReasoningMessageEnd     = "REASONING_MESSAGE_END"
	ReasoningMessageChunk   = "REASONING_MESSAGE_CHUNK"
	ReasoningEnd            = "REASONING_END"
	ReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE"
	SubagentStarted         = "SUBAGENT_STARTED"
	SubagentFinished        = "SUBAGENT_FINISHED"
	SubagentError           = "SUBAGENT_ERROR"
)

// The THINKING events of AG-UI before 0.0.46, which 1.0 replaced with the
// REASONING ones (@ag-ui/client translates them for agents that declare
// an old protocol version). THINKING_TEXT_MESSAGE_CONTENT has a delta;
// none carries a message id.
const (
	LegacyThinkingStart              = "THINKING_START"
	LegacyThinkingEnd                = "THINKING_END"
	LegacyThinkingTextMessageStart   = "THINKING_TEXT_MESSAGE_START"
	LegacyThinkingTextMessageContent = "THINKING_TEXT_MESSAGE_CONTENT"
	LegacyThinkingTextMessageEnd     = "THINKING_TEXT_MESSAGE_END"
)

// LegacyThinkingContent is a THINKING_TEXT_MESSAGE_CONTENT event.
type LegacyThinkingContent struct {
	Type  string `json:"type"`
	Delta string `json:"delta"`
}

// Types lists every event type of the protocol, in the schema's order.
var Types = []string{
	TextMessageStart, TextMessageContent, TextMessageEnd, TextMessageChunk,
	ToolCallStart, ToolCallArgs, ToolCallEnd, ToolCallChunk, ToolCallResult,
	StateSnapshot, StateDelta, MessagesSnapshot, ActivitySnapshot, ActivityDelta,
	Raw, Custom, RunStarted, RunFinished, RunError, StepStarted, StepFinished,
	ReasoningStart, ReasoningMessageStart, ReasoningMessageContent, ReasoningMessageEnd,
	ReasoningMessageChunk, ReasoningEnd, ReasoningEncryptedValue,
	SubagentStarted, SubagentFinished, SubagentError,
}

// Known reports whether t is an event type of the protocol.
func Known(t string) bool {
	for _, k := range Types {
		if k == t {
			return true
		}
	}
	return false
}

// Roles and other vocabulary.
const (
	RoleAssistant = "assistant"
	RoleUser      = "user"
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleTool      = "tool"
	RoleReasoning = "reasoning"

	PartText  = "text"
	PartImage = "image"

	SourceData = "data"
	SourceURL  = "url"

	EncryptedMessage  = "message"   // REASONING_ENCRYPTED_VALUE subtype
	EncryptedToolCall = "tool-call" // REASONING_ENCRYPTED_VALUE subtype

	OutcomeSuccess   = "success"
	OutcomeInterrupt = "interrupt"
	OutcomeCancelled = "cancelled"
	OutcomeSuspended = "suspended"
)

// Header is what every event has: its type. Decoders read it first.
type Header struct {
	Type string `json:"type"`
}

// Base are the optional fields of every event (BaseEvent).
type Base struct {
	Timestamp *int64          `json:"timestamp,omitempty"`
	RawEvent  json.RawMessage `json:"rawEvent,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// Attributable is the subagent attribution of the events a subagent can
// produce: absent for the parent agent.
type Attributable struct {
	SubagentRunID *string `json:"subagentRunId,omitempty"`
}

// TextMessageStartEvent opens a streamed text message.
type TextMessageStartEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID string  `json:"messageId"`
	Role      *string `json:"role,omitempty"`
	Name      *string `json:"name,omitempty"`
}

// TextMessageContentEvent appends to a streamed text message.
type TextMessageContentEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

// TextMessageEndEvent closes a streamed text message.
type TextMessageEndEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID string `json:"messageId"`
}

// TextMessageChunkEvent stands for a start, content and end sequence.
type TextMessageChunkEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID *string `json:"messageId,omitempty"`
	Role      *string `json:"role,omitempty"`
	Delta     *string `json:"delta,omitempty"`
	Name      *string `json:"name,omitempty"`
}

// ToolCallStartEvent opens a tool call.
type ToolCallStartEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	ToolCallID      string  `json:"toolCallId"`
	ToolCallName    string  `json:"toolCallName"`
	ParentMessageID *string `json:"parentMessageId,omitempty"`
}

// ToolCallArgsEvent appends a fragment of a tool call's arguments.
type ToolCallArgsEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	ToolCallID string `json:"toolCallId"`
	Delta      string `json:"delta"`
}

// ToolCallEndEvent closes a tool call: its arguments are complete.
type ToolCallEndEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	ToolCallID string `json:"toolCallId"`
}

// ToolCallChunkEvent stands for a tool call's start, args and end.
type ToolCallChunkEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	ToolCallID      *string `json:"toolCallId,omitempty"`
	ToolCallName    *string `json:"toolCallName,omitempty"`
	ParentMessageID *string `json:"parentMessageId,omitempty"`
	Delta           *string `json:"delta,omitempty"`
}

// ToolCallResultEvent carries what a tool returned, as a new tool
// message. Content is a JSON string or an array of Parts.
type ToolCallResultEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID  string          `json:"messageId"`
	ToolCallID string          `json:"toolCallId"`
	Content    json.RawMessage `json:"content"`
	Role       *string         `json:"role,omitempty"`
}

// Part is one content part (ContentPart): text, or media with a source.
type Part struct {
	Type     string          `json:"type"`
	ID       *string         `json:"id,omitempty"`
	Text     *string         `json:"text,omitempty"`
	Source   *Source         `json:"source,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// Source is where a media part's bytes are: data (base64 value), url or
// file (a provider's handle).
type Source struct {
	Type     string  `json:"type"`
	Value    string  `json:"value"`
	MimeType *string `json:"mimeType,omitempty"`
	Provider *string `json:"provider,omitempty"`
}

// RunStartedEvent opens a run.
type RunStartedEvent struct {
	Type string `json:"type"`
	Base
	ThreadID        string          `json:"threadId"`
	RunID           string          `json:"runId"`
	ProtocolVersion *string         `json:"protocolVersion,omitempty"`
	ParentRunID     *string         `json:"parentRunId,omitempty"`
	Input           json.RawMessage `json:"input,omitempty"`
}

// RunFinishedEvent closes a run that did not fail.
type RunFinishedEvent struct {
	Type string `json:"type"`
	Base
	ThreadID string          `json:"threadId"`
	RunID    string          `json:"runId"`
	Result   json.RawMessage `json:"result,omitempty"`
	Outcome  *Outcome        `json:"outcome,omitempty"`
	Usage    []TokenUsage    `json:"usage,omitempty"`
}

// Outcome is why a run (or a subagent's segment) ended.
type Outcome struct {
	Type               string          `json:"type"`
	PendingToolCallIDs []string        `json:"pendingToolCallIds,omitempty"`
	Interrupts         json.RawMessage `json:"interrupts,omitempty"`
	InterruptIDs       []string        `json:"interruptIds,omitempty"`
}

// TokenUsage counts tokens for one provider and model. InputTokens and
// OutputTokens are totals; ReasoningTokens, CachedInputTokens and
// CacheWriteInputTokens are parts of them.
type TokenUsage struct {
	Provider              *string `json:"provider,omitempty"`
	Model                 *string `json:"model,omitempty"`
	InputTokens           *int64  `json:"inputTokens,omitempty"`
	OutputTokens          *int64  `json:"outputTokens,omitempty"`
	TotalTokens           *int64  `json:"totalTokens,omitempty"`
	ReasoningTokens       *int64  `json:"reasoningTokens,omitempty"`
	CachedInputTokens     *int64  `json:"cachedInputTokens,omitempty"`
	CacheWriteInputTokens *int64  `json:"cacheWriteInputTokens,omitempty"`
}

// RunErrorEvent ends a run that failed.
type RunErrorEvent struct {
	Type string `json:"type"`
	Base
	Message string       `json:"message"`
	Code    *string      `json:"code,omitempty"`
	Usage   []TokenUsage `json:"usage,omitempty"`
}

// StepStartedEvent opens a named step.
type StepStartedEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	StepName string `json:"stepName"`
}

// StepFinishedEvent closes a named step.
type StepFinishedEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	StepName string `json:"stepName"`
}

// ReasoningStartEvent opens a span of reasoning.
type ReasoningStartEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID string `json:"messageId"`
}

// ReasoningMessageStartEvent opens a streamed reasoning message; Role is
// always "reasoning".
type ReasoningMessageStartEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID string `json:"messageId"`
	Role      string `json:"role"`
}

// ReasoningMessageContentEvent appends to a reasoning message.
type ReasoningMessageContentEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

// ReasoningMessageEndEvent closes a reasoning message.
type ReasoningMessageEndEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID string `json:"messageId"`
}

// ReasoningMessageChunkEvent stands for a reasoning message's start,
// content and end.
type ReasoningMessageChunkEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID *string `json:"messageId,omitempty"`
	Delta     *string `json:"delta,omitempty"`
}

// ReasoningEndEvent closes a span of reasoning.
type ReasoningEndEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	MessageID string `json:"messageId"`
}

// ReasoningEncryptedValueEvent carries a provider's opaque reasoning
// artefact for a message or a tool call.
type ReasoningEncryptedValueEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	Subtype        string `json:"subtype"`
	EntityID       string `json:"entityId"`
	EncryptedValue string `json:"encryptedValue"`
}

// SubagentStartedEvent announces a subagent invocation; SubagentRunID
// identifies it.
type SubagentStartedEvent struct {
	Type string `json:"type"`
	Base
	SubagentRunID       string  `json:"subagentRunId"`
	Name                string  `json:"name"`
	Description         *string `json:"description,omitempty"`
	ParentSubagentRunID *string `json:"parentSubagentRunId,omitempty"`
	ParentToolCallID    *string `json:"parentToolCallId,omitempty"`
	ParentMessageID     *string `json:"parentMessageId,omitempty"`
}

// SubagentFinishedEvent ends a subagent invocation's segment of the run.
type SubagentFinishedEvent struct {
	Type string `json:"type"`
	Base
	SubagentRunID string          `json:"subagentRunId"`
	Result        json.RawMessage `json:"result,omitempty"`
	Outcome       *Outcome        `json:"outcome,omitempty"`
}

// SubagentErrorEvent reports that a subagent invocation failed.
type SubagentErrorEvent struct {
	Type string `json:"type"`
	Base
	SubagentRunID string  `json:"subagentRunId"`
	Message       string  `json:"message"`
	Code          *string `json:"code,omitempty"`
}

// RawEvent passes a provider-native event through untranslated.
type RawEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	Event  json.RawMessage `json:"event"`
	Source *string         `json:"source,omitempty"`
}

// CustomEvent is an application's own event.
type CustomEvent struct {
	Type string `json:"type"`
	Base
	Attributable
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// Required lists, for each event type, the members the schema requires
// (beyond type). validate checks them; the structs above write them
// always.
var Required = map[string][]string{
	TextMessageStart:        {"messageId"},
	TextMessageContent:      {"messageId", "delta"},
	TextMessageEnd:          {"messageId"},
	ToolCallStart:           {"toolCallId", "toolCallName"},
	ToolCallArgs:            {"toolCallId", "delta"},
	ToolCallEnd:             {"toolCallId"},
	ToolCallResult:          {"messageId", "toolCallId", "content"},
	StateSnapshot:           {"snapshot"},
	StateDelta:              {"delta"},
	MessagesSnapshot:        {"messages"},
	ActivitySnapshot:        {"messageId", "activityType", "content"},
	ActivityDelta:           {"messageId", "activityType", "patch"},
	Raw:                     {"event"},
	Custom:                  {"name", "value"},
	RunStarted:              {"threadId", "runId"},
	RunFinished:             {"threadId", "runId"},
	RunError:                {"message"},
	StepStarted:             {"stepName"},
	StepFinished:            {"stepName"},
	ReasoningStart:          {"messageId"},
	ReasoningMessageStart:   {"messageId", "role"},
	ReasoningMessageContent: {"messageId", "delta"},
	ReasoningMessageEnd:     {"messageId"},
	ReasoningEnd:            {"messageId"},
	ReasoningEncryptedValue: {"subtype", "entityId", "encryptedValue"},
	SubagentStarted:         {"subagentRunId", "name"},
	SubagentFinished:        {"subagentRunId"},
	SubagentError:           {"subagentRunId", "message"},
}

// The CUSTOM event name agentstream writes an error that did not end the
// run as (AG-UI's only errors, RUN_ERROR and SUBAGENT_ERROR, end what they
// report on), and its value.
const CustomError = "agentstream.error"

// ErrorValue is the value of a CustomError event. Fatal marks an error
// that ended a model response or turn but not the run, which went on.
type ErrorValue struct {
	Message string `json:"message"`
	Type    string `json:"type,omitempty"`
	Fatal   bool   `json:"fatal,omitempty"`
}
