package decoderstate

import (
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestOrder: a unit's events come before its problem; at the end the
// truncation's events, then its problem, then io.EOF for good; a read
// error is sticky.
func TestOrder(t *testing.T) {
	t.Parallel()
	bad := errors.New("bad unit")
	cut := errors.New("cut")
	boom := errors.New("boom")
	here := errors.New("here")
	ev := func(s string) event.Event { return &event.Notice{Message: s} }
	tests := []struct {
		name  string
		units []func(s *State)
		want  []string
	}{
		{"clean", []func(s *State){
			func(s *State) { s.Emit(ev("a"), ev("b")); s.Problem(bad) },
			func(s *State) { s.Emit(ev("c")) },
			func(s *State) { s.End() },
		}, []string{"a", "b", "bad unit", "c", "flushed", "cut", "EOF", "EOF"}},
		{"problem here", []func(s *State){
			func(s *State) { s.Emit(ev("a")); s.Problem(bad); s.ProblemHere(here); s.Emit(ev("b")) },
			func(s *State) { s.ProblemHere(nil); s.Emit(ev("c")); s.End() },
		}, []string{"a", "here", "b", "bad unit", "c", "flushed", "cut", "EOF"}},
		{"problem here first", []func(s *State){
			func(s *State) { s.ProblemHere(here); s.Emit(ev("a"), ev("b")) },
			func(s *State) { s.Emit(ev("c")); s.ProblemHere(here); s.Emit(ev("d")); s.End() },
		}, []string{"here", "a", "b", "c", "here", "d", "flushed", "cut", "EOF"}},
		{"read error", []func(s *State){
			func(s *State) { s.Emit(ev("a")); s.Fail(boom) },
		}, []string{"a", "boom", "boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var s State
			units := tt.units
			read := func() {
				units[0](&s)
				units = units[1:]
			}
			finish := func() error { s.Emit(ev("flushed")); return cut }
			var got []string
			for range tt.want {
				e, err := s.Next(read, finish)
				switch {
				case err == io.EOF:
					got = append(got, "EOF")
				case err != nil:
					got = append(got, err.Error())
				default:
					got = append(got, e.(*event.Notice).Message)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestIdle: Idle is true exactly when Next would read: nothing queued,
// no problem, error or end pending.
func TestIdle(t *testing.T) {
	t.Parallel()
	read := func() { t.Fatal("Next read while not idle") }
	finish := func() error { return nil }
	steps := []struct {
		name string
		do   func(s *State)
		want bool
	}{
		{"new", func(*State) {}, true},
		{"emitted", func(s *State) { s.Emit(&event.Notice{}) }, false},
		{"event returned", func(s *State) { _, _ = s.Next(read, finish) }, true},
		{"nil problem", func(s *State) { s.Problem(nil) }, true},
		{"problem", func(s *State) { s.Problem(errors.New("p")) }, false},
		{"problem returned", func(s *State) { _, _ = s.Next(read, finish) }, true},
		{"problem here", func(s *State) { s.ProblemHere(errors.New("h")) }, false},
		{"problem here returned", func(s *State) { _, _ = s.Next(read, finish) }, true},
		{"ended", func(s *State) { s.End() }, false},
	}
	var s State
	for _, st := range steps {
		st.do(&s)
		if got := s.Idle(); got != st.want {
			t.Errorf("%s: Idle() = %v, want %v", st.name, got, st.want)
		}
	}
	var f State
	if f.Fail(errors.New("f")); f.Idle() {
		t.Error("failed: Idle() = true, want false")
	}
}
