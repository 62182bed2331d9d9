// Package logline holds what the decoders of the session logs agent CLIs
// keep on disk (parse/claudesession, parse/codexsession) share: reading an
// NDJSON log that may still be being written, and handing out a line's
// events and problems in order, with the session's start held until the
// lines have said enough about it.
package logline

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// Lines reads the lines of a log. Line and Offset are the position of the
// line last returned; Last reports whether that line has no terminator
// (it ends where the input ends, and may be cut off: the log is still
// being written).
type Lines struct {
	Source string
	Line   int
	Offset int64
	Last   bool
	count  *counter
	lines  *frame.Lines
}

// NewLines returns a line reader over r; max caps one line.
func NewLines(r io.Reader, source string, max int) *Lines {
	c := &counter{r: r}
	return &Lines{Source: source, count: c, lines: frame.NewLines(c, source, max)}
}

// Next returns the next line that is not blank, trimmed of white space,
// valid until the next call; io.EOF at the end; a *event.ParseError for a
// line over the cap (Next may be called again); any other error is the
// reader's.
func (l *Lines) Next() ([]byte, error) {
	for {
		raw, num, off, err := l.lines.Next()
		if err == io.EOF {
			return nil, err // the position stays the last line's
		}
		l.Line, l.Offset = num, off
		if err != nil {
			return nil, err
		}
		// A line that ends where the input read so far ends has no
		// terminator.
		l.Last = l.count.n == off+int64(len(raw))
		if raw = bytes.TrimSpace(raw); len(raw) > 0 {
			return raw, nil
		}
	}
}

// Errorf returns a problem at the line last returned.
func (l *Lines) Errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: l.Source, Line: l.Line, Column: 1, Offset: l.Offset,
		Err: event.Errorf(sentinel, format, args...),
	}
}

// Mistyped is a line with a field of an unexpected type, which the
// decoder keeps (as an event.Unknown): its type field, and what is wrong.
type Mistyped struct {
	Type, Problem string
}

// Unmarshal decodes raw, the line last returned, into v as json.Unmarshal
// does. cut is true when raw is no JSON object but the last line of a log
// still being written (not whole yet: nothing to report); err is the
// problem of a line that is no JSON object; m is set for a JSON object
// with a field of an unexpected type.
func (l *Lines) Unmarshal(raw []byte, v any) (m *Mistyped, cut bool, err error) {
	uerr := json.Unmarshal(raw, v)
	if uerr == nil {
		return nil, false, nil
	}
	var te *json.UnmarshalTypeError
	if !errors.As(uerr, &te) || raw[0] != '{' {
		if l.Last {
			return nil, true, nil
		}
		return nil, false, l.Errorf(event.ErrSyntax, "not a JSON object: %s", jsontext.Problem(uerr))
	}
	var head struct {
		Type any `json:"type"`
	}
	json.Unmarshal(raw, &head)
	typ, _ := head.Type.(string)
	return &Mistyped{Type: typ, Problem: jsontext.Problem(uerr)}, false, nil
}

// Truncated is the problem of a log whose last line, the one last
// returned, is cut off.
func (l *Lines) Truncated() *event.ParseError {
	return &event.ParseError{
		Source: l.Source, Line: l.Line, Column: 1, Offset: l.Offset,
		Err: event.Errorf(event.ErrTruncated, "log ends inside line %d (still being written?)", l.Line),
	}
}

// Out is a decoder's output: events in order, then the problems of the
// line that made them. While a session start is held, events wait behind
// it.
type Out struct {
	queue    []event.Event
	problems []error
	start    *event.SessionStart
	held     []event.Event
	returned int
	err      error // sticky: a read error, or io.EOF once finished
	done     bool  // the input has ended
}

// Emit adds an event, behind the held start if there is one.
func (o *Out) Emit(ev event.Event) {
	if o.start != nil {
		o.held = append(o.held, ev)
		return
	}
	o.queue = append(o.queue, ev)
}

// Problem adds a problem, handed out after the events before it.
func (o *Out) Problem(err error) { o.problems = append(o.problems, err) }

// Hold makes s the held start: the events emitted from now on wait
// behind it until Release.
func (o *Out) Hold(s *event.SessionStart) {
	o.Release()
	o.start = s
}

// Held returns the held start, or nil.
func (o *Out) Held() *event.SessionStart { return o.start }

// Behind returns the events held behind the start.
func (o *Out) Behind() []event.Event { return o.held }

// Release lets the held start go, and the events behind it.
func (o *Out) Release() {
	if o.start == nil {
		return
	}
	o.queue = append(o.queue, o.start)
	o.queue = append(o.queue, o.held...)
	o.start, o.held = nil, nil
}

// Pending is the number of events queued and not yet handed out.
func (o *Out) Pending() int { return len(o.queue) }

// Returned is the number of events handed out so far.
func (o *Out) Returned() int { return o.returned }

// Empty reports whether there is nothing to hand out.
func (o *Out) Empty() bool { return len(o.queue) == 0 && len(o.problems) == 0 }

// Pop hands out the next event, or else the next problem. It must not be
// called when Empty.
func (o *Out) Pop() (event.Event, error) {
	if len(o.queue) > 0 {
		ev := o.queue[0]
		o.queue[0] = nil
		o.queue = o.queue[1:]
		o.returned++
		return ev, nil
	}
	err := o.problems[0]
	o.problems[0] = nil
	o.problems = o.problems[1:]
	return nil, err
}

// Step is one turn of a decoder's Next loop: it hands out (ok) what is
// queued, else the sticky error; at the end of the input it calls
// finish once and makes io.EOF sticky; otherwise it reads the next line of
// l and decodes it, queuing the problem decode returns. When ok is false
// the caller loops.
func (o *Out) Step(l *Lines, decode func([]byte) error, finish func()) (ok bool, ev event.Event, err error) {
	switch {
	case !o.Empty():
		ev, err = o.Pop()
		return true, ev, err
	case o.err != nil:
		return true, nil, o.err
	case o.done:
		o.err = io.EOF
		finish()
		return false, nil, nil
	}
	raw, err := l.Next()
	var perr *event.ParseError
	switch {
	case err == io.EOF:
		o.done = true
	case errors.As(err, &perr):
		o.Problem(err)
	case err != nil:
		o.err = err
	default:
		if err := decode(raw); err != nil {
			o.Problem(err)
		}
	}
	return false, nil, nil
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
