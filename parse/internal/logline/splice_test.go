package logline

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// script is a decoder that returns its steps in turn: an event's text, or
// an error.
type script struct {
	name  string
	steps []any
}

func (s *script) Next() (event.Event, error) {
	if len(s.steps) == 0 {
		return nil, io.EOF
	}
	st := s.steps[0]
	s.steps = s.steps[1:]
	if err, ok := st.(error); ok {
		return nil, err
	}
	return &event.Notice{Message: st.(string)}, nil
}

type closer struct {
	name   string
	closed *[]string
}

func (c closer) Close() error { *c.closed = append(*c.closed, c.name); return nil }

// TestSplices: a splice comes out once the output has returned what was
// queued before it, to its end; two added at one place come one after the
// other; a problem of a splice is returned and it goes on; a read error
// ends it with failed's problem.
func TestSplices(t *testing.T) {
	t.Parallel()
	problem := &event.ParseError{Source: "b", Line: 1, Column: 1, Err: event.Errorf(event.ErrSyntax, "bad line")}
	var o Out
	var s Splices
	var closed []string
	o.Emit(&event.Notice{Message: "p1"})
	s.Add(&o, &script{"a", []any{"a1", "a2"}}, closer{"a", &closed})
	s.Add(&o, &script{"b", []any{"b1", problem, errors.New("disk gone"), "never"}}, closer{"b", &closed})
	o.Emit(&event.Notice{Message: "p2"})
	failed := func(dec event.Decoder, err error) error {
		return fmt.Errorf("reading %s: %v", dec.(*script).name, err)
	}
	var got []string
	for {
		ev, ok, err := s.Next(&o, failed)
		if !ok {
			if o.Empty() {
				break
			}
			ev, err = o.Pop()
		}
		switch {
		case err != nil:
			got = append(got, err.Error())
		default:
			got = append(got, ev.(*event.Notice).Message)
		}
	}
	want := []string{"p1", "a1", "a2", "b1", "b:1:1: bad line", "reading b: disk gone", "p2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b"}, closed); diff != "" {
		t.Errorf("closed (-want +got):\n%s", diff)
	}
}
