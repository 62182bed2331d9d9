// Package badutf8 reports invalid UTF-8 in a decoder's input once: the
// decoders replace each invalid byte with U+FFFD (their events are always
// valid UTF-8), and say so with one warning per input, at the first.
package badutf8

import (
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// Once remembers whether the warning was given. The zero value is ready.
type Once struct{ warned bool }

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

// Fix returns b with every byte that is not part of a valid UTF-8 sequence
// replaced by U+FFFD, each on its own, or b itself when it is valid. When
// it replaced something and the warning was not given yet, warn is set
// (the warning is given now) and i is the index of the first byte
// replaced. A decoder passes each unit of its input through Fix before
// decoding it, so that what it keeps verbatim (raw JSON) is valid too.
// Most units are ASCII: one look at their words (jsontext.IsASCII,
// inlined here) answers for them.
func (o *Once) Fix(b []byte) (out []byte, i int, warn bool) {
	if jsontext.IsASCII(b) {
		return b, 0, false
	}
	return o.fix(b)
}

// fix is Fix for b with a byte outside ASCII.
func (o *Once) fix(b []byte) (out []byte, i int, warn bool) {
	if Valid(b) {
		return b, 0, false
	}
	i = FirstInvalid(b)
	out = Replace(b)
	warn = !o.warned
	o.warned = true
	return out, i, warn
}

// Replace returns b with every byte that does not belong to a valid UTF-8
// sequence replaced by U+FFFD, each on its own (strings.ToValidUTF8
// replaces a run with one), so that the result does not depend on where
// the input was cut. It returns b itself when b is valid.
func Replace(b []byte) []byte {
	if Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}
