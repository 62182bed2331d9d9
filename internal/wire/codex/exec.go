package codex

import "encoding/json"

// The event types of codex exec --json (Line.Type).
const (
	TypeThreadStarted = "thread.started"
	TypeTurnStarted   = "turn.started"
	TypeTurnCompleted = "turn.completed"
	TypeTurnFailed    = "turn.failed"
	TypeItemStarted   = "item.started"
	TypeItemUpdated   = "item.updated"
	TypeItemCompleted = "item.completed"
	TypeError         = "error"

	// TypeSessionCreated is what early exec --json versions wrote for
	// thread.started, with session_id for thread_id.
	TypeSessionCreated = "session.created"
)

// The item types (Item.Type, or Item.ItemType before codex 0.44).
const (
	ItemAgentMessage     = "agent_message"
	ItemAssistantMessage = "assistant_message" // agent_message before codex 0.44
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

// The item statuses (Item.Status).
const (
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
	StatusDeclined   = "declined"
)

// Line is one line of codex exec --json, with the fields of every event
// type. Its item is kept as its text, which Item decodes. Codex writes the
// type first, and then the member its type carries.
//
//wire:order
type Line struct {
	Type string `json:"type" wire:"intern=Type"`
	// Item is borrowed: it points into the line read, valid as long as
	// the line's bytes are.
	Item      json.RawMessage `json:"item" wire:"borrow"`
	ThreadID  string          `json:"thread_id"`
	SessionID string          `json:"session_id"` // session.created
	Usage     *Usage          `json:"usage"`
	Error     *ErrorMessage   `json:"error"`
	Message   *string         `json:"message"`
}

// Usage is a usage object: token counts, cumulative per thread in
// turn.completed, as a rollout's token_count and token_usage_record carry
// them too. Codex before 0.16x writes only the first, second and fourth.
//
//wire:order
type Usage struct {
	InputTokens           int64 `json:"input_tokens"`
	CachedInputTokens     int64 `json:"cached_input_tokens"`
	CacheWriteInputTokens int64 `json:"cache_write_input_tokens"`
	OutputTokens          int64 `json:"output_tokens"`
	ReasoningOutputTokens int64 `json:"reasoning_output_tokens"`
}

// ErrorMessage is turn.failed's error and mcp_tool_call's error.
type ErrorMessage struct {
	Message string `json:"message"`
}

// Item is a thread item, with the fields of every item type. The item's
// own fields follow id and type flat, as Codex writes them, in the order
// declared here for messages, reasoning and commands.
//
//wire:order
type Item struct {
	ID   string `json:"id"`
	Type string `json:"type" wire:"intern=Item"`

	Text string `json:"text"` // agent_message, reasoning, plan

	Command          json.RawMessage `json:"command" wire:"borrow"` // a string (an argv array in some versions)
	AggregatedOutput string          `json:"aggregated_output"`
	ExitCode         *int            `json:"exit_code"`
	Status           string          `json:"status" wire:"intern=Status"`

	Changes []FileUpdateChange `json:"changes"`

	Server    string          `json:"server"`
	Tool      string          `json:"tool"` // mcp_tool_call, collab_tool_call
	Arguments json.RawMessage `json:"arguments" wire:"borrow"`
	Result    *MCPResult      `json:"result"`
	Error     *ErrorMessage   `json:"error"`

	Query  json.RawMessage `json:"query" wire:"borrow"`
	Action json.RawMessage `json:"action" wire:"borrow"`

	Items []TodoItem `json:"items"`

	Message string `json:"message"` // error item

	SenderThreadID    string          `json:"sender_thread_id"`
	ReceiverThreadIDs []string        `json:"receiver_thread_ids"`
	Prompt            *string         `json:"prompt"`
	AgentsStates      json.RawMessage `json:"agents_states" wire:"borrow"`

	ItemType string `json:"item_type" wire:"intern=Item"` // type before codex 0.44
}

// Kind returns the item's type, accepting the pre-0.44 spelling.
func (it *Item) Kind() string {
	t := it.Type
	if t == "" {
		t = it.ItemType
	}
	if t == ItemAssistantMessage {
		t = ItemAgentMessage
	}
	return t
}

// FileUpdateChange is one path of a file_change.
type FileUpdateChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// MCPResult is an mcp_tool_call's result.
type MCPResult struct {
	Content           []json.RawMessage `json:"content" wire:"borrow"`
	StructuredContent json.RawMessage   `json:"structured_content" wire:"borrow"`
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
