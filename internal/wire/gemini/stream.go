// Package gemini declares the wire types of Gemini CLI's output, once: the
// stream-json and json output formats (gemini-cli
// packages/core/src/output/types.ts, as written by Gemini CLI 0.61.0) and
// the session log the CLI keeps on disk (packages/core/src/services/
// chatRecordingTypes.ts). Packages parse/gemini, emit/gemini and
// parse/geminisession translate between these structs and events.
package gemini

//go:generate go run ../gen
//go:generate go run ../gen -write

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// The stream-json event types (JsonStreamEventType).
const (
	TypeInit       = "init"
	TypeMessage    = "message"
	TypeToolUse    = "tool_use"
	TypeToolResult = "tool_result"
	TypeError      = "error"
	TypeResult     = "result"
)

// IsStreamType reports whether t is a stream-json event type.
func IsStreamType(t string) bool {
	switch t {
	case TypeInit, TypeMessage, TypeToolUse, TypeToolResult, TypeError, TypeResult:
		return true
	}
	return false
}

// Values of the enumerated fields.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"

	StatusSuccess = "success"
	StatusError   = "error"

	SeverityWarning = "warning"
	SeverityError   = "error"
)

// Head is what every stream-json line has (BaseJsonStreamEvent).
type Head struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
}

// Probe is what a decoder reads of a stream-json line first: its type
// and timestamp as they are written, borrowed from the line (the type
// says which struct reads the line; a line of another format has no
// timestamp).
type Probe struct {
	Type      json.RawMessage `json:"type" wire:"borrow"`
	Timestamp json.RawMessage `json:"timestamp" wire:"borrow"`
}

// StreamType returns the constant Type* equal to b, or "" when b is no
// stream-json event type.
func StreamType(b []byte) string {
	for _, t := range [...]string{TypeInit, TypeMessage, TypeToolUse, TypeToolResult, TypeError, TypeResult} {
		if string(b) == t {
			return t
		}
	}
	return ""
}

// Written is what a line read by the generated reader of its type's
// struct said of its type and timestamp, as written (nil when absent, or
// when encoding/json read the line).
type Written struct{ Type, Timestamp json.RawMessage }

// Written returns l's type and timestamp as written.
func (l *Init) Written() Written       { return Written{l.typeText, l.timestampText} }
func (l *Message) Written() Written    { return Written{l.typeText, l.timestampText} }
func (l *ToolUse) Written() Written    { return Written{l.typeText, l.timestampText} }
func (l *ToolResult) Written() Written { return Written{l.typeText, l.timestampText} }
func (l *Error) Written() Written      { return Written{l.typeText, l.timestampText} }
func (l *Result) Written() Written     { return Written{l.typeText, l.timestampText} }

// Init is the first line of a run (InitEvent).
type Init struct {
	Type      string `json:"type" wire:"text=typeText"`
	Timestamp string `json:"timestamp" wire:"text=timestampText"`
	SessionID string `json:"session_id"`
	Model     string `json:"model"`

	typeText, timestampText json.RawMessage // as written, when the generated reader read them
}

// Message is a user prompt or a piece of the assistant's answer
// (MessageEvent): Delta is true for streamed assistant text.
type Message struct {
	Type      string `json:"type" wire:"text=typeText"`
	Timestamp string `json:"timestamp" wire:"text=timestampText"`
	Role      string `json:"role" wire:"intern=Role"`
	Content   string `json:"content"`
	Delta     *bool  `json:"delta,omitempty" wire:"buf=delta"`

	typeText, timestampText json.RawMessage // as written, when the generated reader read them
	delta                   bool            // what Delta points at, when the generated reader read it
}

// ToolUse is a tool call (ToolUseEvent); Parameters is a JSON object.
type ToolUse struct {
	Type       string          `json:"type" wire:"text=typeText"`
	Timestamp  string          `json:"timestamp" wire:"text=timestampText"`
	ToolName   string          `json:"tool_name"`
	ToolID     string          `json:"tool_id"`
	Parameters json.RawMessage `json:"parameters"`

	typeText, timestampText json.RawMessage // as written, when the generated reader read them
}

