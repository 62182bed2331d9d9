package event

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Event is one item of the canonical stream. The concrete types are the
// exported structs of this package; a type switch over them is the intended
// way to consume events:
//
//	switch e := ev.(type) {
//	case *event.Delta:
//		fmt.Print(e.Text)
//	case *event.ToolCall:
//		...
//	}
//
// Every event belongs to an agent scope, returned by AgentID.
type Event interface {
	// AgentID returns the agent scope the event belongs to. The empty
	// string is a valid scope: the stream's only agent when the source
	// names none.
	AgentID() string
	isEvent()
}

// BlockKind names a streamed block: text or thinking. Deltas of different
// kinds, and of different agents, may interleave; a consumer tracks one open
// block per (agent, kind), as the JSON envelope specifies.
type BlockKind string

const (
	Text     BlockKind = "text"
	Thinking BlockKind = "thinking"
)

// SessionStart opens an agent scope: the main agent's session, or a subagent
// started by a tool call of its parent.
type SessionStart struct {
	Agent        string
	ParentAgent  string   // scope of the agent that started this one; "" for the main agent
	ParentToolID string   // the parent's tool call that started this agent
	SessionID    string   // the producer's session or thread id, when it has one apart from Agent
	Model        string   // model name as the producer wrote it
	Tools        []string // tools offered to the model
	Cwd          string   // working directory of a CLI agent
	Prompt       string   // the user's query, as text
	Name         string   // subagent type or name
	Description  string   // subagent task description
	// Meta is the producer's whole metadata object, verbatim (the
	// meta_init payload, Claude's system/init line), and MetaKind names its
	// shape ("anthropic_agent" for xml and jsonenv, "claude", ...).
	// Encoders write Meta back unchanged when they share its kind; others
	// use the fields above.
	Meta     json.RawMessage
	MetaKind string
	Checked  Checked `json:"-"` // what the decoder knows of Meta (see Checked)
}

// BlockStart opens a streamed block of kind Kind in scope Agent.
type BlockStart struct {
	Agent string
	Kind  BlockKind
	// ID is the source's id of the item the block is part of (a
	// Responses API output item id), or "". Consecutive blocks of one
	// kind with the same ID are parts of one item (the summary parts of
	// one reasoning item).
	ID string `json:",omitempty"`
	// Refusal marks a text block that is the model's refusal (an OpenAI
	// refusal part or delta), not its answer.
	Refusal bool `json:",omitempty"`
}

// Delta appends Text to the open block of (Agent, Kind). Text is never
// empty-trimmed: whitespace-only deltas are content.
type Delta struct {
	Agent string
	Kind  BlockKind
	Text  string
}

// BlockEnd closes the open block of (Agent, Kind).
type BlockEnd struct {
	Agent     string
	Kind      BlockKind
	Signature string // thinking signature, when the source carries one
}

// Citations attaches citations to the text block of Agent that ended last.
// Producers send them right after that block's end.
type Citations struct {
	Agent string
	Items []Citation
}

// Citation is one source reference. Which optional fields are set depends on
// Type: char_location, page_location, web_search_result_location, or
// another type the producer defines.
type Citation struct {
	Type            string
	CitedText       string
	DocumentIndex   *int64
	DocumentTitle   *string
	StartCharIndex  *int64
	EndCharIndex    *int64
	StartPageNumber *int64
	EndPageNumber   *int64
	URL             *string
	Title           *string
	// Raw is the producer's citation object, verbatim, when it has fields
	// the ones above do not cover (Anthropic's encrypted_index, ...).
	Raw json.RawMessage
}

