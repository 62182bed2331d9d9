// Package acp declares the wire types of the Agent Client Protocol (ACP,
// agent-client-protocol schema/v1/schema.json): JSON-RPC 2.0 messages, one
// per line over stdio, between a client (an editor) and an agent.
// parse/acp reads them into events and emit/acp writes events as them;
// nothing else names them.
package acp

//go:generate go run ../gen

import "encoding/json"

// Version is the JSON-RPC version every message names.
const Version = "2.0"

// Methods. The client calls initialize, session/new, session/prompt ...;
// the agent sends session/update notifications and calls the client's
// session/request_permission, fs/* and terminal/* methods.
const (
	MethodInitialize        = "initialize"
	MethodAuthenticate      = "authenticate"
	MethodSessionNew        = "session/new"
	MethodSessionLoad       = "session/load"
	MethodSessionResume     = "session/resume"
	MethodSessionPrompt     = "session/prompt"
	MethodSessionCancel     = "session/cancel"
	MethodSessionUpdate     = "session/update"
	MethodRequestPermission = "session/request_permission"
)

// AgentMethodPrefixes are the prefixes of the methods an agent calls on
// its client (besides session/update and session/request_permission).
var AgentMethodPrefixes = []string{"fs/", "terminal/", "elicitation/"}

// Session update kinds: the sessionUpdate member of an update.
const (
	UpdateUserMessageChunk  = "user_message_chunk"
	UpdateAgentMessageChunk = "agent_message_chunk"
	UpdateAgentThoughtChunk = "agent_thought_chunk"
	UpdateToolCall          = "tool_call"
	UpdateToolCallUpdate    = "tool_call_update"
	UpdatePlan              = "plan"
	UpdateAvailableCommands = "available_commands_update"
	UpdateCurrentMode       = "current_mode_update"
	UpdateConfigOption      = "config_option_update"
	UpdateSessionInfo       = "session_info_update"
	UpdateUsage             = "usage_update"
)

// Tool call statuses.
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
)

// Tool kinds.
const (
	KindRead       = "read"
	KindEdit       = "edit"
	KindDelete     = "delete"
	KindMove       = "move"
	KindSearch     = "search"
	KindExecute    = "execute"
	KindThink      = "think"
	KindFetch      = "fetch"
	KindSwitchMode = "switch_mode"
	KindOther      = "other"
)

// Stop reasons of a session/prompt response.
const (
	StopEndTurn         = "end_turn"
	StopMaxTokens       = "max_tokens"
	StopMaxTurnRequests = "max_turn_requests"
	StopRefusal         = "refusal"
	StopCancelled       = "cancelled"
)

// Plan entry statuses and priorities.
const (
	PlanPending    = "pending"
	PlanInProgress = "in_progress"
	PlanCompleted  = "completed"
	PriorityHigh   = "high"
	PriorityMedium = "medium"
	PriorityLow    = "low"
)

// Tool call content types, and content block types.
const (
	ContentContent  = "content"
	ContentDiff     = "diff"
	ContentTerminal = "terminal"

	BlockText         = "text"
	BlockImage        = "image"
	BlockAudio        = "audio"
	BlockResourceLink = "resource_link"
	BlockResource     = "resource"
)

// JSON-RPC error codes agentstream writes.
const CodeInternalError = -32603

// Transcript directions: the dir member of a transcript line.
const (
	DirClientToAgent = "client->agent"
	DirAgentToClient = "agent->client"
)

