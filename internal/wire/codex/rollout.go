package codex

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// The line types of a Codex rollout file (RolloutLine.Type).
const (
	LineSessionMeta      = "session_meta"
	LineTurnContext      = "turn_context"
	LineResponseItem     = "response_item"
	LineEventMsg         = "event_msg"
	LineWorldState       = "world_state"
	LineTokenUsageRecord = "token_usage_record"
	LineCompacted        = "compacted"
)

// The response item types (the Responses API's; Payload.Type of a
// response_item).
const (
	ResponseMessage            = "message"
	ResponseReasoning          = "reasoning"
	ResponseFunctionCall       = "function_call"
	ResponseFunctionCallOutput = "function_call_output"
	ResponseCustomToolCall     = "custom_tool_call"
	ResponseCustomToolOutput   = "custom_tool_call_output"
	ResponseLocalShellCall     = "local_shell_call"
	ResponseWebSearchCall      = "web_search_call"
	ResponseToolSearchCall     = "tool_search_call" // arguments is an object
	ResponseToolSearchOutput   = "tool_search_output"
)

// The event_msg types (Payload.Type of an event_msg).
const (
	MsgTaskStarted   = "task_started"
	MsgTaskComplete  = "task_complete"
	MsgTurnAborted   = "turn_aborted"
	MsgTokenCount    = "token_count"
	MsgItemCompleted = "item_completed"
	MsgError         = "error"
	MsgAgentMessage  = "agent_message"
	MsgAgentReason   = "agent_reasoning"
	MsgUserMessage   = "user_message"
)

// The other strings a rollout repeats on most lines: roles, content part
// types, statuses.
const (
	VocabAssistant   = "assistant"
	VocabUser        = "user"
	VocabDeveloper   = "developer"
	VocabOutputText  = "output_text"
	VocabInputText   = "input_text"
	VocabSummaryText = "summary_text"
	VocabCompleted   = "completed"
)

// CompletedCommandExecution is the type of an item_completed event's item
// that ran a command.
const CompletedCommandExecution = "CommandExecution"

// RolloutLine is one line of a rollout file.
type RolloutLine struct {
	Timestamp string  `json:"timestamp"`
	Type      string  `json:"type" wire:"intern=Line"`
	Payload   Payload `json:"payload" wire:"text=payloadText"`
	// payloadText is the payload's text (the last one's), which the
	// one-pass reader sets, pointing into the line, and encoding/json
	// leaves nil.
	payloadText json.RawMessage
}

// PayloadText returns the payload's text (the last one's), pointing into
// the line, when the one-pass reader read the line, else nil.
func (l *RolloutLine) PayloadText() json.RawMessage { return l.payloadText }

// Payload is the union of the payload fields read of every line type.
type Payload struct {
	Type string `json:"type" wire:"intern=Response+Msg"`
	// session_meta
	ID     string          `json:"id"`
	Cwd    string          `json:"cwd"`
	Source json.RawMessage `json:"source"` // "cli", "exec", or {"subagent": ...}
	// turn_context
	Model string `json:"model"`
	// response_item
	Role             string          `json:"role" wire:"intern=Vocab"`
	Content          Parts           `json:"content"` // message parts; reasoning content
	Summary          Parts           `json:"summary"` // reasoning: summary parts; turn_context: a string
	Name             string          `json:"name"`
	Arguments        json.RawMessage `json:"arguments"` // a string of JSON (function_call), an object (tool_search_call)
	Input            string          `json:"input"`
	CallID           string          `json:"call_id"`
	Output           json.RawMessage `json:"output"` // a string, or {content, success}, or content items
	Status           string          `json:"status" wire:"intern=Vocab"`
	Action           json.RawMessage `json:"action"`
	Tools            json.RawMessage `json:"tools"` // tool_search_output
	EncryptedContent *string         `json:"encrypted_content"`
	// event_msg
	Item    *CompletedItem `json:"item"`
	Info    *TokenInfo     `json:"info"`
	Error   *TaskError     `json:"error"`
	Message string         `json:"message"`
	Reason  string         `json:"reason"`
	// token_usage_record
	Usage *Usage `json:"usage"`
}

// Parts is a list of content parts; a string (a turn_context's summary
// setting) is one text part, anything else none.
type Parts []TextPart

// UnmarshalJSON reads Parts as readParts does.
func (p *Parts) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '[':
		return json.Unmarshal(b, (*[]TextPart)(p))
	case len(b) > 0 && b[0] == '"':
		var s string
		err := json.Unmarshal(b, &s)
		*p = Parts{{Type: "text", Text: s}}
		return err
	}
	return nil
}

// readParts is the one-pass reader of Parts, as its UnmarshalJSON reads
// them: an array as a slice of TextPart, a string as one text part,
// anything else (null included) skipped.
func readParts(r *jsontext.Reader, p *Parts) {
	switch r.Peek() {
	case '"':
		*p = Parts{{Type: "text", Text: r.String()}}
	case '[':
		r.Array()
		s := (*p)[:0]
		for r.More() {
			s = jsontext.Extend(s)
			if !r.Null() {
				readTextPart(r, &s[len(s)-1])
			}
		}
		*p = jsontext.NotNil(s)
	default:
		r.Skip()
	}
}

// TextPart is a content or summary part.
type TextPart struct {
	Type string `json:"type" wire:"intern=Vocab"`
	Text string `json:"text"`
}

// CompletedItem is the item of an item_completed event.
type CompletedItem struct {
	Type             string   `json:"type"`
	ID               string   `json:"id"`
	Command          []string `json:"command"`
	Status           string   `json:"status" wire:"intern=Vocab"`
	AggregatedOutput string   `json:"aggregated_output"`
	ExitCode         *int     `json:"exit_code"`
}

// TokenInfo is a token_count's info.
type TokenInfo struct {
	TotalTokenUsage *Usage `json:"total_token_usage"`
	LastTokenUsage  *Usage `json:"last_token_usage"`
}

// TaskError is a task's error.
type TaskError struct {
	Message        string          `json:"message"`
	CodexErrorInfo json.RawMessage `json:"codex_error_info"`
}

// FunctionOutput is the object form of a function call's output.
type FunctionOutput struct {
	Content string `json:"content"`
	Success *bool  `json:"success"`
}
