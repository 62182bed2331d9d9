// Package opencode declares the wire types of OpenCode's `opencode run
// --format json` output (OpenCode 1.18.33, packages/opencode/src/cli/cmd/run.ts):
// one JSON object per line, {type, timestamp, sessionID, part | error}.
// parse/opencode translates them into events; nothing else names them.
package opencode

//go:generate go run ../gen

import "encoding/json"

// Line types: the "type" member of a line.
const (
	TypeStepStart  = "step_start"
	TypeText       = "text"
	TypeReasoning  = "reasoning"
	TypeToolUse    = "tool_use"
	TypeStepFinish = "step_finish"
	TypeError      = "error"
)

// Part types: the "type" member of a line's part.
const (
	PartStepStart  = "step-start"
	PartText       = "text"
	PartReasoning  = "reasoning"
	PartTool       = "tool"
	PartStepFinish = "step-finish"
)

// Finish reasons of a step (step_finish.part.reason), as the AI SDK names
// them; "tool-calls" means the run goes on with another step.
const (
	ReasonStop      = "stop"
	ReasonToolCalls = "tool-calls"
	ReasonLength    = "length"
)

// Tool states written: run.ts writes a tool part only once it is
// finished.
const (
	StatusCompleted = "completed"
	StatusError     = "error"
)

// Line is one line of output.
type Line struct {
	Type      string `json:"type" wire:"intern=Type"`
	Timestamp *int64 `json:"timestamp,omitempty"` // milliseconds since the epoch
	SessionID string `json:"sessionID"`
	Part      *Part  `json:"part,omitempty"`
	Error     *Error `json:"error,omitempty"`
}

// Part is the message part a line carries: the fields of every part type
// in one struct (a part's type says which are set).
type Part struct {
	ID        string `json:"id"`
	MessageID string `json:"messageID"`
	SessionID string `json:"sessionID"`
	Type      string `json:"type" wire:"intern=Part"`

	// text, reasoning
	Text string `json:"text"`
	Time *Time  `json:"time,omitempty"`

	// step-finish
	Reason string   `json:"reason"`
	Tokens *Tokens  `json:"tokens,omitempty"`
	Cost   *float64 `json:"cost,omitempty"`

	// tool
	Tool   string     `json:"tool"`
	CallID string     `json:"callID"`
	State  *ToolState `json:"state,omitempty"`
}

// Time is a part's start and end, in milliseconds since the epoch.
type Time struct {
	Start *int64 `json:"start,omitempty"`
	End   *int64 `json:"end,omitempty"`
}

// Tokens is a step's token count. Output does not include Reasoning
// (Total is their sum with Input and the cache counts).
type Tokens struct {
	Total     *int64 `json:"total,omitempty"`
	Input     int64  `json:"input"`
	Output    int64  `json:"output"`
	Reasoning int64  `json:"reasoning"`
	Cache     Cache  `json:"cache"`
}

// Cache counts a step's prompt cache reads and writes.
type Cache struct {
	Read  int64 `json:"read"`
	Write int64 `json:"write"`
}

// ToolState is a finished tool call: its input, and its output (status
// completed) or error (status error).
type ToolState struct {
	Status   string          `json:"status"`
	Input    json.RawMessage `json:"input,omitempty"`
	Output   *string         `json:"output,omitempty"`
	Error    *string         `json:"error,omitempty"`
	Title    string          `json:"title,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Time     *Time           `json:"time,omitempty"`
}

// Error is the error of an error line: a NamedError, {name, data}.
type Error struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data,omitempty"`
}

// ErrorData is what an APIError's data holds (other errors hold at least
// message).
type ErrorData struct {
	Message      string `json:"message"`
	StatusCode   *int   `json:"statusCode,omitempty"`
	IsRetryable  *bool  `json:"isRetryable,omitempty"`
	ResponseBody string `json:"responseBody,omitempty"`
}

// ExitMetadata is the part of a bash tool's metadata that holds its exit
// code.
type ExitMetadata struct {
	Exit *int `json:"exit,omitempty"`
}