// Message is one JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method only) or a response (ID and Result or Error).
type Message struct {
	JSONRPC string          `json:"jsonrpc" wire:"intern=Version"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty" wire:"intern=Method"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// TranscriptLine is one line of a two-way transcript: a message and the
// way it went.
type TranscriptLine struct {
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

// Probe is what a decoder reads of a line first: a message, or a
// transcript line around one (Dir set).
type Probe struct {
	Message
	Dir *string         `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

// ResultProbe is what a decoder reads of a response's result whose
// request it has not seen: which members it has, to tell the method.
type ResultProbe struct {
	ProtocolVersion json.RawMessage `json:"protocolVersion"`
	SessionID       json.RawMessage `json:"sessionId"`
	StopReason      json.RawMessage `json:"stopReason"`
}

// SessionNotification is the params of session/update.
type SessionNotification struct {
	SessionID string          `json:"sessionId"`
	Update    json.RawMessage `json:"update"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// Update is a session update as read: the members of every kind in one
// struct (sessionUpdate says which are set). Content is a ContentBlock in
// the chunks and a list of ToolCallContent in tool calls.
type Update struct {
	SessionUpdate string          `json:"sessionUpdate" wire:"intern=Update"`
	Content       json.RawMessage `json:"content,omitempty"`
	MessageID     string          `json:"messageId,omitempty"`

	ToolCallID string          `json:"toolCallId,omitempty"`
	Title      *string         `json:"title,omitempty"`
	Kind       *string         `json:"kind,omitempty"`
	Status     *string         `json:"status,omitempty"`
	Locations  []Location      `json:"locations,omitempty"`
	RawInput   json.RawMessage `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage `json:"rawOutput,omitempty"`

	Entries []PlanEntry `json:"entries,omitempty"`

	Used *int64 `json:"used,omitempty"`
	Size *int64 `json:"size,omitempty"`
	Cost *Cost  `json:"cost,omitempty"`
}

// Chunk is a message or thought chunk as written.
type Chunk struct {
	SessionUpdate string          `json:"sessionUpdate"`
	MessageID     string          `json:"messageId,omitempty"`
	Content       json.RawMessage `json:"content"`
}

// ToolCall is a tool_call or tool_call_update as written (Title is
// required in a tool_call).
type ToolCall struct {
	SessionUpdate string            `json:"sessionUpdate"`
	ToolCallID    string            `json:"toolCallId"`
	Title         *string           `json:"title,omitempty"`
	Kind          string            `json:"kind,omitempty"`
	Status        string            `json:"status,omitempty"`
	Content       []json.RawMessage `json:"content,omitempty"`
	Locations     []Location        `json:"locations,omitempty"`
	RawInput      json.RawMessage   `json:"rawInput,omitempty"`
	RawOutput     json.RawMessage   `json:"rawOutput,omitempty"`
}

// Plan is a plan update as written.
type Plan struct {
	SessionUpdate string      `json:"sessionUpdate"`
	Entries       []PlanEntry `json:"entries"`
}

// ContentBlock is a content block: text, image, audio, resource_link or
// resource (the members of each in one struct).
type ContentBlock struct {
	Type     string `json:"type" wire:"intern=Block"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	URI      string `json:"uri,omitempty"`
}

// TextBlock is a text content block as written (text may be empty).
type TextBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// ImageBlock is an image content block as written.
type ImageBlock struct {
	Type     string `json:"type"`
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
}

// ToolCallContent is one item of a tool call's content: a content block
// (type content), a diff or a terminal.
type ToolCallContent struct {
	Type       string          `json:"type"`
	Content    json.RawMessage `json:"content,omitempty"`
	Path       string          `json:"path,omitempty"`
	OldText    *string         `json:"oldText,omitempty"`
	NewText    *string         `json:"newText,omitempty"`
	TerminalID string          `json:"terminalId,omitempty"`
}

// WrappedContent is a content item of a tool call as written.
type WrappedContent struct {
	Type    string `json:"type"`
	Content any    `json:"content"`
}

// Location is a file a tool call reads or changes.
type Location struct {
	Path string `json:"path"`
	Line *int64 `json:"line,omitempty"`
}

// PlanEntry is one task of a plan.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// Cost is a session's cumulative cost.
type Cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// PromptResponse is the result of session/prompt. Usage is the unstable
// schema's token count of the turn.
type PromptResponse struct {
	StopReason string          `json:"stopReason"`
	Usage      *Usage          `json:"usage,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// Usage is a prompt turn's token count (unstable in schema v1).
// OutputTokens does not include ThoughtTokens: TotalTokens is the sum of
// all of them. InputTokens, OutputTokens and TotalTokens are null (nil)
// where a writer converting another format was not given the count (its
// unknown form, never a made-up 0; TotalTokens without both).
type Usage struct {
	InputTokens       *int64 `json:"inputTokens"`
	OutputTokens      *int64 `json:"outputTokens"`
	TotalTokens       *int64 `json:"totalTokens"`
	ThoughtTokens     *int64 `json:"thoughtTokens,omitempty"`
	CachedReadTokens  *int64 `json:"cachedReadTokens,omitempty"`
	CachedWriteTokens *int64 `json:"cachedWriteTokens,omitempty"`
}

// NewSessionResponse is what a session/new (load, resume) result holds
// that agentstream reads: its session id and current model.
type NewSessionResponse struct {
	SessionID string `json:"sessionId"`
	Models    *struct {
		CurrentModelID string `json:"currentModelId"`
	} `json:"models,omitempty"`
	ConfigOptions []struct {
		Category     string          `json:"category"`
		CurrentValue json.RawMessage `json:"currentValue"`
	} `json:"configOptions,omitempty"`
}

// SessionMeta is the Meta of a session's start read from ACP: the
// initialize response (when there was one) and the session/new, load or
// resume response, each the whole message, keyed by their methods.
type SessionMeta struct {
	Initialize    json.RawMessage `json:"initialize,omitempty"`
	SessionLoad   json.RawMessage `json:"session/load,omitempty"`
	SessionNew    json.RawMessage `json:"session/new,omitempty"`
	SessionResume json.RawMessage `json:"session/resume,omitempty"`
}

// Responses are m's messages in the order a session's setup answers
// them, the absent left out.
func (m *SessionMeta) Responses() []json.RawMessage {
	var out []json.RawMessage
	for _, raw := range []json.RawMessage{m.Initialize, m.SessionNew, m.SessionLoad, m.SessionResume} {
		if raw != nil {
			out = append(out, raw)
		}
	}
	return out
}

// InitializeResponse is what an initialize result holds that agentstream
// reads.
type InitializeResponse struct {
	ProtocolVersion json.RawMessage `json:"protocolVersion"`
}

// PromptRequest is the params of session/prompt.
type PromptRequest struct {
	SessionID string            `json:"sessionId"`
	Prompt    []json.RawMessage `json:"prompt"`
}

// PermissionRequest is what session/request_permission's params hold that
// agentstream reads.
type PermissionRequest struct {
	SessionID string `json:"sessionId"`
	ToolCall  struct {
		ToolCallID string  `json:"toolCallId"`
		Title      *string `json:"title,omitempty"`
	} `json:"toolCall"`
}

// Line is what a decoder reads of an agent's line in one pass, for the
// lines an agent writes most: a session/update notification (Params)
// and a response to initialize, session/new or session/prompt (Result),
// their parts read as the structs it reads them into, where Message
// keeps params and result as text to read again. A line whose params or
// result is of another shape fails the read; the decoder then reads it
// as a Message.
type Line struct {
	JSONRPC string          `json:"jsonrpc" wire:"intern=Version"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty" wire:"intern=Method"`
	Params  *LineParams     `json:"params,omitempty"`
	Result  *LineResult     `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
	Dir     *string         `json:"dir"`
}

// LineParams is a session/update's params (SessionNotification) with
// its update read.
type LineParams struct {
	SessionID string  `json:"sessionId"`
	Update    *Update `json:"update"`
}

// LineResult is the members of a response's result that ResultProbe,
// NewSessionResponse and PromptResponse read: SessionID and StopReason
// as text, since ResultProbe needs only whether they are there, and the
// others read them as strings.
type LineResult struct {
	ProtocolVersion json.RawMessage `json:"protocolVersion"`
	SessionID       json.RawMessage `json:"sessionId"`
	StopReason      json.RawMessage `json:"stopReason"`
	Models          *struct {
		CurrentModelID string `json:"currentModelId"`
	} `json:"models,omitempty"`
	ConfigOptions []struct {
		Category     string          `json:"category"`
		CurrentValue json.RawMessage `json:"currentValue"`
	} `json:"configOptions,omitempty"`
	Usage *Usage `json:"usage,omitempty"`
}
