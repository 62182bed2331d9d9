package claude

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// Line types and subtypes: the wire vocabulary of Claude Code's
// stream-json, shared with package emit/claude. The content of assistant
// messages and stream_event lines is the Messages API's (package
// internal/messages).
const (
	TypeSystem      = "system"
	TypeAssistant   = "assistant"
	TypeUser        = "user"
	TypeResult      = "result"
	TypeStreamEvent = "stream_event"
	typeKeepAlive   = "keep_alive"

	SubtypeInit          = "init"
	SubtypeSuccess       = "success"
	SubtypeInformational = "informational"
	SubtypeErrorDuring   = "error_during_execution"

	// SyntheticModel is the model of the assistant messages Claude Code
	// makes up to report an API error.
	SyntheticModel = "<synthetic>"
)

// IsKnownType reports whether typ is a line type this package decodes
// (as opposed to one it keeps as an event.Unknown).
func IsKnownType(typ string) bool {
	return knownTypes[typ]
}

// MetaKind is the event.SessionStart.MetaKind and event.RunEnd.MetaKind
// of metadata read from this format: Meta holds the system/init or result
// line, verbatim.
const MetaKind = "claude"

// Line is the union of the top-level fields this package reads. Fields
// whose JSON type differs between line types are raw.
type Line struct {
	Type            string          `json:"type"`
	Subtype         string          `json:"subtype,omitempty"`
	UUID            string          `json:"uuid,omitempty"` // not set by the one-pass decoding: nothing reads it
	SessionID       string          `json:"session_id,omitempty"`
	ParentToolUseID *string         `json:"parent_tool_use_id,omitempty"`
	Message         json.RawMessage `json:"message,omitempty"`
	Event           json.RawMessage `json:"event,omitempty"`
	Error           json.RawMessage `json:"error,omitempty"`
	ToolUseResult   json.RawMessage `json:"tool_use_result,omitempty"`
	SubagentType    string          `json:"subagent_type,omitempty"`
	TaskDescription string          `json:"task_description,omitempty"`

	eventOK bool              // Event was decoded by unmarshalLine, into Decoder.se
	msg     anthropic.Message // Message of an assistant line, decoded by unmarshalLine
	msgOK   bool              // msg is set
	// noAborted is set when unmarshalLine read the line in one pass and
	// it has no top-level key json.Unmarshal would match to "aborted".
	noAborted bool
}

// Init is the system/init line.
type Init struct {
	Type              string   `json:"type"`
	Subtype           string   `json:"subtype"`
	Cwd               string   `json:"cwd"`
	SessionID         string   `json:"session_id"`
	Tools             []string `json:"tools"`
	MCPServers        []any    `json:"mcp_servers"`
	Model             string   `json:"model"`
	PermissionMode    string   `json:"permissionMode"`
	SlashCommands     []string `json:"slash_commands"`
	APIKeySource      string   `json:"apiKeySource"`
	ClaudeCodeVersion string   `json:"claude_code_version"`
	OutputStyle       string   `json:"output_style"`
	Agents            []string `json:"agents"`
	Skills            []string `json:"skills"`
	Plugins           []any    `json:"plugins"`
	UUID              string   `json:"uuid"`
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

// userMessage is the message of a user line.
type userMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or content blocks
}
