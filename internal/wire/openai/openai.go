package openai

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// Canonical stop reasons (the Messages API's vocabulary).
const (
	StopEndTurn  = "end_turn"
	StopToolUse  = "tool_use"
	StopMaxToks  = "max_tokens"
	StopSequence = "stop_sequence"
	StopRefusal  = "refusal"
)

// Chat Completions finish reasons.
const (
	FinishStop          = "stop"
	FinishLength        = "length"
	FinishToolCalls     = "tool_calls"
	FinishContentFilter = "content_filter"
	FinishFunctionCall  = "function_call" // deprecated functions API
	// FinishUnknown is agentstream's finish_reason for a completion whose
	// source names no stop reason, or one with no counterpart here: the
	// SDKs require a finish_reason once a completion ends, and each of the
	// API's own would say something the source did not.
	FinishUnknown = "unknown"
)

// StopFromFinish maps a chat finish_reason to the canonical stop reason;
// a reason the table does not know is kept as it is, and FinishUnknown is
// none.
func StopFromFinish(finish string) string {
	switch finish {
	case FinishUnknown:
		return ""
	case FinishStop:
		return StopEndTurn
	case FinishLength:
		return StopMaxToks
	case FinishToolCalls, FinishFunctionCall:
		return StopToolUse
	case FinishContentFilter:
		return StopRefusal
	}
	return finish
}

// FinishFromStop maps a canonical stop reason to a chat finish_reason. ok
// is false when the table has no exact counterpart (the reason is then
// written as FinishUnknown and the caller reports the loss). An empty
// stop reason (the source said none) is FinishUnknown, with ok true: the
// SDKs require a finish_reason, and none of the API's may be made up.
func FinishFromStop(stop string) (finish string, ok bool) {
	switch stop {
	case "":
		return FinishUnknown, true
	case StopEndTurn, StopSequence, FinishStop:
		return FinishStop, true
	case StopToolUse, FinishToolCalls:
		return FinishToolCalls, true
	case StopMaxToks, FinishLength:
		return FinishLength, true
	case StopRefusal, FinishContentFilter:
		return FinishContentFilter, true
	}
	return FinishUnknown, false
}

// Responses statuses and incomplete reasons.
const (
	StatusCompleted  = "completed"
	StatusIncomplete = "incomplete"
	StatusFailed     = "failed"
	StatusInProgress = "in_progress"

	IncompleteMaxTokens     = "max_output_tokens"
	IncompleteContentFilter = "content_filter"
)

// StopFromStatus maps a response's final status and incomplete reason to
// the canonical stop reason. hadTools says whether the response holds
// client tool calls (function, custom and local shell calls).
func StopFromStatus(status, incomplete string, hadTools bool) string {
	switch status {
	case StatusCompleted:
		if hadTools {
			return StopToolUse
		}
		return StopEndTurn
	case StatusIncomplete:
		switch incomplete {
		case IncompleteMaxTokens:
			return StopMaxToks
		case IncompleteContentFilter:
			return StopRefusal
		}
		return incomplete
	}
	return ""
}

// StatusFromStop maps a canonical stop reason to a response status and
// incomplete reason. ok is false when the table has no exact counterpart
// (written as completed; the caller reports the loss).
func StatusFromStop(stop string) (status, incomplete string, ok bool) {
	switch stop {
	case "", StopEndTurn, StopToolUse, StopSequence, FinishStop, FinishToolCalls:
		return StatusCompleted, "", true
	case StopMaxToks, FinishLength, IncompleteMaxTokens:
		return StatusIncomplete, IncompleteMaxTokens, true
	case StopRefusal, FinishContentFilter:
		return StatusIncomplete, IncompleteContentFilter, true
	}
	return StatusCompleted, "", false
}

// Usage is the token counts both APIs report, in canonical terms: prompt
// and output totals with their cached and reasoning parts.
type Usage struct {
	Prompt    int64 // prompt_tokens / input_tokens: everything read, cached included
	Cached    int64 // prompt_tokens_details.cached_tokens / input_tokens_details.cached_tokens
	Output    int64 // completion_tokens / output_tokens: reasoning included
	Reasoning int64 // completion_tokens_details.reasoning_tokens / output_tokens_details.reasoning_tokens
	// Has is which of Cached and Reasoning the body gave
	// (event.HasCacheRead, event.HasReasoning); both APIs always give
	// the prompt and output totals.
	Has event.Counts
}

// Event returns the canonical usage: input tokens exclude the cached
// ones, which are cache reads.
func (u Usage) Event() *event.Usage {
	in := u.Prompt - u.Cached
	if in < 0 {
		in = 0
	}
	return &event.Usage{
		InputTokens: in, CacheReadTokens: u.Cached, OutputTokens: u.Output, ReasoningTokens: u.Reasoning,
		Has: u.Has,
	}
}

// Tokens returns the prompt, output and total counts to write: each nil,
// written null (the unknown form), where the source did not give it; the
// total only when both are given.
func (u *Usage) Tokens() (prompt, output, total *int64) {
	if u.Has&event.HasInput != 0 {
		prompt = &u.Prompt
	}
	if u.Has&event.HasOutput != 0 {
		output = &u.Output
	}
	if prompt != nil && output != nil {
		t := u.Prompt + u.Output
		total = &t
	}
	return prompt, output, total
}

