package htmlview

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// held returns the number of entries the Writer holds per agent and per
// call (its assembler's are capped and tested in package assemble).
func (h *Writer) held() int {
	n := len(h.agents) + h.seen.Len() + len(h.calls) + h.called.Len() + h.waiting.Len()
	for _, a := range h.agents {
		n += len(a.pending)
	}
	return n
}

// TestBoundedState feeds a page hostile streams, generated event by event,
// and counts the entries it holds (every 256 events): a few per agent and per call, for at
// most MaxAgents of each, and each cap is reported once.
func TestBoundedState(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		events func(i int) []event.Event
		limit  int
	}{
		{"N agents, each in a turn", boundedN, func(i int) []event.Event {
			return []event.Event{&event.TurnStart{Agent: "a" + strconv.Itoa(i)}}
		}, 2 * MaxAgents},
		{"N open tool calls of one agent", boundedCalls, func(i int) []event.Event {
			return []event.Event{&event.ToolCall{ID: "c" + strconv.Itoa(i), Name: "Read", Input: json.RawMessage(`{}`)}}
		}, 5 * MaxAgents},
		{"N open tool calls of 1000 agents", boundedCalls, func(i int) []event.Event {
			return []event.Event{&event.ToolCall{Agent: "a" + strconv.Itoa(i%1000), ID: "c" + strconv.Itoa(i), Name: "Read", Input: json.RawMessage(`{}`)}}
		}, 8 * 1024}, // a number: raising the cap on calls waiting fails it
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := New(io.Discard, Options{})
			peak, reported := 0, 0
			for i := range tt.n {
				for _, ev := range tt.events(i) {
					err := h.Event(ev)
					switch {
					case errors.Is(err, ErrTooManyAgents):
						reported++
					case err != nil:
						t.Fatal(err)
					}
				}
				if i%256 == 0 || i == tt.n-1 { // held walks the agents: not after every event
					peak = max(peak, h.held())
				}
			}
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			if peak > tt.limit {
				t.Errorf("the page held %d entries for %d agents or calls; want at most %d", peak, tt.n, tt.limit)
			}
			if reported != 1 {
				t.Errorf("the cap was reported %d times, want once", reported)
			}
		})
	}
}
