package jsonenv

import (
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/agentmeta"
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

// The keys of meta_init and meta_final, plain and quoted.
var metaKeys = [2]*agentmeta.Keys{agentmeta.SpellKeys(`"`, ":", ",", "json"), agentmeta.SpellKeys(`\"`, ":", ",", "json")}

// metaWriter appends payloads; tmp is scratch for a string of the quoted
// form.
type metaWriter struct {
	tmp []byte
	sp  [2]agentmeta.Spelling // by form, once set up
}

// spelling returns how form f writes meta_init and meta_final: user_query
// as json.Marshal writes the prompt (HTML-escaped).
func (w *metaWriter) spelling(f form) *agentmeta.Spelling {
	s := &w.sp[f]
	if s.Keys == nil {
		*s = agentmeta.Spelling{
			Keys: metaKeys[f],
			Str:  func(b []byte, v string) []byte { return w.str(b, v, f) },
			Query: func(b []byte, v string) []byte {
				if f == quoted && !strings.ContainsAny(v, "<>&") {
					return w.str(b, v, f)
				}
				w.tmp = jsontext.AppendHTMLString(w.tmp[:0], v)
				return w.text(b, w.tmp, f)
			},
		}
	}
	return s
}

// appendMetaInit appends the meta_init payload metaInitPayload builds
// from ev's fields.
func (w *metaWriter) appendMetaInit(b []byte, ev *event.SessionStart, f form) []byte {
	return w.spelling(f).AppendInit(b, ev.Agent, ev)
}

// appendMetaFinal appends the meta_final payload built from ev's fields,
// or reports false for a cost encoding/json cannot write:
// marshalMetaFinal then writes what encoding/json does.
func (w *metaWriter) appendMetaFinal(b []byte, ev *event.RunEnd, f form) ([]byte, bool) {
	return w.spelling(f).AppendFinal(b, ev)
}

// errorKeys are the keys of wire.ErrorPayload in each form.
var errorKeys = [2][2]string{{`{"type":`, `,"message":`}, {`{\"type\":`, `,\"message\":`}}

// appendErrorObject appends wire.ErrorPayload{typ, msg} as marshal writes
// it.
func (w *metaWriter) appendErrorObject(b []byte, typ, msg string, f form) []byte {
	b = w.str(append(b, errorKeys[f][0]...), typ, f)
	return append(w.str(append(b, errorKeys[f][1]...), msg, f), '}')
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
