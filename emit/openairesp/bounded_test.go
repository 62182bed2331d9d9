package openairesp

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// TestBoundedState: the encoder's state per agent and per call stays
// within openset.DefaultMax entries for 1,000,000 subagents with a turn
// open and 200,000 tool calls of one turn (the shared state is counted
// at 1,000,000 in internal/openaistream) without a result, generated
// one event at a time; the output items it keeps for the response's
// final event stay within maxOutput bytes (then none are kept, warned).
func TestBoundedState(t *testing.T) {
	t.Parallel()
	var warnings []string
	e := NewEncoder(io.Discard, &Config{Agent: "m", Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	peak := 0
	enc := func(ev event.Event) {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
		peak = max(peak, e.b.Others(), e.b.Pending())
	}
	enc(&event.TurnStart{Agent: "m", MessageID: "r"})
	for i := range 1_000_000 {
		enc(&event.TurnStart{Agent: "s" + strconv.Itoa(i)})
	}
	input := json.RawMessage(`{"path":"` + strings.Repeat("x", 100) + `"}`)
	for i := range 200_000 {
		enc(&event.ToolCall{Agent: "m", ID: "c" + strconv.Itoa(i), Name: "f", Input: input})
		if e.outBytes > maxOutput && (len(e.output) > 0 || cap(e.kept) > 0) {
			t.Fatalf("%d output items (%d bytes, %d in memory) kept, over the cap of %d", len(e.output), e.outBytes, cap(e.kept), maxOutput)
		}
	}
	// A call's arguments past reuseMax are not kept for the next call.
	big := json.RawMessage(`{"text":"` + strings.Repeat("x", 2*reuseMax) + `"}`)
	enc(&event.ToolCall{Agent: "m", ID: "big", Name: "f", Input: big})
	if cap(e.call.args) > reuseMax || cap(e.scratch) > reuseMax {
		t.Errorf("kept %d and %d bytes of a large call's arguments, want at most %d", cap(e.call.args), cap(e.scratch), reuseMax)
	}
	if peak > openset.DefaultMax {
		t.Errorf("held %d agents or calls at once, want at most %d", peak, openset.DefaultMax)
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "in its final event") {
		t.Errorf("no warning of the output left out of the final event: %q", warnings)
	}
}
