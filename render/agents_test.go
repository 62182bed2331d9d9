package render

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

func TestAgentFilter(t *testing.T) {
	t.Parallel()
	evs := []event.Event{
		&event.Delta{Agent: "sub-1", Kind: event.Text, Text: "x"},
		&event.SessionStart{Agent: "main-a"},
		&event.Delta{Agent: "main-a", Kind: event.Text, Text: "y"},
		&event.Delta{Agent: "main-a", Kind: event.Text, Text: "z"},
		&event.SessionStart{Agent: "sub-2", ParentAgent: "main-a"},
		&event.Delta{Agent: "sub-1", Kind: event.Text, Text: "w"},
	}
	type result struct {
		Matched bool
		Shows   []string
	}
	tests := []struct {
		want string
		res  result
	}{
		{"", result{true, []string{"sub-1", "main-a", "sub-2"}}},
		{"all", result{true, []string{"sub-1", "main-a", "sub-2"}}},
		{"main", result{true, []string{"main-a"}}},
		{"sub", result{true, []string{"sub-1", "sub-2"}}},
		{"sub-2", result{true, []string{"sub-2"}}},
		{"nobody", result{false, nil}},
	}
	for _, tt := range tests {
		f := NewAgentFilter(tt.want)
		for _, ev := range evs {
			f.Event(ev)
		}
		got := result{Matched: f.Matched()}
		for _, id := range f.Seen() {
			if f.Shows(id) {
				got.Shows = append(got.Shows, id)
			}
		}
		if diff := cmp.Diff(tt.res, got); diff != "" {
			t.Errorf("--agent %q (-want +got):\n%s", tt.want, diff)
		}
		if diff := cmp.Diff([]string{"sub-1", "main-a", "sub-2"}, f.Seen()); diff != "" {
			t.Errorf("--agent %q: Seen (-want +got):\n%s", tt.want, diff)
		}
	}
}

// TestAgentFilterCap: the ids remembered stop at maxSeen, and a match
// beyond them still counts.
func TestAgentFilterCap(t *testing.T) {
	t.Parallel()
	f := NewAgentFilter("late")
	for i := range 3 * maxSeen {
		f.Event(&event.Delta{Agent: fmt.Sprint("agent-", i), Kind: event.Text})
	}
	if f.Matched() {
		t.Error("matched before the agent came")
	}
	f.Event(&event.Delta{Agent: "late-agent", Kind: event.Text})
	if !f.Matched() {
		t.Error("an agent past the cap did not match")
	}
	if got := len(f.Seen()); got != maxSeen {
		t.Errorf("remembers %d ids, want %d", got, maxSeen)
	}
	if got := len(f.known); got != maxSeen {
		t.Errorf("set holds %d ids, want %d", got, maxSeen)
	}
}
