package event

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Decoder reads events from one wire format.
//
// Next returns the next event, or io.EOF at a clean end of the stream. A
// *ParseError reports bad input the decoder skipped: the caller may report it
// and call Next again, which carries on with what is intact. A ParseError
// wrapping ErrTruncated is the last thing a decoder returns before io.EOF.
// Any other error is fatal and sticky (an I/O error, say).
// A decoder never closes its reader.
type Decoder interface {
	Next() (Event, error)
}

// Encoder writes events in one wire format. Encode writes everything the
// event completes (an encoder may hold back what it cannot write yet, such
// as a block it must see whole). Close writes what the format needs at the
// end of the stream; it does not close the underlying writer. Close
// reports blocks left open with an error wrapping ErrTruncated, after
// writing what it could.
type Encoder interface {
	Encode(Event) error
	Close() error
}

// Cutter is an Encoder that can end a stream whose input was cut off (the
// decoder returned a ParseError wrapping ErrTruncated). Cut is called
// instead of Close: it writes what arrived and is still held, but no end
// marker and no end of the response being written (no [DONE],
// message_stop, finish_reason, response.completed, turn.completed or
// result line that the input did not have), so that the output is as cut
// as its input. It returns an error wrapping ErrTruncated.
type Cutter interface {
	Cut() error
}

// End ends enc after its input: Close when the input ended as its format
// ends, Cut (or nothing, for an encoder without Cut) when it was cut off.
func End(enc Encoder, cut bool) error {
	if !cut {
		return enc.Close()
	}
	if c, ok := enc.(Cutter); ok {
		return c.Cut()
	}
	return nil
}

// Sentinel causes wrapped by ParseError.
var (
	// ErrTruncated: the stream ended inside a block.
	ErrTruncated = errors.New("stream truncated")
	// ErrTooLarge: a line, SSE event or block is larger than the cap.
	ErrTooLarge = errors.New("too large")
	// ErrSyntax: input that does not follow the format's grammar.
	ErrSyntax = errors.New("syntax error")
	// ErrWarning: input that was read, but perhaps not as its producer
	// meant (invalid UTF-8 replaced with U+FFFD, an escaping generation
	// guessed). A ParseError wrapping it is a warning, not a problem: the
	// events are complete. Decoders report each kind once per input.
	ErrWarning = errors.New("warning")
	// ErrTooManyOpen: more agents with a block or payload open at once
	// than a decoder keeps state for; it stops following the one open
	// longest, which stays open downstream (truncated).
	ErrTooManyOpen = errors.New("too many agents open at once")
)

// ParseError is a problem in the input at a position.
type ParseError struct {
	Source string // input name: a file name, "-" for stdin, a URL
	Line   int    // 1-based line; 0 if unknown
	Column int    // 1-based column; 0 if unknown
	Offset int64  // byte offset of the problem; -1 if unknown
	Err    error  // cause; wraps one of the sentinels where it applies
}

func (e *ParseError) Error() string {
	src := e.Source
	if src == "" {
		src = "<input>"
	}
	switch {
	case e.Line > 0:
		// A problem of a whole line or unit, with no column of its own,
		// is at the unit's start: column 1.
		return src + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(max(e.Column, 1)) + ": " + e.Err.Error()
	case e.Offset >= 0:
		return src + ": offset " + strconv.FormatInt(e.Offset, 10) + ": " + e.Err.Error()
	}
	return src + ": " + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

// Errorf returns an error that prints as the formatted message and wraps
// sentinel, for use as a ParseError cause.
func Errorf(sentinel error, format string, args ...any) error {
	return &causeError{sentinel: sentinel, msg: fmt.Sprintf(format, args...)}
}

type causeError struct {
	sentinel error
	msg      string
}

func (e *causeError) Error() string { return e.msg }
func (e *causeError) Unwrap() error { return e.sentinel }

// LossError says an encoder could not write some content in its format. It
// is a warning: the conversion goes on.
type LossError struct {
	Format string // the target format
	What   string // what was not written, e.g. "tool result is_error"
}

func (e *LossError) Error() string {
	return e.Format + " cannot carry " + e.What
}

// JSONText returns s as valid JSON text: s itself when it is valid JSON, or
// s encoded as a JSON string otherwise. Decoders use it for tool arguments,
// which must stay valid JSON whatever the producer sent.
func JSONText(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// Losses remembers what an encoder has warned about, so that each kind of
// content it cannot carry is reported once per run. The zero value is
// ready to use.
type Losses struct {
	seen map[string]bool
	last string // the what reported last, reported before: no lookup for a run of one
}

// Report passes &LossError{format, what} to warn the first time what is
// reported. A nil warn discards it.
func (l *Losses) Report(warn func(error), format, what string) {
	if warn == nil || l.seen != nil && what == l.last {
		return
	}
	if l.seen[what] {
		l.last = what
		return
	}
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	l.seen[what] = true
	l.last = what
	warn(&LossError{Format: format, What: what})
}

// DefaultMaxBytes is the default cap on one SSE event, one NDJSON line, and
// one reassembled block: 16 MiB. Large enough for a tool result image as a
// data URI; small enough that one corrupt or hostile message or line
// cannot make a reader hold more than that.
const DefaultMaxBytes = 16 << 20
