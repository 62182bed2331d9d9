package convert

import (
	"bufio"
	"errors"
	"io"

	"github.com/agentstream/agentstream/format"
)

// sniffLimit is how much of an input detection looks at, at most.
const sniffLimit = 64 << 10

// Detect's errors.
var (
	// ErrUnknownFormat is returned when no format accepts the input.
	ErrUnknownFormat = errors.New("cannot detect the input format")
	// ErrEmpty is returned for an input that holds nothing but white
	// space: no format is guessed for it.
	ErrEmpty = errors.New("the input is empty")
)

// Detect reads the first unit of br (the first SSE message or line, never
// more than it needs, so a live pipe is not held up) and returns the format
// it is in. The bytes stay in br for the decoder. guessed is true when the
// choice is a guess rather than a match: a format whose Detect is marked
// Guess. An input with nothing but white space is ErrEmpty.
func Detect(br *bufio.Reader) (f Format, guessed bool, err error) {
	h, err := head(br)
	if err != nil {
		return Format{}, false, err
	}
	for _, f := range formats {
		if f.Detect != nil && f.NewDecoder != nil && f.Detect(h) {
			return f, f.Guess, nil
		}
	}
	what, _ := format.SniffText(h.Payload, true)
	return Format{}, false, &UnknownError{Looks: what}
}

// UnknownError is Detect's error for an input no format accepts. It is
// ErrUnknownFormat (errors.Is).
type UnknownError struct {
	// Looks says what the input is instead, when detection can tell:
	// "an HTML document" or "binary data" (format.SniffText); "" otherwise.
	Looks string
}

func (e *UnknownError) Error() string {
	if e.Looks != "" {
		return ErrUnknownFormat.Error() + ": it looks like " + e.Looks
	}
	return ErrUnknownFormat.Error()
}

// Is makes an UnknownError ErrUnknownFormat.
func (e *UnknownError) Is(target error) bool { return target == ErrUnknownFormat }

// Accepts reports whether f's Detect accepts the first unit of br (read as
// Detect does; the bytes stay in br). It is false for a format without
// Detect and for an input Detect could not read.
func Accepts(br *bufio.Reader, f Format) bool {
	h, err := head(br)
	return err == nil && f.Detect != nil && f.Detect(h)
}

// head sniffs the first unit of br.
func head(br *bufio.Reader) (format.Head, error) {
	var h format.Head
	for n := 1; ; n = br.Buffered() + 1 {
		_, err := br.Peek(n)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return h, err // unreadable (a directory, say)
		}
		prefix, _ := br.Peek(br.Buffered())
		atEOF := err != nil || len(prefix) >= sniffLimit || br.Buffered() == br.Size()
		var ok bool
		h, ok = format.Sniff(prefix, atEOF)
		if ok {
			break
		}
		if err != nil && err != io.EOF {
			return h, err
		}
	}
	if h.Payload == nil && !h.SSE {
		return h, ErrEmpty
	}
	return h, nil
}
