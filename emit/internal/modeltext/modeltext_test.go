package modeltext

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestLosses: each kind of loss is reported once, events of a second
// agent are refused, and the events a text protocol writes are not
// called unwritten.
func TestLosses(t *testing.T) {
	t.Parallel()
	var got []string
	l := Losses{Format: "p", Warn: func(err error) { got = append(got, err.Error()) }}
	var skipped, unwritten []bool
	for _, ev := range []event.Event{
		&event.Delta{Agent: "a", Kind: event.Text, Text: "x"},
		&event.Citations{Agent: "a"},
		&event.Citations{Agent: "a"},
		&event.Delta{Agent: "b", Kind: event.Text, Text: "y"},
		&event.TurnEnd{Agent: "a"},
	} {
		other := l.OtherAgent(ev)
		skipped = append(skipped, other)
		if !other {
			unwritten = append(unwritten, l.Unwritten(ev))
		}
	}
	want := []string{
		(&event.LossError{Format: "p", What: "citations"}).Error(),
		(&event.LossError{Format: "p", What: "the events of other agents (only the first agent's are written)"}).Error(),
		(&event.LossError{Format: "p", What: "turn boundaries and usage"}).Error(),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{false, false, false, true, false}, skipped); diff != "" {
		t.Errorf("other agent (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{false, true, true, true}, unwritten); diff != "" {
		t.Errorf("unwritten (-want +got):\n%s", diff)
	}
}
