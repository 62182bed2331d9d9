// Package badutf8 reports invalid UTF-8 in a decoder's input once: the
// decoders replace each invalid byte with U+FFFD (their events are always
// valid UTF-8), and say so with one warning per input, at the first.
package badutf8

import (
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
)

// Once remembers whether the warning was given. The zero value is ready.
type Once struct{ warned bool }

// Check reports whether b holds invalid UTF-8 and the warning was not given
// yet (it is given now), with the index of the first invalid byte.
func (o *Once) Check(b []byte) (int, bool) {
	if o.warned || utf8.Valid(b) {
		return 0, false
	}
	o.warned = true
	return FirstInvalid(b), true
}

// CheckString is Check for a string.
func (o *Once) CheckString(s string) (int, bool) {
	if o.warned || utf8.ValidString(s) {
		return 0, false
	}
	o.warned = true
	return FirstInvalid([]byte(s)), true
}

// FirstInvalid returns the index of the first byte of b that is not part of
// a valid UTF-8 sequence, or len(b).
func FirstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// Warning returns the warning, at the given position.
func Warning(source string, line, col int, off int64) *event.ParseError {
	return &event.ParseError{
		Source: source, Line: line, Column: col, Offset: off,
		Err: event.Errorf(event.ErrWarning, "warning: invalid UTF-8 replaced with U+FFFD (reported once per input)"),
	}
}