// ToolCall is a complete tool invocation.
type ToolCall struct {
	Agent string
	ID    string
	Name  string
	// Input is the arguments as JSON text, verbatim as the source wrote
	// them (key order and spacing kept). It is always valid JSON: a
	// decoder that receives arguments that do not parse stores them as a
	// JSON string.
	Input     json.RawMessage
	Server    bool   // executed by the model provider (server_tool_use)
	MCPServer string // MCP server name, for MCP tools
	// InputDeltas, when the source streamed Input in more than one
	// fragment (Anthropic's input_json_delta), are the fragments' lengths
	// in bytes (empty ones too), in order, summing to len(Input); nil
	// otherwise. An encoder of a streamed format may write one fragment
	// per length.
	InputDeltas []int `json:",omitempty"`
	// ItemID is the source's id of the item that carries the call when
	// it has one apart from ID (a Responses API function_call's fc_
	// id), or "".
	ItemID string `json:",omitempty"`
	// Truncated marks a call the input ended inside of: Input is what
	// arrived of the arguments (as a JSON string when that does not
	// parse), never a completed or invented value. Encoders write it as
	// their format shows a call cut short, or report the loss.
	Truncated bool    `json:",omitempty"`
	Checked   Checked `json:"-"` // what the decoder knows of Input (see Checked)
}

// PartialInput returns the arguments of a truncated call as they arrived:
// the text of Input when a decoder kept it as a JSON string because it
// does not parse, else Input itself.
func (e *ToolCall) PartialInput() string {
	var s string
	if len(e.Input) > 0 && e.Input[0] == '"' && json.Unmarshal(e.Input, &s) == nil {
		return s
	}
	return string(e.Input)
}

// ToolResult is the complete result of a tool call, paired with it by ID.
type ToolResult struct {
	Agent    string
	ID       string
	Name     string
	Content  []Part // text and images, in order
	IsError  bool
	Server   bool   // result of a server tool; Name is then the result type, e.g. web_search_tool_result
	ExitCode *int   // exit code of a shell command
	Status   string // producer status: completed, failed, declined, ...
	// Structured is the tool's structured output, verbatim (Claude's
	// tool_use_result, an MCP structured_content).
	Structured json.RawMessage
	Checked    Checked `json:"-"` // what the decoder knows of Structured (see Checked)
}

// Part is one piece of tool result content.
type Part struct {
	Type      string // "text" or "image"
	Text      string // for text
	Source    string // for image: a data URI or URL
	MediaType string // for image
}

// AwaitingTools says the agent paused for the client to run tools.
type AwaitingTools struct {
	Agent string
	Tools []PendingTool
}

// PendingTool is a tool call the client must run.
type PendingTool struct {
	ID    string
	Name  string
	Input json.RawMessage
}

// Files lists files generated during the run (meta_files).
type Files struct {
	Agent string
	Files []File
	// Raw is the producer's payload, verbatim, when it came from a
	// format that carries one.
	Raw json.RawMessage
}

// File is one generated file.
type File struct {
	ID       string
	Name     string
	Location string
}

// FileChange reports edits an agent made to files (Codex file_change).
type FileChange struct {
	Agent   string
	ID      string
	Changes []Change
	Status  string
}

// Change is one edited path; Kind is add, delete, update or modify.
type Change struct {
	Path string
	Kind string
}

// TodoList is an agent's task list, replaced as a whole at each update.
type TodoList struct {
	Agent string
	ID    string
	Items []TodoItem
}

// TodoItem is one task; Status is pending, in_progress or completed.
type TodoItem struct {
	Text   string
	Status string
}

// Error is an error the stream itself reports (an API error event, a
// synthetic error message, an error item). Problems reading the stream are
// Go errors from the decoder, never Error events.
type Error struct {
	Agent   string
	Message string
	Type    string // error type or code, e.g. overloaded_error
	Fatal   bool   // the run stopped because of it
	// Raw is the producer's error payload, verbatim.
	Raw     json.RawMessage
	Checked Checked `json:"-"` // what the decoder knows of Raw (see Checked)
}

// TurnStart opens one model turn (one API call).
type TurnStart struct {
	Agent     string
	MessageID string
	Model     string
	// Usage is what the source says of the turn's usage when it starts
	// (Anthropic's message_start usage, a Claude assistant line's), or
	// nil; TurnEnd.Usage is the turn's final count.
	Usage *Usage `json:",omitempty"`
	// Created is when the source says the turn's response was created,
	// in Unix seconds (Chat Completions' created, Responses'
	// created_at), or 0 when it says not.
	Created int64 `json:",omitempty"`
}

