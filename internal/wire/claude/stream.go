package claude

import (
	"encoding/json"

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

	SubtypeInit          = "init"
	SubtypeSuccess       = "success"
	SubtypeInformational = "informational"
	SubtypeErrorDuring   = "error_during_execution"
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
// reads. Fields whose JSON type differs between line types are raw.
//
//wire:hand
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
}

// Init is the system/init line.
//
//wire:hand
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
//
//wire:hand
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
//
//wire:hand
type ModelUsage struct {
	InputTokens              int64   `json:"inputTokens"`
	OutputTokens             int64   `json:"outputTokens"`
	CacheReadInputTokens     int64   `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64   `json:"cacheCreationInputTokens"`
	WebSearchRequests        int64   `json:"webSearchRequests"`
	CostUSD                  float64 `json:"costUSD"`
}
