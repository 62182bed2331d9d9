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
// run. Each is written either as JSON text (plain) or already escaped
// as the envelope's delta holds it (quoted: every quote and backslash of
// that text escaped once more), which spares escaping a text with a quote
// every few bytes a second time; a payload that does not fit one envelope
// is written plain and cut by payload. The tests compare each with
// encoding/json, and quoted with plain escaped by jsontext.AppendString.

// form is how a payload is written: plain (0) or quoted (1).
type form int

const (
	plain form = iota
	quoted
)

// lit is a piece of a payload's text in both forms.
type lit [2]string

func mkLit(s string) lit { return lit{s, strings.ReplaceAll(s, `"`, `\"`)} }

var (
	litInitStart     = mkLit(`{"format":"json","user_query":`)
	litAgentUUID     = mkLit(`,"agent_uuid":`)
	litParentAgent   = mkLit(`,"parent_agent_uuid":`)
	litModel         = mkLit(`,"model":`)
	litSessionID     = mkLit(`,"session_id":`)
	litTools         = mkLit(`,"tools":`)
	litCwd           = mkLit(`,"cwd":`)
	litParentToolID  = mkLit(`,"parent_tool_use_id":`)
	litName          = mkLit(`,"name":`)
	litDescription   = mkLit(`,"description":`)
	litFinalStart    = mkLit(`{"stop_reason":`)
	litTotalSteps    = mkLit(`,"total_steps":`)
	litFinalNulls    = mkLit(`,"generated_files":null,"cost":null`)
	litUsageStart    = mkLit(`,"cumulative_usage":{"input_tokens":`)
	litOutputTokens  = mkLit(`,"output_tokens":`)
	litCacheRead     = mkLit(`,"cache_read_input_tokens":`)
	litCacheCreation = mkLit(`,"cache_creation_input_tokens":`)
	litReasoning     = mkLit(`,"reasoning_output_tokens":`)
	litServiceTier   = mkLit(`,"service_tier":`)
	litTotalCost     = mkLit(`,"total_cost_usd":`)
	litDuration      = mkLit(`,"duration_ms":`)
	litIsError       = mkLit(`,"is_error":true`)
	litErrors        = mkLit(`,"errors":`)
	litResult        = mkLit(`,"result":`)
	litErrorStart    = mkLit(`{"type":`)
	litMessage       = mkLit(`,"message":`)
)

// metaWriter appends payloads; tmp is scratch for a string of the quoted
// form.
type metaWriter struct{ tmp []byte }

// appendMetaInit appends the meta_init payload metaInitPayload builds
// from ev's fields: agentmeta.Init's fields in its order, user_query as
// json.Marshal writes the prompt (HTML-escaped).
func (w *metaWriter) appendMetaInit(b []byte, ev *event.SessionStart, f form) []byte {
	b = append(b, litInitStart[f]...)
	if f == quoted && !strings.ContainsAny(ev.Prompt, "<>&") {
		b = w.str(b, ev.Prompt, f)
	} else {
		w.tmp = appendHTMLString(w.tmp[:0], ev.Prompt)
		b = w.text(b, w.tmp, f)
	}
	b = w.strField(b, litAgentUUID, ev.Agent, f)
	b = append(b, litParentAgent[f]...)
	if ev.ParentAgent != "" {
		b = w.str(b, ev.ParentAgent, f)
	} else {
		b = append(b, "null"...)
	}
	b = w.strField(b, litModel, ev.Model, f)
	b = w.strField(b, litSessionID, ev.SessionID, f)
	if len(ev.Tools) > 0 {
		b = append(b, litTools[f]...)
		b = w.strings(b, ev.Tools, f)
	}
	b = w.strField(b, litCwd, ev.Cwd, f)
	b = w.strField(b, litParentToolID, ev.ParentToolID, f)
	b = w.strField(b, litName, ev.Name, f)
	b = w.strField(b, litDescription, ev.Description, f)
	return append(b, '}')
}