// TurnEnd closes a model turn.
type TurnEnd struct {
	Agent      string
	MessageID  string
	StopReason string
	Usage      *Usage // this turn's usage, not cumulative
	Error      string // non-empty when the turn failed
	// CostUSD is this turn's cost, when the source gives one per turn
	// (OpenCode's step_finish); nil otherwise.
	CostUSD *float64 `json:",omitempty"`
}

// RunEnd closes an agent's run with its outcome.
type RunEnd struct {
	Agent      string
	StopReason string
	Turns      int
	DurationMS int64
	CostUSD    *float64
	Usage      *Usage // cumulative for the run
	IsError    bool
	Errors     []string
	Result     string // final answer text, when the producer repeats it
	// Meta is the producer's whole summary object, verbatim (meta_final
	// payload, Claude's result line); MetaKind as for SessionStart.
	Meta     json.RawMessage
	MetaKind string
	// Models is what the producer says each model used over the whole
	// run, subagents included (Claude's result.modelUsage), sorted by
	// model name; nil when it does not say.
	Models  []ModelUsage
	Checked Checked `json:"-"` // what the decoder knows of Meta (see Checked)
}

// ModelUsage is one model's share of a run, as the producer reports it.
type ModelUsage struct {
	Model   string
	Usage   Usage
	CostUSD *float64 // nil when the producer gives no cost for the model
}

// Usage counts tokens. Has says which counts the source gave: a count
// whose bit is clear was not said (it reads 0, which is no count of zero),
// and writers leave it out or write their format's unknown form for it.
// A caller that builds a Usage sets Has for every count it gives
// (HasTokens for input and output): a Usage with counts and no Has says
// none of them, and encoders write none.
type Usage struct {
	InputTokens      int64
	OutputTokens     int64
	CacheReadTokens  int64  // cache_read_input_tokens, Codex cached_input_tokens
	CacheWriteTokens int64  // cache_creation_input_tokens, Codex cache_write_input_tokens
	ReasoningTokens  int64  // Codex reasoning_output_tokens (part of OutputTokens)
	ServiceTier      string `json:",omitempty"` // Anthropic's usage.service_tier ("standard", ...), when given
	Has              Counts
}

// Counts is a set of Usage's token counts, one bit each.
type Counts uint8

// The counts of a Usage.
const (
	HasInput Counts = 1 << iota
	HasOutput
	HasCacheRead
	HasCacheWrite
	HasReasoning

	// HasTokens is input and output, what every usage-reporting API says.
	HasTokens = HasInput | HasOutput
)

var countNames = [...]string{"input", "output", "cache_read", "cache_write", "reasoning"}

// String names the counts of c, joined by "|" ("input|output").
func (c Counts) String() string {
	var b []byte
	for i, n := range countNames {
		if c&(1<<i) != 0 {
			if len(b) > 0 {
				b = append(b, '|')
			}
			b = append(b, n...)
		}
	}
	return string(b)
}

// MarshalText writes c as String does, so that event dumps name the counts.
func (c Counts) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (c *Counts) UnmarshalText(b []byte) error {
	*c = 0
	for n := range strings.SplitSeq(string(b), "|") {
		i := slices.Index(countNames[:], n)
		if i < 0 {
			if n == "" {
				continue
			}
			return fmt.Errorf("event: unknown usage count %q", n)
		}
		*c |= 1 << i
	}
	return nil
}

// Add adds v's token counts to u's: the sum has a count when either part
// has it. ServiceTier is left alone: callers decide which tier a sum has.
// Given returns the field of u that count c (one bit) is, when Has gives
// it, else nil: what a writer writes, null or left out where nil.
func (u *Usage) Given(c Counts) *int64 {
	if u.Has&c == 0 {
		return nil
	}
	switch c {
	case HasInput:
		return &u.InputTokens
	case HasOutput:
		return &u.OutputTokens
	case HasCacheRead:
		return &u.CacheReadTokens
	case HasCacheWrite:
		return &u.CacheWriteTokens
	case HasReasoning:
		return &u.ReasoningTokens
	}
	return nil
}

