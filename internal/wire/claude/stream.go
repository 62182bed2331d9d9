package claude

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// Line types and subtypes: the wire vocabulary of Claude Code's
// stream-json (the format claude, read by parse/claude and written by
// emit/claude). The content of assistant messages and stream_event lines
// is the Messages API's (package internal/wire/anthropic).
const (
	TypeSystem      = "system"
	TypeAssistant   = "assistant"
	TypeUser        = "user"
	TypeResult      = "result"
	TypeStreamEvent = "stream_event"
	TypeKeepAlive   = "keep_alive"

	SubtypeInit           = "init"
	SubtypeSuccess        = "success"
	SubtypeInformational  = "informational"
	SubtypeErrorDuring    = "error_during_execution"
	SubtypeStatus         = "status"
	SubtypeThinkingTokens = "thinking_tokens"
)

// IsKnownType reports whether typ is a line type parse/claude decodes (as
// opposed to one it keeps as an event.Unknown).
func IsKnownType(typ string) bool {
	switch typ {
	case TypeSystem, TypeAssistant, TypeUser, TypeResult, TypeStreamEvent:
		return true
	}
	return false
}

// Line is the union of the top-level fields of a line that parse/claude
// reads. Fields whose JSON type differs between line types are raw; the
// reader also decodes an object of a message or of an event, which point
// into the text read, as the Messages API's message and stream event
// (ParsedMessage, ParsedEvent).
type Line struct {
	Type            string          `json:"type" wire:"intern=Type"`
	Subtype         string          `json:"subtype,omitempty" wire:"intern=Subtype"`
	Message         json.RawMessage `json:"message,omitempty" wire:"parse=message"`
	Event           json.RawMessage `json:"event,omitempty" wire:"parse=event"`
	ParentToolUseID *string         `json:"parent_tool_use_id,omitempty"`
	SessionID       string          `json:"session_id,omitempty" wire:"keep=sessionID"`
	UUID            string          `json:"uuid,omitempty" wire:"check"` // checked, not set by the reader: nothing reads it
	Error           json.RawMessage `json:"error,omitempty" wire:"borrow"`
	ToolUseResult   json.RawMessage `json:"tool_use_result,omitempty" wire:"borrow"`
	SubagentType    string          `json:"subagent_type,omitempty"`
	TaskDescription string          `json:"task_description,omitempty"`

	sessionID string                 // the last session id read (keep=)
	message   *anthropic.Message     // Message decoded by the reader, or nil
	event     *anthropic.StreamEvent // Event decoded by the reader, or nil
}

// ParsedMessage returns the message the reader decoded, or nil (the line
// was decoded otherwise, or its message is no Messages API message: a
// second decoding of Message gives the error).
func (l *Line) ParsedMessage() *anthropic.Message { return l.message }

// ParsedEvent returns the stream event the reader decoded, or nil, as
// ParsedMessage.
func (l *Line) ParsedEvent() *anthropic.StreamEvent { return l.event }

// UnmarshalKind decodes a line's type and subtype as json.Unmarshal
// into a Line does, with its error.
func UnmarshalKind(raw []byte) (typ, subtype string, err error) {
	var r jsontext.Reader
	var l Line
	err = jsontext.Decode(&r, raw, &l, ReadLine)
	return l.Type, l.Subtype, err
}

// StreamLine is a line as parse/claude reads it, in one pass: Line, the
// fields of a result line (Result) and of an init line (Init), which a
// line of another type lacks, and agentstream's mark of an assistant line
// (Mark). The reader fails where json.Unmarshal of the line into a Line,
// a Result, an Init or a Mark does.
type StreamLine struct {
	Line
	result Result `wire:"also"`
	mark   Mark   `wire:"also"`
	init   Init   `wire:"also"`
}

// Result returns the line as json.Unmarshal into a Result decodes it (but
// for its uuid, which nothing reads).
func (l *StreamLine) Result() *Result { return &l.result }

// Init returns the line as json.Unmarshal into an Init decodes it (but
// for its uuid), its lists those of the last init read when they repeat,
// as InitReader shares them: a caller that keeps a list copies it.
func (l *StreamLine) Init() *Init { return &l.init }

// Aborted reports whether the line is marked "aborted": true.
func (l *StreamLine) Aborted() bool { return l.mark.Aborted }

// Mark is what agentstream's claude writer adds to an assistant line
// holding what arrived of a block the input was cut off inside:
// "aborted": true. Claude Code writes no such key.
type Mark struct {
	Aborted bool `json:"aborted"`
}

// Init is the system/init line. Claude Code writes its keys in this
// order, and the same lists and settings in every init of a log: the
// reader keeps them (keep=), each read again with one comparison while
// it repeats.
//
//wire:order
type Init struct {
	Type              string   `json:"type" wire:"intern=Type"`
	Subtype           string   `json:"subtype" wire:"intern=Subtype"`
	Cwd               string   `json:"cwd" wire:"keep=cwd"`
	SessionID         string   `json:"session_id" wire:"keep=sessionID"`
	Tools             []string `json:"tools" wire:"keep=tools"`
	MCPServers        []any    `json:"mcp_servers"`
	Model             string   `json:"model" wire:"keep=model"`
	PermissionMode    string   `json:"permissionMode" wire:"keep=permissionMode"`
	SlashCommands     []string `json:"slash_commands" wire:"keep=slashCommands"`
	APIKeySource      string   `json:"apiKeySource" wire:"keep=apiKeySource"`
	ClaudeCodeVersion string   `json:"claude_code_version" wire:"keep=version"`
	OutputStyle       string   `json:"output_style" wire:"keep=outputStyle"`
	Agents            []string `json:"agents" wire:"keep=agents"`
	Skills            []string `json:"skills" wire:"keep=skills"`
	Plugins           []any    `json:"plugins"`
	UUID              string   `json:"uuid"`

	// what the reader keeps of the last init (see InitReader)
	cwd, sessionID, model, permissionMode, apiKeySource, version, outputStyle string
	tools, slashCommands, agents, skills                                      jsontext.KeptStrings
}