// appendMetaFinal appends the meta_final payload metaFinalPayload builds
// from ev's fields. It reports false, having appended nothing, for a cost
// encoding/json cannot write (NaN, infinities): metaFinalPayload then
// writes what encoding/json does.
func (w *metaWriter) appendMetaFinal(b []byte, ev *event.RunEnd, f form) ([]byte, bool) {
	if c := ev.CostUSD; c != nil && (math.IsNaN(*c) || math.IsInf(*c, 0)) {
		return b, false
	}
	b = append(b, litFinalStart[f]...)
	if ev.StopReason != "" {
		b = w.str(b, ev.StopReason, f)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, litTotalSteps[f]...)
	b = strconv.AppendInt(b, int64(ev.Turns), 10)
	b = append(b, litFinalNulls[f]...)
	if u := ev.Usage; u != nil {
		b = append(b, litUsageStart[f]...)
		b = strconv.AppendInt(b, u.InputTokens, 10)
		b = append(b, litOutputTokens[f]...)
		b = strconv.AppendInt(b, u.OutputTokens, 10)
		b = appendIntField(b, litCacheRead, u.CacheReadTokens, f)
		b = appendIntField(b, litCacheCreation, u.CacheWriteTokens, f)
		b = appendIntField(b, litReasoning, u.ReasoningTokens, f)
		b = w.strField(b, litServiceTier, u.ServiceTier, f)
		b = append(b, '}')
	}
	if c := ev.CostUSD; c != nil {
		b = append(b, litTotalCost[f]...)
		b = jsontext.AppendMarshalFloat(b, *c)
	}
	b = appendIntField(b, litDuration, ev.DurationMS, f)
	if ev.IsError {
		b = append(b, litIsError[f]...)
	}
	if len(ev.Errors) > 0 {
		b = append(b, litErrors[f]...)
		b = w.strings(b, ev.Errors, f)
	}
	b = w.strField(b, litResult, ev.Result, f)
	return append(b, '}'), true
}

// appendErrorObject appends wire.ErrorPayload{typ, msg} as marshal writes
// it.
func (w *metaWriter) appendErrorObject(b []byte, typ, msg string, f form) []byte {
	b = append(b, litErrorStart[f]...)
	b = w.str(b, typ, f)
	b = append(b, litMessage[f]...)
	b = w.str(b, msg, f)
	return append(b, '}')
}

// str appends s as jsontext.AppendMarshalString writes it, in form f.
func (w *metaWriter) str(b []byte, s string, f form) []byte {
	if f == plain {
		return jsontext.AppendMarshalString(b, s)
	}
	if q, ok := appendQuotedASCII(b, s); ok {
		return q
	}
	w.tmp = jsontext.AppendMarshalString(w.tmp[:0], s)
	return w.text(b, w.tmp, f)
}

// appendQuotedASCII appends ASCII s in the quoted form of a JSON string
// in one pass: each byte JSON escapes, escaped twice. It reports false
// for s with a byte of 0x80 or more (left to the two passes, which check
// its UTF-8), with b's bytes past len(b) undefined.
func appendQuotedASCII(b []byte, s string) ([]byte, bool) {
	const hex = "0123456789abcdef"
	b = append(b, '\\', '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c-0x20 < 0x60 && c != '"' && c != '\\' {
			continue
		}
		if c >= 0x80 {
			return b, false
		}
		b = append(b, s[start:i]...)
		start = i + 1
		switch c {
		case '"', '\\':
			b = append(b, '\\', '\\', '\\', c)
		case '\n':
			b = append(b, '\\', '\\', 'n')
		case '\r':
			b = append(b, '\\', '\\', 'r')
		case '\t':
			b = append(b, '\\', '\\', 't')
		case '\b':
			b = append(b, '\\', '\\', 'b')
		case '\f':
			b = append(b, '\\', '\\', 'f')
		default:
			b = append(b, '\\', '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
	}
	return append(append(b, s[start:]...), '\\', '"'), true
}

// text appends JSON text t (valid UTF-8 with no control character, as
// encoding/json writes it) in form f.
func (w *metaWriter) text(b, t []byte, f form) []byte {
	if f == plain {
		return append(b, t...)
	}
	start := 0
	for i, c := range t {
		if c == '"' || c == '\\' {
			b = append(append(b, t[start:i]...), '\\', c)
			start = i + 1
		}
	}
	return append(b, t[start:]...)
}

// strField appends key and s, when s is not empty (omitempty).
func (w *metaWriter) strField(b []byte, key lit, s string, f form) []byte {
	if s == "" {
		return b
	}
	return w.str(append(b, key[f]...), s, f)
}

// appendIntField appends key and n, when n is not 0 (omitempty).
func appendIntField(b []byte, key lit, n int64, f form) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key[f]...), n, 10)
}

// strings appends a JSON array of strings.
func (w *metaWriter) strings(b []byte, list []string, f form) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = w.str(b, s, f)
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

// initSize and finalSize are the lengths of the event's strings that
// appendMetaInit and appendMetaFinal write (Encoder.built's size).
func initSize(ev *event.SessionStart) int {
	n := len(ev.Prompt) + len(ev.Agent) + len(ev.ParentAgent) + len(ev.Model) + len(ev.SessionID) + len(ev.Cwd) +
		len(ev.ParentToolID) + len(ev.Name) + len(ev.Description)
	for _, t := range ev.Tools {
		n += len(t)
	}
	return n
}

func finalSize(ev *event.RunEnd) int {
	n := len(ev.StopReason) + len(ev.Result)
	if ev.Usage != nil {
		n += len(ev.Usage.ServiceTier)
	}
	for _, s := range ev.Errors {
		n += len(s)
	}
	return n
}
