package jsonenv

import (
	"math"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// The payloads built from an event's fields are written by appending, as
// encoding/json (marshalNoHTML) writes them, byte for byte: a stream of
// many short runs (Codex's) writes a meta_init, and often an error, per
// run. The tests compare each with encoding/json.

// appendMetaInit appends the meta_init payload metaInitPayload builds
// from ev's fields: agentmeta.Init's fields in its order, user_query as
// json.Marshal writes the prompt (HTML-escaped).
func appendMetaInit(b []byte, ev *event.SessionStart) []byte {
	b = append(b, `{"format":"json","user_query":`...)
	b = appendHTMLString(b, ev.Prompt)
	b = appendStrField(b, `,"agent_uuid":`, ev.Agent)
	b = append(b, `,"parent_agent_uuid":`...)
	if ev.ParentAgent != "" {
		b = jsontext.AppendMarshalString(b, ev.ParentAgent)
	} else {
		b = append(b, "null"...)
	}
	b = appendStrField(b, `,"model":`, ev.Model)
	b = appendStrField(b, `,"session_id":`, ev.SessionID)
	if len(ev.Tools) > 0 {
		b = append(b, `,"tools":`...)
		b = appendStrings(b, ev.Tools)
	}
	b = appendStrField(b, `,"cwd":`, ev.Cwd)
	b = appendStrField(b, `,"parent_tool_use_id":`, ev.ParentToolID)
	b = appendStrField(b, `,"name":`, ev.Name)
	b = appendStrField(b, `,"description":`, ev.Description)
	return append(b, '}')
}

// appendMetaFinal appends the meta_final payload metaFinalPayload builds
// from ev's fields. It reports false, having appended nothing, for a cost
// encoding/json cannot write (NaN, infinities): metaFinalPayload then
// writes what encoding/json does.
func appendMetaFinal(b []byte, ev *event.RunEnd) ([]byte, bool) {
	if c := ev.CostUSD; c != nil && (math.IsNaN(*c) || math.IsInf(*c, 0)) {
		return b, false
	}
	b = append(b, `{"stop_reason":`...)
	if ev.StopReason != "" {
		b = jsontext.AppendMarshalString(b, ev.StopReason)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"total_steps":`...)
	b = strconv.AppendInt(b, int64(ev.Turns), 10)
	b = append(b, `,"generated_files":null,"cost":null`...)
	if u := ev.Usage; u != nil {
		b = append(b, `,"cumulative_usage":{"input_tokens":`...)
		b = strconv.AppendInt(b, u.InputTokens, 10)
		b = append(b, `,"output_tokens":`...)
		b = strconv.AppendInt(b, u.OutputTokens, 10)
		b = appendIntField(b, `,"cache_read_input_tokens":`, u.CacheReadTokens)
		b = appendIntField(b, `,"cache_creation_input_tokens":`, u.CacheWriteTokens)
		b = appendIntField(b, `,"reasoning_output_tokens":`, u.ReasoningTokens)
		b = appendStrField(b, `,"service_tier":`, u.ServiceTier)
		b = append(b, '}')
	}
	if c := ev.CostUSD; c != nil {
		b = append(b, `,"total_cost_usd":`...)
		b = jsontext.AppendMarshalFloat(b, *c)
	}
	b = appendIntField(b, `,"duration_ms":`, ev.DurationMS)
	if ev.IsError {
		b = append(b, `,"is_error":true`...)
	}
	if len(ev.Errors) > 0 {
		b = append(b, `,"errors":`...)
		b = appendStrings(b, ev.Errors)
	}
	b = appendStrField(b, `,"result":`, ev.Result)
	return append(b, '}'), true
}

// appendErrorObject appends wire.ErrorPayload{typ, msg} as marshal writes
// it.
func appendErrorObject(b []byte, typ, msg string) []byte {
	b = append(b, `{"type":`...)
	b = jsontext.AppendMarshalString(b, typ)
	b = append(b, `,"message":`...)
	b = jsontext.AppendMarshalString(b, msg)
	return append(b, '}')
}

// appendStrField appends key (`,"name":`) and s, when s is not empty
// (omitempty).
func appendStrField(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return jsontext.AppendMarshalString(append(b, key...), s)
}

// appendIntField appends key (`,"name":`) and n, when n is not 0
// (omitempty).
func appendIntField(b []byte, key string, n int64) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key...), n, 10)
}

// appendStrings appends a JSON array of strings.
func appendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendMarshalString(b, s)
	}
	return append(b, ']')
}

// appendHTMLString appends s as json.Marshal writes a string: as
// jsontext.AppendMarshalString, and <, > and & escaped. Splitting s at
// those ASCII bytes splits no character (nor a run of invalid bytes, each
// of which is written on its own).
func appendHTMLString(b []byte, s string) []byte {
	b = append(b, '"')
	for {
		i := strings.IndexAny(s, "<>&")
		if i < 0 {
			break
		}
		b = jsontext.AppendMarshalEscaped(b, s[:i])
		switch s[i] {
		case '<':
			b = append(b, `\u003c`...)
		case '>':
			b = append(b, `\u003e`...)
		default:
			b = append(b, `\u0026`...)
		}
		s = s[i+1:]
	}
	b = jsontext.AppendMarshalEscaped(b, s)
	return append(b, '"')
}