// An InitReader decodes system/init lines as json.Unmarshal does, with
// its error, keeping what it read of the last: what repeats from one
// init to the next (the lists of tools and commands, the settings) is
// read with one comparison, and a list repeated is the last one's, shared
// with the Init before: a caller that keeps a list copies it. The zero
// value is ready to use.
type InitReader struct {
	r    jsontext.Reader
	last Init // the last init read, whose keep= fields the next compares with
}

// Unmarshal decodes raw into in, a zero Init.
func (ir *InitReader) Unmarshal(raw []byte, in *Init) error {
	ir.r.Reset(raw)
	return ir.unmarshal(raw, in)
}

// UnmarshalValid is Unmarshal for a line whose strings are valid UTF-8
// (a line that went through badutf8.Fix): they are not checked again.
func (ir *InitReader) UnmarshalValid(raw []byte, in *Init) error {
	ir.r.ResetValid(raw)
	return ir.unmarshal(raw, in)
}

// unmarshal is Unmarshal once ir.r is reset to raw.
func (ir *InitReader) unmarshal(raw []byte, in *Init) error {
	ResetInit(&ir.last)
	if ReadInit(&ir.r, &ir.last) && ir.r.End() {
		*in = ir.last
		return nil
	}
	return json.Unmarshal(raw, in)
}

// Result is the result line.
type Result struct {
	Type              string                `json:"type"`
	Subtype           string                `json:"subtype"`
	IsError           bool                  `json:"is_error"`
	DurationMS        int64                 `json:"duration_ms"`
	DurationAPIMS     int64                 `json:"duration_api_ms"`
	NumTurns          int                   `json:"num_turns"`
	Result            *string               `json:"result,omitempty"`
	StopReason        *string               `json:"stop_reason"`
	SessionID         string                `json:"session_id"`
	TotalCostUSD      *float64              `json:"total_cost_usd"`
	Usage             *anthropic.Usage      `json:"usage"`
	ModelUsage        map[string]ModelUsage `json:"modelUsage"`
	PermissionDenials []any                 `json:"permission_denials"`
	Errors            []string              `json:"errors,omitempty"`
	UUID              string                `json:"uuid"`
}

// ModelUsage is one model's entry in result.modelUsage.
type ModelUsage struct {
	InputTokens              int64   `json:"inputTokens"`
	OutputTokens             int64   `json:"outputTokens"`
	CacheReadInputTokens     int64   `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64   `json:"cacheCreationInputTokens"`
	WebSearchRequests        int64   `json:"webSearchRequests"`
	CostUSD                  float64 `json:"costUSD"`
}

// UserMessage is a user line's message: its content is the prompt, a
// string, or content blocks (tool results), an array.
type UserMessage struct {
	Role    string          `json:"role" wire:"check"` // checked, not set by the reader: nothing reads it
	Content json.RawMessage `json:"content" wire:"elems=blocks"`

	blocks []json.RawMessage // Content's elements, read with it (Blocks)
}

// Blocks returns the elements of the content the reader read, when it is
// an array (nil otherwise), pointing into the text read.
func (m *UserMessage) Blocks() []json.RawMessage {
	if len(m.Content) == 0 || m.Content[0] != '[' {
		return nil
	}
	return m.blocks
}

// Notice is the union of the fields of the system lines (and of the few
// other line types a decoder summarizes) that a one-line summary is made
// of: api_retry's attempt, status's status, task_progress's usage, and so
// on.
type Notice struct {
	Status          *string        `json:"status" wire:"keep=status"` // a status line's repeats
	Attempt         int            `json:"attempt"`
	MaxRetries      int            `json:"max_retries"`
	RetryDelayMS    float64        `json:"retry_delay_ms"`
	ErrorStatus     *int           `json:"error_status"`
	Error           any            `json:"error"`
	EstimatedTokens int64          `json:"estimated_tokens"`
	Description     string         `json:"description"`
	SubagentType    string         `json:"subagent_type"`
	Summary         string         `json:"summary"`
	LastToolName    string         `json:"last_tool_name"`
	Patch           *NoticePatch   `json:"patch"`
	HookName        string         `json:"hook_name"`
	HookEvent       string         `json:"hook_event"`
	Outcome         string         `json:"outcome"`
	Content         any            `json:"content"`
	Text            string         `json:"text"`
	Message         string         `json:"message"`
	ToolName        string         `json:"tool_name"`
	ElapsedSeconds  float64        `json:"elapsed_time_seconds"`
	CompactMetadata *NoticeCompact `json:"compact_metadata"`
	RateLimitInfo   *struct {
		Status        string `json:"status"`
		RateLimitType string `json:"rateLimitType"`
	} `json:"rate_limit_info"`
	Usage *struct {
		ToolUses int `json:"tool_uses"`
	} `json:"usage"`
	State      string `json:"state"`
	Suggestion string `json:"suggestion"`

	status *string // the last status read (keep=)
}

// NoticePatch is a task_updated line's patch.
type NoticePatch struct {
	Status string `json:"status"`
	Error  string `json:"error"`
}

// NoticeCompact is a compact_boundary line's compact_metadata.
type NoticeCompact struct {
	Trigger   string `json:"trigger"`
	PreTokens int64  `json:"pre_tokens"`
}
