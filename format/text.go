package format

import (
	"bytes"
	"unicode/utf8"
)

// textWindow is how many bytes past leading white space SniffText looks
// at to tell text from binary data (more for a possible HTML start).
const textWindow = 8

// htmlStarts are the starts of an HTML document, in lower case.
var htmlStarts = []string{"<!doctype html", "<html"}

// sseStarts are the starts of an SSE stream of JSON events (a model API's
// response body), which no model writes as its answer's first bytes.
var sseStarts = []string{"data: {", "data:{", "event: "}

// SniffText says what the first bytes of an input are when they are not
// text a model or an agent wrote: "binary data" (a NUL or other control
// byte, or bytes that are not UTF-8), "an HTML document" (an error page
// in place of a stream) or "an SSE stream" (data: {...} or event: lines:
// a body of some API); "" for text. It looks at the first few bytes past
// a byte order mark and leading white space, and reports false when b is
// too short to tell and more input may follow (atEOF is false). Plain text
// is told after textWindow bytes, so a text decoder that waits for the
// answer holds back no more than that.
//
// The text formats (model text with inline XML tool calls) read any text,
// so they refuse what SniffText names; detection names it in its error.
func SniffText(b []byte, atEOF bool) (what string, ok bool) {
	t := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
	for i := 0; i < len(t) && i < textWindow; {
		r, n := utf8.DecodeRune(t[i:])
		switch {
		case r == utf8.RuneError && n <= 1 && !atEOF && !utf8.FullRune(t[i:]):
			return "", false // cut inside a sequence
		case r == utf8.RuneError && n <= 1, control(r):
			return "binary data", true
		}
		i += n
	}
	for _, s := range htmlStarts {
		switch {
		case len(t) <= len(s) && bytes.EqualFold(t, []byte(s[:len(t)])):
			if !atEOF {
				return "", false
			}
			if len(t) == len(s) {
				return "an HTML document", true
			}
		case len(t) > len(s) && bytes.EqualFold(t[:len(s)], []byte(s)) && bytes.IndexByte([]byte("> \t\r\n"), t[len(s)]) >= 0:
			return "an HTML document", true
		}
	}
	for _, s := range sseStarts {
		switch {
		case len(t) < len(s) && string(t) == s[:len(t)]:
			if !atEOF {
				return "", false
			}
		case len(t) >= len(s) && string(t[:len(s)]) == s:
			return "an SSE stream", true
		}
	}
	if len(t) < textWindow && !atEOF {
		return "", false
	}
	return "", true
}

// control reports whether r is a control character that text does not
// hold: C0 controls but for tab, line ends, form feed and escape (ANSI
// colour), and DEL.
func control(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1b:
		return false
	}
	return r < 0x20 || r == 0x7f
}
