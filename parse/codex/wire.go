package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/agentstream/agentstream/internal/codexwire"
)

// The event types of codex exec --json: the wire vocabulary of this format,
// shared with package emit/codex.
const (
	typeThreadStarted = "thread.started"
	typeTurnStarted   = "turn.started"
	typeTurnCompleted = "turn.completed"
	TypeTurnFailed    = "turn.failed"
	TypeItemStarted   = "item.started"
	TypeItemUpdated   = "item.updated"
	TypeItemCompleted = "item.completed"
	TypeError         = "error"

	// typeSessionCreated is what early exec --json versions wrote for
	// thread.started, with session_id for thread_id.
	typeSessionCreated = "session.created"
)

// The item types (item.type, or item.item_type before codex 0.44).
const (
	ItemAgentMessage     = "agent_message"
	itemAssistantMessage = "assistant_message" // agent_message before codex 0.44
	ItemReasoning        = "reasoning"
	ItemCommandExecution = "command_execution"
	ItemFileChange       = "file_change"
	ItemMCPToolCall      = "mcp_tool_call"
	ItemWebSearch        = "web_search"
	ItemTodoList         = "todo_list"
	ItemError            = "error"
	ItemPlan             = "plan"
	ItemCollabToolCall   = "collab_tool_call"
)

// wireItem statuses.
const (
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
	statusDeclined   = "declined"
)

// The collab tools (collab_tool_call.tool): Codex's subagent operations.
func CollabTools() []string { return []string{"spawn_agent", "send_input", "wait", "close_agent"} }

// ErrorItemType is the event.Error Type of an error item, telling it apart
// from the top-level error event (whose Type is empty).
const ErrorItemType = "error_item"

// PlanNoticeKind is the event.Notice Kind of a plan item.
const PlanNoticeKind = "plan"

// wireLine is one line of the stream, with the fields of every event type.
type wireLine struct {
	Type      string          `json:"type"`
	ThreadID  string          `json:"thread_id"`
	SessionID string          `json:"session_id"` // session.created
	Usage     *Usage          `json:"usage"`
	Error     *errorMessage   `json:"error"`
	Message   *string         `json:"message"`
	Item      json.RawMessage `json:"item"`

	itemOK      bool   // unmarshalLine decoded Item into Decoder.lit
	itemIDs     int    // how many id members it has
	itemFirstID string // the first one's value
}

// Usage is turn.completed's usage: token counts, cumulative per thread.
// Codex before 0.16x writes only the first, second and fourth. It is the
// usage object codex-session's token counts share (codexwire.Usage).
type Usage codexwire.Usage

// errorMessage is turn.failed's error and mcp_tool_call's error.
type errorMessage struct {
	Message string `json:"message"`
}

// wireItem is a thread item, with the fields of every item type. The item's
// own fields follow id and type flat, as Codex writes them.
type wireItem struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	ItemType string `json:"item_type"` // type before codex 0.44

	Text string `json:"text"` // agent_message, reasoning, plan

	Command          json.RawMessage `json:"command"` // a string (an argv array in some versions)
	AggregatedOutput string          `json:"aggregated_output"`
	ExitCode         *int            `json:"exit_code"`
	Status           string          `json:"status"`

	Changes []fileUpdateChange `json:"changes"`

	Server    string          `json:"server"`
	Tool      string          `json:"tool"` // mcp_tool_call, collab_tool_call
	Arguments json.RawMessage `json:"arguments"`
	Result    *mcpResult      `json:"result"`
	Error     *errorMessage   `json:"error"`

	Query  json.RawMessage `json:"query"`
	Action json.RawMessage `json:"action"`

	Items []TodoItem `json:"items"`

	Message string `json:"message"` // error item

	SenderThreadID    string          `json:"sender_thread_id"`
	ReceiverThreadIDs []string        `json:"receiver_thread_ids"`
	Prompt            *string         `json:"prompt"`
	AgentsStates      json.RawMessage `json:"agents_states"`
}

// Kind returns the item's type, accepting the pre-0.44 spelling.
func (it *wireItem) Kind() string {
	t := it.Type
	if t == "" {
		t = it.ItemType
	}
	if t == itemAssistantMessage {
		t = ItemAgentMessage
	}
	return t
}

// fileUpdateChange is one path of a file_change.
type fileUpdateChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// mcpResult is an mcp_tool_call's result.
type mcpResult struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent json.RawMessage   `json:"structured_content"`
}

// TodoItem is one entry of a todo_list.
type TodoItem struct {
	Text      string `json:"text"`
	Completed bool   `json:"completed"`
}

// AgentState is one value of collab_tool_call's agents_states.
type AgentState struct {
	Status  string  `json:"status"`
	Message *string `json:"message"`
}

// field is one member of a JSON object, in order.
type field struct {
	Key   string
	Value json.RawMessage
}

// fields splits a JSON object into its members in order, duplicates
// included. Values are sub-slices of obj.
func fields(obj []byte) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var fields []field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		start := dec.InputOffset()
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		// Decode copies; point into obj instead, past the colon and
		// any space before the value.
		raw := bytes.TrimLeft(obj[start:end], " \t\r\n:")
		fields = append(fields, field{Key: key, Value: raw})
	}
	if _, err := dec.Token(); err != nil && err != io.EOF {
		return nil, err
	}
	return fields, nil
}
