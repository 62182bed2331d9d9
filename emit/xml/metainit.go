package xml

import (
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
func appendPyQuoted(out []byte, s string) []byte { return appendPy(out, s, false) }

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
func appendPyQuotedHTML(out []byte, s string) []byte { return appendPy(out, s, true) }

// appendPy is appendPyQuoted, or with html appendPyQuotedHTML.
func appendPy(out []byte, s string, html bool) []byte {
	plain, quote, escQuote := &pyPlain, `"`, `\"`
	if html {
		plain, quote, escQuote = &pyPlainHTML, "&quot;", `\&quot;`
	}
	out = append(out, quote...)
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		out = append(out, s[start:i]...)
		switch c {
		case '"':
			out = append(out, escQuote...)
		case '\\':
			out = append(out, '\\', '\\')
		case '\n':
			out = append(out, '\\', 'n')
		case '\r':
			out = append(out, '\\', 'r')
		case '\t':
			out = append(out, '\\', 't')
		case '\b':
			out = append(out, '\\', 'b')
		case '\f':
			out = append(out, '\\', 'f')
		case '&', '<', '>', '\'': // only in html: pyPlain has them
			out = append(out, htmlEntity(c)...)
		default:
			if c < utf8.RuneSelf {
				out = appendU(out, rune(c))
				i++
				start = i
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			out = appendU(out, r)
			i += n
			start = i
			continue
		}
		i++
		start = i
	}
	return append(append(out, s[start:]...), quote...)
}