// Set sets count c (one bit) of u to *n and marks it given, when n is not
// nil (a count a reader found, not null); nil leaves u as it is.
func (u *Usage) Set(c Counts, n *int64) {
	if n != nil {
		u.Has |= c
		*u.Given(c) = *n
	}
}

func (u *Usage) Add(v *Usage) {
	u.InputTokens += v.InputTokens
	u.OutputTokens += v.OutputTokens
	u.CacheReadTokens += v.CacheReadTokens
	u.CacheWriteTokens += v.CacheWriteTokens
	u.ReasoningTokens += v.ReasoningTokens
	u.Has |= v.Has
}

// Sub takes v's token counts from u's (the growth of a cumulative count);
// u keeps the counts it has.
func (u *Usage) Sub(v *Usage) {
	u.InputTokens -= v.InputTokens
	u.OutputTokens -= v.OutputTokens
	u.CacheReadTokens -= v.CacheReadTokens
	u.CacheWriteTokens -= v.CacheWriteTokens
	u.ReasoningTokens -= v.ReasoningTokens
}

// Notice is a status line: a retry, a status change, a hook, a task update.
type Notice struct {
	Agent   string
	Kind    string // the producer's subtype, e.g. api_retry, task_started
	Message string // one-line human summary
	Raw     json.RawMessage
	Checked Checked `json:"-"` // what the decoder knows of Raw (see Checked)
}

// NoticeAbandoned is the Kind of a Notice saying that the agent's open
// blocks were abandoned: their stream was given up before their end and
// begun again (a retried API call). They are left without a BlockEnd and
// are no part of the answer: consumers drop them.
const NoticeAbandoned = "abandoned"

// Unknown keeps an item the decoder did not recognise, verbatim.
type Unknown struct {
	Agent   string
	Format  string // name of the format it was read from
	Type    string // the item's type as the source named it, if any
	Raw     []byte
	Checked Checked `json:"-"` // what the decoder knows of Raw (see Checked)
}

func (e *SessionStart) AgentID() string  { return e.Agent }
func (e *BlockStart) AgentID() string    { return e.Agent }
func (e *Delta) AgentID() string         { return e.Agent }
func (e *BlockEnd) AgentID() string      { return e.Agent }
func (e *Citations) AgentID() string     { return e.Agent }
func (e *ToolCall) AgentID() string      { return e.Agent }
func (e *ToolResult) AgentID() string    { return e.Agent }
func (e *AwaitingTools) AgentID() string { return e.Agent }
func (e *Files) AgentID() string         { return e.Agent }
func (e *FileChange) AgentID() string    { return e.Agent }
func (e *TodoList) AgentID() string      { return e.Agent }
func (e *Error) AgentID() string         { return e.Agent }
func (e *TurnStart) AgentID() string     { return e.Agent }
func (e *TurnEnd) AgentID() string       { return e.Agent }
func (e *RunEnd) AgentID() string        { return e.Agent }
func (e *Notice) AgentID() string        { return e.Agent }
func (e *Unknown) AgentID() string       { return e.Agent }

func (*SessionStart) isEvent()  {}
func (*BlockStart) isEvent()    {}
func (*Delta) isEvent()         {}
func (*BlockEnd) isEvent()      {}
func (*Citations) isEvent()     {}
func (*ToolCall) isEvent()      {}
func (*ToolResult) isEvent()    {}
func (*AwaitingTools) isEvent() {}
func (*Files) isEvent()         {}
func (*FileChange) isEvent()    {}
func (*TodoList) isEvent()      {}
func (*Error) isEvent()         {}
func (*TurnStart) isEvent()     {}
func (*TurnEnd) isEvent()       {}
func (*RunEnd) isEvent()        {}
func (*Notice) isEvent()        {}
func (*Unknown) isEvent()       {}
