// Package hostile makes the hostile streams of docs/limits.md ("Memory
// for many agents and many open calls") event by event, never held whole,
// for the tests that count the state an encoder holds: a1m, one text
// delta for each of N agents and no block ever ended, and calls1m, N tool
// calls of one agent that never get a result.
package hostile

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// Agent returns the event of the i-th agent of a1m: its one text delta.
func Agent(i int) event.Event {
	return &event.Delta{Agent: "a" + strconv.Itoa(i), Kind: event.Text, Text: "x"}
}

// Call returns the i-th tool call of calls1m, of the main agent ("").
func Call(i int) event.Event {
	return &event.ToolCall{ID: CallID(i), Name: "Read", Input: json.RawMessage(`{}`)}
}

// CallID returns the id of the i-th tool call of calls1m.
func CallID(i int) string { return "c" + strconv.Itoa(i) }

// Feed encodes the n events gen makes, one at a time, and returns the
// most entries held reports after any of them. It stops the test at an
// encoding error.
func Feed(t testing.TB, enc event.Encoder, n int, gen func(int) event.Event, held func() int) int {
	t.Helper()
	peak := 0
	for i := range n {
		if err := enc.Encode(gen(i)); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		peak = max(peak, held())
	}
	return peak
}
