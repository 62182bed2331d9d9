// Package decoderstate is the part of a decoder's Next that every format
// shares: the events a piece of input produced come out first, then the
// problems it caused, then a sticky error; once the input has ended, the
// decoder's truncation (events it flushes, then the problem) and io.EOF for
// good. A decoder keeps a State, reads one unit of input per call of its
// read function, and queues what it makes with Emit, Problem, Fail and End
// (or ProblemHere, for a problem that must come out among the unit's events).
package decoderstate

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/event"
)

// State is what a decoder has made and not yet returned. The zero value is
// ready to use.
type State struct {
	// first is the event queued first, when it was queued with nothing
	// before it, returned before queue: most units make one event or
	// two, which then do not go through queue.
	first    event.Event
	queue    []item
	head     int // queue[head:] is yet to be returned
	problems []error
	err      error
	done     bool
}

// item is a queued event, or a problem queued by ProblemHere.
type item struct {
	ev  event.Event
	err error
}

// Emit queues events.
func (s *State) Emit(evs ...event.Event) {
	for _, ev := range evs {
		if s.first == nil && len(s.queue) == 0 {
			s.first = ev
			continue
		}
		s.queue = append(s.queue, item{ev: ev})
	}
}

// ProblemHere queues a problem returned right after the events queued so
// far and before those queued after it, for a decoder whose unit of input
// holds many events and problems in their order (a scanner over a chunk
// of text). A nil err is ignored.
func (s *State) ProblemHere(err error) {
	if err != nil {
		s.queue = append(s.queue, item{err: err})
	}
}

// Problem queues a problem in the input (a *event.ParseError), returned
// after the events queued before the next read. A nil err is ignored.
func (s *State) Problem(err error) {
	if err != nil {
		s.problems = append(s.problems, err)
	}
}

// Fail makes err (a read error) the decoder's answer from now on, once
// what is queued is out.
func (s *State) Fail(err error) { s.err = err }

// End notes that the input has ended.
func (s *State) End() { s.done = true }

// Idle reports whether Next would read: nothing is queued, no problem,
// error or end is pending.
func (s *State) Idle() bool {
	return s.first == nil && len(s.queue) == 0 && len(s.problems) == 0 && s.err == nil && !s.done
}

// Next returns the decoder's next event or error: a queued event, else a
// queued problem, else the sticky error. With nothing queued it calls read
// to decode one more unit of input, and once the input has ended it calls
// finish, whose events are queued before its problem (nil when the input
// ended cleanly), and then returns io.EOF for good.
func (s *State) Next(read func(), finish func() error) (event.Event, error) {
	for {
		if ev := s.first; ev != nil {
			s.first = nil
			return ev, nil
		}
		if s.head < len(s.queue) {
			it := s.queue[s.head]
			s.queue[s.head] = item{}
			s.head++
			if s.head == len(s.queue) {
				// keeps the array: no allocation per event, and no
				// copy of the rest of a long queue per event
				s.queue, s.head = s.queue[:0], 0
			}
			if it.err != nil {
				return nil, it.err
			}
			return it.ev, nil
		}
		if len(s.problems) > 0 {
			err := s.problems[0]
			s.problems[0] = nil
			s.problems = s.problems[1:]
			return nil, err
		}
		if s.err != nil {
			return nil, s.err
		}
		if s.done {
			s.err = io.EOF
			s.Problem(finish())
			continue
		}
		read()
	}
}

// Payload returns a copy of p, a value of a line the decoder read whole,
// and its note: valid JSON; compact too when the line was (compact: the
// reader skipped no white space in it, jsontext.Reader.Spaced).
func Payload(p []byte, compact bool) (json.RawMessage, event.Checked) {
	c := bytes.Clone(p)
	return c, Note(c, compact)
}

// Note returns the note of p, a value of a line the decoder read whole:
// valid JSON; compact too when the line was.
func Note(p []byte, compact bool) event.Checked {
	if compact {
		return event.CompactJSON(p)
	}
	return event.ValidJSON(p)
}
