package codex

import (
	"bytes"
	"encoding/json"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// The event types of codex exec --json (Line.Type), the most frequent
// first (the readers compare them in this order).
const (
	TypeItemCompleted = "item.completed"
	TypeItemStarted   = "item.started"
	TypeItemUpdated   = "item.updated"
	TypeTurnStarted   = "turn.started"
	TypeThreadStarted = "thread.started"
	TypeTurnCompleted = "turn.completed"
	TypeTurnFailed    = "turn.failed"
	TypeError         = "error"

	// TypeSessionCreated is what early exec --json versions wrote for
	// thread.started, with session_id for thread_id.
	TypeSessionCreated = "session.created"
)

// The item types (Item.Type, or Item.ItemType before codex 0.44), the most
// frequent first.
const (
	ItemAgentMessage     = "agent_message"
	ItemCommandExecution = "command_execution"
	ItemReasoning        = "reasoning"
	ItemAssistantMessage = "assistant_message" // agent_message before codex 0.44
	ItemFileChange       = "file_change"
	ItemMCPToolCall      = "mcp_tool_call"
	ItemWebSearch        = "web_search"
	ItemTodoList         = "todo_list"
	ItemError            = "error"
	ItemPlan             = "plan"
	ItemCollabToolCall   = "collab_tool_call"
)

// The item statuses (Item.Status), the most frequent first.
const (
	StatusCompleted  = "completed"
	StatusInProgress = "in_progress"
	StatusFailed     = "failed"
	StatusDeclined   = "declined"
)

// Line is one line of codex exec --json, with the fields of every event
// type. Codex writes the type first, and then the member its type
// carries.
//
//wire:order
type Line struct {
	Type      string        `json:"type" wire:"intern=Type"`
	Item      ItemText      `json:"item"`
	ThreadID  string        `json:"thread_id"`
	SessionID string        `json:"session_id"` // session.created
	Usage     *Usage        `json:"usage" wire:"buf=usage"`
	Error     *ErrorMessage `json:"error" wire:"buf=err"`
	Message   *string       `json:"message" wire:"buf=msg"`

	// What Usage, Error and Message point to when the one-pass reader
	// set them (wire:"buf"): the line's, valid while it is not copied or
	// reused.
	usage Usage
	err   ErrorMessage
	msg   string
}

// ItemText is a line's item: its text, and the Item it decodes to. A
// line whose item is not an Item (a string, an object with a member of
// another type) is still a line: the item's text says what it was.
type ItemText struct {
	// Raw is the item's text. The one-pass reader borrows it: it points
	// into the line read, valid as long as the line's bytes are.
	Raw  json.RawMessage `json:"-"`
	Item Item            `json:"-"` // what Raw decodes to, if OK
	OK   bool            `json:"-"` // Raw is an object that decodes as an Item
}

// UnmarshalJSON keeps the item's text and decodes it as an Item if it
// can.
func (t *ItemText) UnmarshalJSON(b []byte) error {
	*t = ItemText{Raw: bytes.Clone(b)}
	t.OK = len(b) > 0 && b[0] == '{' && json.Unmarshal(b, &t.Item) == nil
	if !t.OK {
		t.Item = Item{}
	}
	return nil
}

// MarshalJSON writes the item's text.
func (t ItemText) MarshalJSON() ([]byte, error) {
	if t.Raw == nil {
		return json.Marshal(t.Item)
	}
	return t.Raw, nil
}

// readItemText reads an item as ItemText.UnmarshalJSON does, in the same
// pass as its line: the item with the generated reader, which, if it
// gives the item up, leaves it to encoding/json, the item's text
// borrowed.
func readItemText(r *jsontext.Reader, t *ItemText) {
	*t = ItemText{}
	if r.Peek() == '{' {
		off, depth := r.Offset(), r.Depth()
		readItem(r, &t.Item)
		if !r.Failed() {
			t.Raw, t.OK = r.Since(off), true
			return
		}
		r.Rewind(off, depth)
		t.Item = Item{}
	}
	t.Raw = r.Skip()
	if len(t.Raw) > 0 && t.Raw[0] == '{' && !r.Failed() {
		t.OK = json.Unmarshal(t.Raw, &t.Item) == nil
		if !t.OK {
			t.Item = Item{}
		}
	}
}

// Usage is a usage object: token counts, cumulative per thread in
// turn.completed, as a rollout's token_count and token_usage_record carry
// them too. Codex before 0.16x writes only input, cached input and
// output (a count absent is nil, as is one agentstream was not told, the
// input and output counts too).
//
//wire:order
type Usage struct {
	InputTokens           *int64 `json:"input_tokens,omitempty" wire:"buf=input"`
	CachedInputTokens     *int64 `json:"cached_input_tokens,omitempty" wire:"buf=cached"`
	CacheWriteInputTokens *int64 `json:"cache_write_input_tokens,omitempty" wire:"buf=cacheWrite"`
	OutputTokens          *int64 `json:"output_tokens,omitempty" wire:"buf=output"`
	ReasoningOutputTokens *int64 `json:"reasoning_output_tokens,omitempty" wire:"buf=reasoning"`

	// What the counts point to when the one-pass reader set them
	// (wire:"buf"): the usage's own, valid while it is not copied or
	// reused (its readers take the counts with Event at once).
	input, cached, cacheWrite, output, reasoning int64
}

// Event returns u's counts as a canonical usage, with the counts it gives.
func (u *Usage) Event() event.Usage {
	var e event.Usage
	e.Set(event.HasInput, u.InputTokens)
	e.Set(event.HasOutput, u.OutputTokens)
	e.Set(event.HasCacheRead, u.CachedInputTokens)
	e.Set(event.HasCacheWrite, u.CacheWriteInputTokens)
	e.Set(event.HasReasoning, u.ReasoningOutputTokens)
	return e
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
	ExitCode         *int            `json:"exit_code" wire:"buf=exitCode"`
	Status           string          `json:"status" wire:"intern=Status"`

	Changes []FileUpdateChange `json:"changes"`

	Server    string          `json:"server"`
	Tool      string          `json:"tool"` // mcp_tool_call, collab_tool_call
	Arguments json.RawMessage `json:"arguments" wire:"borrow"`
	Result    *MCPResult      `json:"result"`
	Error     *ErrorMessage   `json:"error" wire:"buf=err"`

	Query  json.RawMessage `json:"query" wire:"borrow"`
	Action json.RawMessage `json:"action" wire:"borrow"`

	Items []TodoItem `json:"items"`

	Message string `json:"message"` // error item

	SenderThreadID    string          `json:"sender_thread_id"`
	ReceiverThreadIDs []string        `json:"receiver_thread_ids"`
	Prompt            *string         `json:"prompt"`
	AgentsStates      json.RawMessage `json:"agents_states" wire:"borrow"`

	ItemType string `json:"item_type" wire:"intern=Item"` // type before codex 0.44

	// What ExitCode and Error point to when the one-pass reader set them
	// (wire:"buf"): the item's, valid while it is not copied or reused
	// (the decoder's keep drops both from a copy).
	exitCode int
	err      ErrorMessage
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
