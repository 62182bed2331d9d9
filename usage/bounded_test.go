package usage

import (
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// TestBoundedState feeds a Counter hostile streams, generated event by
// event, and counts the entries it holds: agents that only stream content
// and turns left open cost nothing past a cap.
func TestBoundedState(t *testing.T) {
	tests := []struct {
		name   string
		events func(a string) []event.Event
	}{
		{"one delta each of N agents", func(a string) []event.Event {
			return []event.Event{&event.Delta{Agent: a, Kind: event.Text, Text: "x"}}
		}},
		{"N agents each with a turn of a model open", func(a string) []event.Event {
			return []event.Event{&event.TurnStart{Agent: a, Model: "m"}, &event.Delta{Agent: a, Kind: event.Text, Text: "x"}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewCounter()
			peak := 0
			for i := range boundedN {
				for _, ev := range tt.events("a" + strconv.Itoa(i)) {
					c.Add(ev)
				}
				peak = max(peak, c.held())
			}
			if limit := 2*MaxOpenTurns + 2; peak > limit {
				t.Errorf("the counter held %d entries for %d agents; want at most %d", peak, boundedN, limit)
			}
			if r := c.Run(); r.MainAgent != "a0" || r.Events < boundedN {
				t.Errorf("main agent %q, %d events", r.MainAgent, r.Events)
			}
		})
	}
}

// TestForgottenTurn: the usage of a turn forgotten past the cap counts
// under its agent's model.
func TestForgottenTurn(t *testing.T) {
	c := NewCounter()
	c.Add(&event.SessionStart{Agent: "a0", Model: "agent-model"})
	c.Add(&event.TurnStart{Agent: "a0", Model: "turn-model"})
	for i := 1; i <= MaxOpenTurns; i++ {
		c.Add(&event.TurnStart{Agent: "a" + strconv.Itoa(i), Model: "m"})
	}
	c.Add(&event.TurnEnd{Agent: "a0", MessageID: "m1", Usage: &event.Usage{OutputTokens: 3, Has: event.HasOutput}})
	r := c.Run()
	if len(r.Messages) != 1 || r.Messages[0].Model != "agent-model" {
		t.Errorf("messages %+v, want one of agent-model", r.Messages)
	}
	if n := c.Forgotten(); n != 1 {
		t.Errorf("Forgotten() = %d, want 1", n)
	}
}

// TestBoundedChoices: one chunk of many choices, as the openai-chat
// decoder reads it (issue 31): each choice an agent whose turn of a
// model opens, streams and ends long after, with no usage; the counter
// keeps the models of at most MaxOpenTurns open turns.
func TestBoundedChoices(t *testing.T) {
	const lag = 2 * MaxOpenTurns // turns open at once, past the cap
	choice := func(i int) string { return "choice-" + strconv.Itoa(i) }
	c := NewCounter()
	peak := 0
	for i := range boundedN + lag {
		if i < boundedN {
			a := choice(i)
			c.Add(&event.TurnStart{Agent: a, MessageID: "chatcmpl-1", Model: "m"})
			c.Add(&event.BlockStart{Agent: a, Kind: event.Text})
			c.Add(&event.Delta{Agent: a, Kind: event.Text, Text: "x"})
		}
		if j := i - lag; j >= 0 {
			a := choice(j)
			c.Add(&event.BlockEnd{Agent: a, Kind: event.Text})
			c.Add(&event.TurnEnd{Agent: a, MessageID: "chatcmpl-1", StopReason: "stop"})
		}
		peak = max(peak, c.held())
	}
	if limit := 2*MaxOpenTurns + 2; peak > limit {
		t.Errorf("the counter held %d entries for %d choices; want at most %d", peak, boundedN, limit)
	}
	if n, want := c.Forgotten(), boundedN-MaxOpenTurns; n != want {
		t.Errorf("Forgotten() = %d, want %d", n, want)
	}
	if r := c.Run(); r.Turns != boundedN || len(r.Messages) != 0 {
		t.Errorf("%d turns, %d messages; want a turn for each choice, no usage", r.Turns, len(r.Messages))
	}
}

// held returns the number of entries the counter holds.
func (c *Counter) held() int {
	return len(c.parents) + len(c.order) + len(c.model) + len(c.turn) + c.open.Len() + len(c.msgs) +
		len(c.byID) + len(c.counted) + len(c.ends) + len(c.turnCost) + len(c.byModel)
}
