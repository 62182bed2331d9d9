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
	tools, slashCommands, agents, skills                                      keptStrings
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
