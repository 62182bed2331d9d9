// Package decoderstate is the part of a decoder's Next that every format
// shares: the events a piece of input produced come out first, then the
// problems it caused, then a sticky error; once the input has ended, the
// decoder's truncation (events it flushes, then the problem) and io.EOF for
// good. A decoder keeps a State, reads one unit of input per call of its
// read function, and queues what it makes with Emit, Problem, Fail and End.
package decoderstate

import (
	"io"
	"slices"

	"github.com/agentstream/agentstream/event"
)

// State is what a decoder has made and not yet returned. The zero value is
// ready to use.
type State struct {
	queue    []event.Event
	problems []error
	err      error
	done     bool
}

// Emit queues events.
func (s *State) Emit(evs ...event.Event) { s.queue = append(s.queue, evs...) }

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

// Next returns the decoder's next event or error: a queued event, else a
// queued problem, else the sticky error. With nothing queued it calls read
// to decode one more unit of input, and once the input has ended it calls
// finish, whose events are queued before its problem (nil when the input
// ended cleanly), and then returns io.EOF for good.
func (s *State) Next(read func(), finish func() error) (event.Event, error) {
	for {
		if len(s.queue) > 0 {
			ev := s.queue[0]
			s.queue = slices.Delete(s.queue, 0, 1) // keeps the array: no allocation per event
			return ev, nil
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
