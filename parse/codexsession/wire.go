package codexsession

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/codexwire"
)

// Line types of a Codex rollout file.
const (
	typeSessionMeta      = "session_meta"
	typeTurnContext      = "turn_context"
	typeResponseItem     = "response_item"
	typeEventMsg         = "event_msg"
	typeWorldState       = "world_state"
	typeTokenUsageRecord = "token_usage_record"
	typeCompacted        = "compacted"
)

// Response item types (the Responses API's).
const (
	itemMessage            = "message"
	itemReasoning          = "reasoning"
	itemFunctionCall       = "function_call"
	itemFunctionCallOutput = "function_call_output"
	itemCustomToolCall     = "custom_tool_call"
	itemCustomToolOutput   = "custom_tool_call_output"
	itemLocalShellCall     = "local_shell_call"
	itemWebSearchCall      = "web_search_call"
	itemToolSearchCall     = "tool_search_call" // arguments is an object
	itemToolSearchOutput   = "tool_search_output"
)

// toolSearchTool is the tool name of a tool_search_call item (as the
// Responses reader names it).
const toolSearchTool = "tool_search"

// event_msg types.
const (
	msgTaskStarted   = "task_started"
	msgTaskComplete  = "task_complete"
	msgTurnAborted   = "turn_aborted"
	msgTokenCount    = "token_count"
	msgItemCompleted = "item_completed"
	msgError         = "error"
)

// Item types of item_completed events.
const (
	evItemCommandExecution = "CommandExecution"
)

// metaKind is the event.SessionStart.MetaKind of metadata read from this
// format: Meta holds the session_meta payload, verbatim.
const metaKind = "codex-session"

// line is one rollout line.
type line struct {
	Timestamp string  `json:"timestamp"`
	Type      string  `json:"type"`
	Payload   payload `json:"payload"`

	payloadRaw []byte // the payload's text, when readLine decoded the line
}

// payload is the union of the payload fields this package reads.
type payload struct {
	Type string `json:"type"`
	// session_meta
	ID     string          `json:"id"`
	Cwd    string          `json:"cwd"`
	Source json.RawMessage `json:"source"` // "cli", "exec", or {"subagent": ...}
	// turn_context
	Model string `json:"model"`
	// response_item
	Role             string          `json:"role"`
	Content          parts           `json:"content"` // message parts; reasoning content
	Summary          parts           `json:"summary"` // reasoning: summary parts; turn_context: a string
	Name             string          `json:"name"`
	Arguments        json.RawMessage `json:"arguments"` // a string of JSON (function_call), an object (tool_search_call)
	Input            string          `json:"input"`
	CallID           string          `json:"call_id"`
	Output           json.RawMessage `json:"output"` // a string, or {content, success}, or content items
	Status           string          `json:"status"`
	Action           json.RawMessage `json:"action"`
	Tools            json.RawMessage `json:"tools"` // tool_search_output
	EncryptedContent *string         `json:"encrypted_content"`
	// event_msg
	Item    *completedItem `json:"item"`
	Info    *tokenInfo     `json:"info"`
	Error   *taskError     `json:"error"`
	Message string         `json:"message"`
	Reason  string         `json:"reason"`
	// token_usage_record
	Usage *usage `json:"usage"`
}

// parts is a list of content parts; a string (a turn_context's summary
// setting) is one text part, anything else none.
type parts []textPart

func (p *parts) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '[':
		return json.Unmarshal(b, (*[]textPart)(p))
	case len(b) > 0 && b[0] == '"':
		var s string
		err := json.Unmarshal(b, &s)
		*p = parts{{Type: "text", Text: s}}
		return err
	}
	return nil
}

type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// completedItem is the item of an item_completed event.
type completedItem struct {
	Type             string   `json:"type"`
	ID               string   `json:"id"`
	Command          []string `json:"command"`
	Status           string   `json:"status"`
	AggregatedOutput string   `json:"aggregated_output"`
	ExitCode         *int     `json:"exit_code"`
}

type tokenInfo struct {
	TotalTokenUsage *usage `json:"total_token_usage"`
	LastTokenUsage  *usage `json:"last_token_usage"`
}

// usage is a token count object: Codex's TokenUsage, as codex exec
// --json writes it in turn.completed.
type usage = codexwire.Usage

type taskError struct {
	Message        string          `json:"message"`
	CodexErrorInfo json.RawMessage `json:"codex_error_info"`
}

// functionOutput is the object form of a function call's output.
type functionOutput struct {
	Content string `json:"content"`
	Success *bool  `json:"success"`
}
