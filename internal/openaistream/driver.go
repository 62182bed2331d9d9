package openaistream

import (
	"errors"
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
)

// Driver runs the read loop the OpenAI decoders share: it pulls SSE
// messages, hands each to Decode, and returns what Decode emitted before
// the problem the message had, following the event.Decoder contract (a
// truncation is the last thing before io.EOF).
type Driver struct {
	Source string
	SSE    *frame.SSE
	// Decode handles one SSE message, its event type typ and its data,
	// borrowed until it returns: it emits events with Emit and returns
	// the message's problem, if any.
	Decode func(typ string, data []byte) error
	// Truncation flushes what the end of the input left open and returns
	// the problem to report then (Cut when nothing is open), or nil.
	Truncation func() error
	// More, when set, goes on with the message decoded last: it is
	// called when what was emitted has been returned, before the next
	// message is read, and reports whether it emitted more or has more
	// to do, and the message's problem once it is done (a message too
	// large to turn into events at once, in pieces).
	More func() (more bool, problem error)
	// Line and Off are the position of the message being decoded.
	Line int
	Off  int64

	queue   []event.Event
	head    int // queue[head:] are still to return
	problem error
	done    bool
	cut     error
	err     error
}

// NewDriver returns the driver of a decoder reading SSE from r, named
// source. It sets *maxEventBytes, the decoder's cap on one SSE message, to
// event.DefaultMaxBytes when it is not positive.
func NewDriver(r io.Reader, source string, maxEventBytes *int, decode func(typ string, data []byte) error, truncation func() error) Driver {
	if *maxEventBytes <= 0 {
		*maxEventBytes = event.DefaultMaxBytes
	}
	return Driver{
		Source: source, SSE: frame.NewSSE(r, source, *maxEventBytes),
		Decode: decode, Truncation: truncation,
	}
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Driver) Next() (event.Event, error) {
	for {
		if d.head < len(d.queue) {
			ev := d.queue[d.head]
			d.queue[d.head] = nil
			d.head++
			if d.head == len(d.queue) {
				d.queue, d.head = d.queue[:0], 0 // reused: no allocation per message
			}
			return ev, nil
		}
		if d.problem != nil {
			err := d.problem
			d.problem = nil
			return nil, err
		}
		if d.More != nil {
			more, problem := d.More()
			if problem != nil {
				d.problem = problem
			}
			if more || problem != nil {
				continue
			}
		}
		if d.err != nil {
			return nil, d.err
		}
		if d.done {
			d.err = io.EOF
			d.problem = d.Truncation()
			continue
		}
		data, typ, err := d.SSE.NextData()
		if err == nil {
			d.Line, d.Off = d.SSE.Pos()
			if err := d.Decode(typ, data); err != nil {
				d.problem = err
			}
			continue
		}
		var perr *event.ParseError
		switch {
		case err == io.EOF:
			d.done = true
		case errors.As(err, &perr) && errors.Is(err, event.ErrTruncated):
			// The input ended inside an SSE message: what it held is
			// lost; the truncation is reported after what is flushed.
			d.done, d.cut = true, err
		case errors.As(err, &perr):
			d.problem = err
		default:
			d.err = err
		}
	}
}

// Queued returns how many events wait to be returned.
func (d *Driver) Queued() int { return len(d.queue) - d.head }

// Emit queues an event.
func (d *Driver) Emit(ev event.Event) { d.queue = append(d.queue, ev) }

// Stop ends the input after the message being decoded ([DONE] with
// StopAtDone).
func (d *Driver) Stop() { d.done = true }

// Cut returns the framer's report of an input cut inside an SSE message,
// or nil.
func (d *Driver) Cut() error { return d.cut }

// Errorf returns a problem at the message being decoded.
func (d *Driver) Errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: d.Source, Line: d.Line, Column: 1, Offset: d.Off,
		Err: event.Errorf(sentinel, format, args...),
	}
}

// Truncated returns the truncation problem at the last message.
func (d *Driver) Truncated(format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: d.Source, Line: d.Line, Column: 1, Offset: d.Off,
		Err: event.Errorf(event.ErrTruncated, format, args...),
	}
}

// Messages calls f with each SSE message of r, its data borrowed until
// f returns, for a format's Checker: what the framer reports as a
// problem is skipped (the decoder reports it), and reading stops at the
// end of r or at a read error.
func Messages(r io.Reader, c *format.CheckConfig, f func(frame.RawMessage)) {
	for m := range frame.NewSSE(r, c.Source, c.MaxEventBytes).Messages() {
		f(m)
	}
}
