package messages

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// TestBuilderMaxOpen: beyond maxOpen agents with a message open, the
// message open longest is ended early (its open block closed, its TurnEnd
// saying why), reported once; the builder holds maxOpen messages.
func TestBuilderMaxOpen(t *testing.T) {
	t.Parallel()
	var got []event.Event
	b := NewBuilder(func(ev event.Event) { got = append(got, ev) }, 1<<20)
	var problems []error
	for i := range maxOpen + 2 {
		agent := fmt.Sprintf("a%d", i)
		got = got[:0]
		if err := b.MessageStart(agent, &anthropic.Message{ID: "m" + agent}); err != nil {
			problems = append(problems, err)
		}
		b.BlockStart(agent, 0, json.RawMessage(`{"type":"text","text":""}`))
	}
	if len(problems) != 1 || !errors.Is(problems[0], event.ErrTooManyOpen) {
		t.Fatalf("problems %v, want one wrapping event.ErrTooManyOpen", problems)
	}
	want := []event.Event{ // the last MessageStart: a1 ends early
		&event.TurnStart{Agent: "a1025", MessageID: "ma1025"},
		&event.BlockEnd{Agent: "a1", Kind: event.Text},
		&event.TurnEnd{Agent: "a1", MessageID: "ma1", Error: "ended early: more than 1024 agents with a message open at once"},
		&event.BlockStart{Agent: "a1025", Kind: event.Text},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if n := len(b.Agents()); n != maxOpen {
		t.Errorf("%d agents with a message open, want %d", n, maxOpen)
	}
}
