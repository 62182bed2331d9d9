package xml

import (
	"math/bits"
	"unicode/utf8"

	"github.com/agentstream/agentstream/internal/agentmeta"
)

// pySpelling writes the meta_init and meta_final built from an event's
// fields (not the producer's own) as marshal writes them, HTML-escaped as
// appendASCIIData would, in one pass: the producer's conversation_history
// (empty) first in meta_final, then agentmeta.Final's fields. Each
// encoder writes with a copy of its own.
var pySpelling = agentmeta.Spelling{
	Keys:      agentmeta.SpellKeys("&quot;", ": ", ", ", "xml"),
	FinalHead: "&quot;conversation_history&quot;: [], ",
	Str:       appendPyQuotedHTML, Query: appendPyQuotedHTML, Producer: true,
}

// appendErrorJSON appends an Anthropic error object as errorJSON's
// marshal writes it.
func appendErrorJSON(b []byte, typ, msg string) []byte {
	b = append(b, `{"type": `...)
	b = appendPyQuoted(b, typ)
	b = append(b, `, "message": `...)
	b = appendPyQuoted(b, msg)
	return append(b, '}')
}

// pyPlain marks the bytes appendPyQuoted writes as they are: printable
// ASCII but the quote and the backslash.
var pyPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendPyQuoted appends s as a JSON string as json.dumps writes it with
// ensure_ascii; invalid UTF-8 is written as \ufffd, one a byte, as
// encoding/json replaces it before marshal's rewriting.
func appendPyQuoted(out []byte, s string) []byte { return appendPy(out, s, &pyJSONOnly) }

// pyPlainHTML marks the bytes appendPyQuotedHTML writes as they are:
// those of pyPlain but what htmlEscape escapes.
var pyPlainHTML = func() (t [256]bool) {
	for c := range 256 {
		t[c] = pyPlain[c] && htmlSpecial[c] == 0
	}
	return t
}()

// appendPyQuotedHTML appends htmlEscape of what appendPyQuoted writes
// for s, in one pass: appendPyQuoted's output is ASCII, so only its
// quotes and s's & < > ' change.
func appendPyQuotedHTML(out []byte, s string) []byte { return appendPy(out, s, &pyHTML) }

// pySpell is how appendPy writes a string: which bytes go as they are,
// the quotes, and the backslash that starts an escape (doubled when the
// formatter's escaping comes on top: it doubles every backslash, and
// appendPy's output holds no line break for it to escape).
type pySpell struct {
	plain           *[256]bool
	html            bool // pyPlainHTML: & < > ' " as htmlEscape writes them
	quote, escQuote string
	bs              string
}

var (
	pyJSONOnly = pySpell{&pyPlain, false, `"`, `\"`, `\`}
	pyHTML     = pySpell{&pyPlainHTML, true, "&quot;", `\&quot;`, `\`}
	// pyFormatted is formatter's escaping of appendPyQuoted's output;
	// pyHTMLFormatted of appendPyQuotedHTML's.
	pyFormatted     = pySpell{&pyPlain, false, `"`, `\\"`, `\\`}
	pyHTMLFormatted = pySpell{&pyPlainHTML, true, "&quot;", `\\&quot;`, `\\`}
)

// appendPy appends s as a JSON string spelled as sp says. The runs of
// plain bytes between the others are found eight bytes at a time.
func appendPy(out []byte, s string, sp *pySpell) []byte {
	plain := sp.plain
	out = append(out, sp.quote...)
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) {
			if m := pyStops(load8(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		out = append(out, s[start:i]...)
		switch c {
		case '"':
			out = append(out, sp.escQuote...)
		case '\\':
			out = append(append(out, sp.bs...), sp.bs...)
		case '\n':
			out = append(append(out, sp.bs...), 'n')
		case '\r':
			out = append(append(out, sp.bs...), 'r')
		case '\t':
			out = append(append(out, sp.bs...), 't')
		case '\b':
			out = append(append(out, sp.bs...), 'b')
		case '\f':
			out = append(append(out, sp.bs...), 'f')
		case '&', '<', '>', '\'': // only in html: pyPlain has them
			out = append(out, htmlEntity(c)...)
		default:
			r, n := rune(c), 1
			if c >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[i:])
			}
			out = appendUPrefix(out, r, sp.bs)
			i += n
			start = i
			continue
		}
		i++
		start = i
	}
	return append(append(out, s[start:]...), sp.quote...)
}

// pyStops marks the high bit of each byte of w, eight bytes of a string,
// that appendPy may not copy as it is: those metaStrStops marks, and
// DEL (0x7f, which w+ones carries into the high bit). The lowest mark is
// exact, those above it may not be.
func pyStops(w uint64) uint64 {
	return metaStrStops(w) | (w+ones8)&highs8
}

const (
	ones8  = 0x0101010101010101
	highs8 = 0x8080808080808080
)

// load8 returns s[i:i+8] as a little-endian word (one load).
func load8[T string | []byte](s T, i int) uint64 {
	t := s[i : i+8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}