// FromEvent returns the OpenAI counts of a canonical usage: the prompt
// counts input, cache reads and cache writes (OpenAI has no count of
// cache writes: lost reports that some were folded into the prompt).
// The cached and reasoning counts are said only when the source said
// them.
func FromEvent(u *event.Usage) (o Usage, lost bool) {
	return Usage{
		Prompt: u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens, Cached: u.CacheReadTokens,
		Output: u.OutputTokens, Reasoning: u.ReasoningTokens, Has: u.Has & (event.HasTokens | event.HasCacheRead | event.HasReasoning),
	}, u.CacheWriteTokens != 0
}

// MaxDelta is the most bytes of text or tool arguments the encoders put
// in one delta: a longer input delta is split (at a rune boundary), so a
// block is never written as one giant chunk.
const MaxDelta = 64

// Cut returns the first piece of s, at most MaxDelta bytes that do not
// split a UTF-8 sequence, and the rest: a loop of Cut until rest is empty
// streams s in pieces. An empty s gives an empty piece.
func Cut(s string) (piece, rest string) {
	n := len(s)
	if n > MaxDelta {
		n = MaxDelta
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 {
			n = MaxDelta
		}
	}
	return s[:n], s[n:]
}

// APIError is the error object both APIs send ({"error": {...}} in chat,
// the error event and response.error in responses).
type APIError struct {
	Message string `json:"message"`
	Type    string `json:"type,omitempty"`
	Code    any    `json:"code,omitempty"`
	Param   any    `json:"param,omitempty"`
}

// Kind returns the error's type, or its code when it has no type.
func (e *APIError) Kind() string {
	if e.Type != "" {
		return e.Type
	}
	if s, ok := e.Code.(string); ok {
		return s
	}
	return ""
}

// TurnFailed is the error type (chat) or code (responses) written for a
// failed turn (event.TurnEnd.Error), as the anthropic encoder writes it.
const TurnFailed = "turn_failed"

// Marshal returns v as JSON without HTML escaping, as the APIs write it.
func Marshal(v any) ([]byte, error) {
	return jsontext.AppendMarshal(nil, v, false)
}

// Aside reports whether ev is an event of the main agent that neither
// body carries and that does not go on with its run (a notice, a todo
// list, a non-fatal error, ...): the end of a turn an encoder holds
// (Encoder.Waits) keeps waiting past it.
func Aside(ev event.Event) bool {
	switch ev := ev.(type) {
	case *event.Notice, *event.AwaitingTools, *event.Files, *event.FileChange, *event.TodoList:
		return true
	case *event.Error:
		return !ev.Fatal
	}
	return false
}

// ReadAPIError decodes the error object r is at into e in one pass, as
// json.Unmarshal would; r fails on what it leaves to encoding/json (a
// code or param that is an object or an array).
func ReadAPIError(r *jsontext.Reader, e *APIError) {
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "message":
			r.StringField(&e.Message)
		case "type":
			r.StringField(&e.Type)
		case "code":
			e.Code = ReadScalar(r)
		case "param":
			e.Param = ReadScalar(r)
		default:
			r.Skip()
		}
	}
}

// ReadScalar decodes a null, string, number or boolean into an any as
// json.Unmarshal would; r fails on an object or an array.
func ReadScalar(r *jsontext.Reader) any {
	switch c := r.Peek(); {
	case c == 'n':
		r.Null()
		return nil
	case c == '"':
		return r.String()
	case c == 't' || c == 'f':
		return r.Bool()
	case c == '-' || '0' <= c && c <= '9':
		return r.Float()
	}
	r.Fail()
	return nil
}

// Created returns a created or created_at value (Unix seconds) as
// read: 0 when it is absent, null or not a number (a fractional one is
// cut to its seconds).
func Created(raw json.RawMessage) int64 {
	var f float64
	if len(raw) == 0 || json.Unmarshal(raw, &f) != nil || f < 0 || f > 1<<53 {
		return 0
	}
	return int64(f)
}

// Made reports whether id is one agentstream makes up for a turn or item
// whose source named none (resp_agentstream_0001, msg_agentstream_0002,
// chatcmpl-agentstream-0003, ...): the formats require an id there, and
// this is their documented unknown form. Decoders read it as no id.
func Made(id string) bool {
	_, n, ok := strings.Cut(id, "_agentstream_")
	if !ok {
		_, n, ok = strings.Cut(id, "-agentstream-")
	}
	if !ok || len(n) < 4 {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Given returns id, or "" when agentstream made it up (Made).
func Given(id string) string {
	if Made(id) {
		return ""
	}
	return id
}

// Tier returns the service tier of u that an OpenAI body can carry: one
// of the API's (auto, default, flex, scale, priority), else "" (another
// vendor's tier, such as Anthropic's standard, is lost: lost reports it).
func Tier(u *event.Usage) (tier string, lost bool) {
	if u == nil {
		return "", false
	}
	switch u.ServiceTier {
	case "":
		return "", false
	case "auto", "default", "flex", "scale", "priority":
		return u.ServiceTier, false
	}
	return "", true
}
