package assemble_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
)

// TestMaxOpen: beyond MaxOpen, the block opened longest ago is closed
// early, marked truncated, and Add reports it once; nothing is lost.
func TestMaxOpen(t *testing.T) {
	t.Parallel()
	a := assemble.New(0)
	a.MaxOpen = 3
	var got []*assemble.Block
	var errs []error
	add := func(ev event.Event) {
		bs, err := a.Add(ev)
		got = append(got, bs...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, agent := range []string{"a", "b", "c", "d", "e"} {
		add(&event.Delta{Agent: agent, Kind: event.Text, Text: agent})
	}
	add(&event.BlockEnd{Agent: "e", Kind: event.Text})
	got = append(got, a.Flush()...)
	want := []*assemble.Block{
		{Agent: "a", Type: "text", Text: "a", Truncated: true},
		{Agent: "b", Type: "text", Text: "b", Truncated: true},
		{Agent: "e", Type: "text", Text: "e"},
		{Agent: "c", Type: "text", Text: "c", Truncated: true},
		{Agent: "d", Type: "text", Text: "d", Truncated: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
	if len(errs) != 1 || !errors.Is(errs[0], assemble.ErrTooManyOpen) || !strings.Contains(errs[0].Error(), "more than 3") {
		t.Errorf("errors %v, want one ErrTooManyOpen naming the cap", errs)
	}
}

// TestMaxOpenHeld: text blocks held for citations count too: many agents
// that each end a text block do not pile up.
func TestMaxOpenHeld(t *testing.T) {
	t.Parallel()
	a := assemble.New(0)
	n := 3 * assemble.DefaultMaxOpen
	emitted := 0
	for i := range n {
		agent := fmt.Sprint(i)
		for _, ev := range []event.Event{
			&event.Delta{Agent: agent, Kind: event.Text, Text: "x"},
			&event.BlockEnd{Agent: agent, Kind: event.Text},
		} {
			bs, _ := a.Add(ev)
			emitted += len(bs)
		}
	}
	left := len(a.Flush())
	if left > assemble.DefaultMaxOpen {
		t.Errorf("%d blocks held at the end, want at most %d", left, assemble.DefaultMaxOpen)
	}
	if emitted+left != n {
		t.Errorf("%d blocks in all, want %d", emitted+left, n)
	}
}

// TestSubagentsDoNotPileUp: a stream of many runs, each with a subagent
// that ends with a text block and no event after it, holds no more than
// one run's blocks: each is let go when its parent goes on, so MaxOpen is
// never reached; also when the parent has an event of its own (a progress
// notice) while its subagent runs.
func TestSubagentsDoNotPileUp(t *testing.T) {
	t.Parallel()
	for _, notice := range []bool{false, true} {
		a := assemble.New(0)
		a.MaxOpen = 4
		for i := range 3 * a.MaxOpen {
			p, c := fmt.Sprint("p", i), fmt.Sprint("c", i)
			evs := []event.Event{
				&event.SessionStart{Agent: p},
				&event.ToolCall{Agent: p, ID: "t"},
				&event.SessionStart{Agent: c, ParentAgent: p},
			}
			if notice {
				evs = append(evs, &event.Notice{Agent: p, Message: "running"})
			}
			evs = append(evs,
				&event.Delta{Agent: c, Kind: event.Text, Text: "done"},
				&event.BlockEnd{Agent: c, Kind: event.Text},
				&event.ToolResult{Agent: p, ID: "t"},
				&event.RunEnd{Agent: p},
			)
			for _, ev := range evs {
				bs, err := a.Add(ev)
				if err != nil {
					t.Fatalf("notice %v, run %d: %v", notice, i, err)
				}
				if _, ok := ev.(*event.ToolResult); ok && (len(bs) != 2 || bs[0].Agent != c || bs[0].Type != assemble.TypeText) {
					t.Fatalf("notice %v, run %d: the parent's tool result gave %d blocks, want the subagent's text block then the result", notice, i, len(bs))
				}
			}
		}
		if left := a.Flush(); len(left) != 0 {
			t.Errorf("notice %v: %d blocks left at the end, want none", notice, len(left))
		}
	}
}

// TestSubagentsRemembered: only the last MaxOpen subagents' parents are
// kept; an older subagent's held block waits for Flush, and nothing is
// lost or written twice.
func TestSubagentsRemembered(t *testing.T) {
	t.Parallel()
	a := assemble.New(0)
	a.MaxOpen = 4
	var got int
	add := func(ev event.Event) {
		bs, _ := a.Add(ev)
		got += len(bs)
	}
	add(&event.SessionStart{Agent: "p"})
	for i := range 10 {
		c := fmt.Sprint("c", i)
		add(&event.SessionStart{Agent: c, ParentAgent: "q"})
		add(&event.Delta{Agent: c, Kind: event.Text, Text: "x"})
		add(&event.BlockEnd{Agent: c, Kind: event.Text})
	}
	add(&event.ToolResult{Agent: "q", ID: "t"})
	got += len(a.Flush())
	// p's and the ten subagents' session starts, ten text blocks, the result.
	if want := 1 + 10 + 10 + 1; got != want {
		t.Errorf("%d blocks, want %d", got, want)
	}
}

// TestOpenLimit: the limit counts blocks between their start and end (or
// their cut), per agent and kind, and refuses the one beyond it.
func TestOpenLimit(t *testing.T) {
	t.Parallel()
	l := assemble.NewOpenLimit(2)
	steps := []struct {
		ev      event.Event
		wantErr bool
	}{
		{&event.BlockStart{Agent: "a", Kind: event.Text}, false},
		{&event.Delta{Agent: "a", Kind: event.Text, Text: "x"}, false},
		{&event.Delta{Agent: "a", Kind: event.Thinking, Text: "y"}, false},
		{&event.Delta{Agent: "b", Kind: event.Text, Text: "z"}, true},
		{&event.BlockEnd{Agent: "a", Kind: event.Text}, false},
		{&event.Delta{Agent: "b", Kind: event.Text, Text: "z"}, false},
		{&event.ToolCall{Agent: "c", ID: "t"}, false},
		{&event.BlockStart{Agent: "b", Kind: event.Text}, false},
		{&event.Delta{Agent: "c", Kind: event.Text, Text: "w"}, true},
		// An error ends its agent's blocks, an abandon gives them up.
		{&event.Error{Agent: "a", Message: "boom"}, false},
		{&event.Delta{Agent: "c", Kind: event.Text, Text: "w"}, false},
		{&event.Delta{Agent: "d", Kind: event.Text, Text: "v"}, true},
		{&event.Notice{Agent: "c", Kind: event.NoticeAbandoned}, false},
		{&event.Delta{Agent: "d", Kind: event.Text, Text: "v"}, false},
	}
	for i, s := range steps {
		err := l.Add(s.ev)
		if (err != nil) != s.wantErr || (err != nil && !errors.Is(err, assemble.ErrTooManyOpen)) {
			t.Errorf("step %d: error %v, want one: %v", i, err, s.wantErr)
		}
	}
}