// ToolResult is a tool call's result (ToolResultEvent).
type ToolResult struct {
	Type      string     `json:"type" wire:"text=typeText"`
	Timestamp string     `json:"timestamp" wire:"text=timestampText"`
	ToolID    string     `json:"tool_id"`
	Status    string     `json:"status"`
	Output    *string    `json:"output,omitempty" wire:"buf=output"`
	Error     *ErrorInfo `json:"error,omitempty" wire:"buf=err"`

	typeText, timestampText json.RawMessage // as written, when the generated reader read them
	output                  string          // what Output and Error point at, when the generated reader read them
	err                     ErrorInfo
}

// ErrorInfo is the error of a tool result or a failed run.
//
//wire:write nohtml
type ErrorInfo struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Error is an error or warning the run reported and went on from
// (ErrorEvent).
type Error struct {
	Type      string `json:"type" wire:"text=typeText"`
	Timestamp string `json:"timestamp" wire:"text=timestampText"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`

	typeText, timestampText json.RawMessage // as written, when the generated reader read them
}

// Result is the last line of a run (ResultEvent).
type Result struct {
	Type      string       `json:"type" wire:"text=typeText"`
	Timestamp string       `json:"timestamp" wire:"text=timestampText"`
	Status    string       `json:"status"`
	Error     *ErrorInfo   `json:"error,omitempty" wire:"buf=err"`
	Stats     *StreamStats `json:"stats,omitempty" wire:"buf=stats"`

	typeText, timestampText json.RawMessage // as written, when the generated reader read them
	err                     ErrorInfo       // what Error and Stats point at, when the generated reader read them
	stats                   StreamStats
}

// StreamStats are a run's token counts (StreamStats): InputTokens is the
// prompt (cached tokens included), Cached the cached part of it, Input the
// rest, OutputTokens the candidates; thought tokens are in none of them
// (TotalTokens counts them). Models has the same counts per model, in the
// order the CLI lists them (0.61.0 writes it; older versions do not).
// Gemini CLI writes every count; a count is null where a writer converting
// another format does not know it (its unknown form, never a made-up 0):
// Cached and Input without the cached part, InputTokens and OutputTokens
// without theirs, TotalTokens without both.
type StreamStats struct {
	TotalTokens  *int64 `json:"total_tokens" wire:"buf=totalTokens"`
	InputTokens  *int64 `json:"input_tokens" wire:"buf=inputTokens"`
	OutputTokens *int64 `json:"output_tokens" wire:"buf=outputTokens"`
	Cached       *int64 `json:"cached" wire:"buf=cached"`
	Input        *int64 `json:"input" wire:"buf=input"`
	DurationMS   *int64 `json:"duration_ms,omitempty" wire:"buf=durationMS"`
	ToolCalls    int64  `json:"tool_calls"`
	Models       Models `json:"models,omitempty"`

	// What the pointers point at, when the generated reader read them.
	totalTokens, inputTokens, outputTokens, cached, input, durationMS int64
}

// ModelStats are one model's counts in StreamStats. Read by the generated
// reader, its pointers point into the element of Models it was read into
// (an element copied as Models grew keeps pointing at the one it was
// copied from, which nothing writes again).
type ModelStats struct {
	TotalTokens  *int64 `json:"total_tokens" wire:"buf=totalTokens"`
	InputTokens  *int64 `json:"input_tokens" wire:"buf=inputTokens"`
	OutputTokens *int64 `json:"output_tokens" wire:"buf=outputTokens"`
	Cached       *int64 `json:"cached" wire:"buf=cached"`
	Input        *int64 `json:"input" wire:"buf=input"`

	// What the pointers point at, when the generated reader read them.
	totalTokens, inputTokens, outputTokens, cached, input int64
}

// Models are the per-model counts of StreamStats, in their order on the
// wire (a JSON object, whose key order a Go map would lose).
//
//wire:members
type Models []NamedModel

