package jsonenv

import (
	"math/bits"
	"strings"
	"unicode/utf8"

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

// appendMetaInit appends the meta_init payload built from ev's fields.
// (Encode calls it and appendMetaFinal in closures kept small: Encode
// stays small enough for its hot callees to be inlined.)
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
	return appendQuoted(b, s)
}

// appendQuoted appends s in the quoted form of a JSON string as
// jsontext.AppendMarshalString writes it, in one pass: each escape
// escaped twice.
func appendQuoted(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '\\', '"')
	start := 0
	for i := 0; i < len(s); i++ {
		for i+8 <= len(s) { // the plain run, eight bytes at a time
			t := s[i : i+8] // one load
			w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
				uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
			if m := asciiStops(w); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c-0x20 < 0x60 && c != '"' && c != '\\' {
			continue
		}
		if c >= utf8.RuneSelf {
			// A character is written as it is unless it is invalid
			// (each byte written as U+FFFD) or U+2028 or U+2029,
			// which encoding/json escapes.
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(append(b, s[start:i]...), `\\ufffd`...)
				start = i + 1
			} else if r == '\u2028' || r == '\u2029' {
				b = append(append(b, s[start:i]...), '\\', '\\', 'u', '2', '0', '2', hex[r&0xf])
				start = i + n
			}
			i += n - 1
			continue
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
	return append(append(b, s[start:]...), '\\', '"')
}

// asciiStops marks the high bit of each byte of w, eight bytes, that a
// JSON string does not hold as it is or that is not ASCII: '"', '\\',
// control bytes and bytes of 0x80 or more. The lowest mark is exact, those
// above it may not be (a borrow carries into the byte above).
func asciiStops(w uint64) uint64 {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return ((q - ones) | (bs - ones) | (w - ones*0x20) | w) & highs
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