// NamedModel is one entry of Models.
type NamedModel struct {
	Name  string
	Stats ModelStats
}

// UnmarshalJSON reads a JSON object of model stats, keeping key order.
func (m *Models) UnmarshalJSON(b []byte) error {
	return eachMember(b, func(name string, raw json.RawMessage) error {
		var s ModelStats
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		*m = append(*m, NamedModel{name, s})
		return nil
	})
}

// MarshalJSON writes the models as a JSON object in their order.
func (m Models) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, e := range m {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := Marshal(e.Name)
		if err != nil {
			return nil, err
		}
		v, err := Marshal(e.Stats)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// eachMember calls f for each member of the JSON object b, in order.
// null is an empty object.
func eachMember(b []byte, f func(string, json.RawMessage) error) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return &json.UnmarshalTypeError{Value: kindOf(b), Type: reflect.TypeFor[map[string]any]()}
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if err := f(name, raw); err != nil {
			return err
		}
	}
	return nil
}

// kindOf names the kind of JSON value b is, as encoding/json's type
// errors do.
func kindOf(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "value"
	}
	switch b[0] {
	case '"':
		return "string"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case '{':
		return "object"
	}
	return "number"
}

// Marshal is json.Marshal as JavaScript's JSON.stringify writes: <, > and
// & are not escaped.
func Marshal(v any) ([]byte, error) {
	return jsontext.AppendMarshal(nil, v, false)
}

// IsObject reports whether b is a JSON object.
func IsObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

// Output is what --output-format json writes: one JSON object, indented,
// on stdout; on an error, to stderr (JsonOutput).
type Output struct {
	SessionID *string         `json:"session_id,omitempty"`
	Response  *string         `json:"response,omitempty"`
	Stats     *SessionMetrics `json:"stats,omitempty"`
	Error     *JSONError      `json:"error,omitempty"`
}

// JSONError is the error of --output-format json (JsonError); Code is a
// string or a number.
type JSONError struct {
	Type    string          `json:"type"`
	Message string          `json:"message"`
	Code    json.RawMessage `json:"code,omitempty"`
}

// SessionMetrics are the json output's stats (the CLI's telemetry
// SessionMetrics): per model, in order, and the tool and file counts kept
// as they are.
type SessionMetrics struct {
	Models MetricsModels   `json:"models"`
	Tools  json.RawMessage `json:"tools,omitempty"`
	Files  json.RawMessage `json:"files,omitempty"`
}

// MetricsModels are SessionMetrics.models in their order on the wire.
//
//wire:members
type MetricsModels []NamedMetrics

// NamedMetrics is one model's metrics.
type NamedMetrics struct {
	Name    string
	Metrics ModelMetrics
}

// ModelMetrics are one model's requests and tokens.
type ModelMetrics struct {
	API    APIMetrics      `json:"api"`
	Tokens TokenMetrics    `json:"tokens"`
	Roles  json.RawMessage `json:"roles,omitempty"`
}

// APIMetrics count a model's requests.
type APIMetrics struct {
	TotalRequests  int64 `json:"totalRequests"`
	TotalErrors    int64 `json:"totalErrors"`
	TotalLatencyMs int64 `json:"totalLatencyMs"`
}

// TokenMetrics are a model's tokens: Prompt is promptTokenCount (cached
// included), Input the part not cached, Candidates the answer, Thoughts
// the thinking (not in Candidates), Tool the tool-use prompt.
type TokenMetrics struct {
	Input      int64 `json:"input"`
	Prompt     int64 `json:"prompt"`
	Candidates int64 `json:"candidates"`
	Total      int64 `json:"total"`
	Cached     int64 `json:"cached"`
	Thoughts   int64 `json:"thoughts"`
	Tool       int64 `json:"tool"`
}

// UnmarshalJSON reads a JSON object of model metrics, keeping key order.
func (m *MetricsModels) UnmarshalJSON(b []byte) error {
	return eachMember(b, func(name string, raw json.RawMessage) error {
		var s ModelMetrics
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		*m = append(*m, NamedMetrics{name, s})
		return nil
	})
}
