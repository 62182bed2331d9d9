package openaichat

import (
	"encoding/json"
	"io"
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/openai/chatwire"
)

// TestBoundedState: the encoder's state per choice, per agent and per
// call stays within openset.DefaultMax entries (one more for choice 0's
// tool calls) for 200,000 choices of one completion, 1,000,000
// subagents with a turn open and 200,000 tool calls without a result (the
// shared state is counted at 1,000,000 in internal/openaistream),
// generated one event at a time.
func TestBoundedState(t *testing.T) {
	t.Parallel()
	e := NewEncoder(io.Discard, &Config{Agent: "m"})
	peak := 0
	enc := func(ev event.Event) {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
		peak = max(peak, len(e.roles), len(e.tools), e.b.Others(), e.b.Pending())
	}
	enc(&event.TurnStart{Agent: "m", MessageID: "c"})
	for i := 1; i <= 200_000; i++ {
		a := wire.ChoiceAgent("m", i)
		enc(&event.TurnStart{Agent: a, MessageID: "c"})
		enc(&event.ToolCall{Agent: a, ID: "t" + strconv.Itoa(i), Name: "f", Input: json.RawMessage(`{}`)})
	}
	for i := range 1_000_000 {
		enc(&event.TurnStart{Agent: "s" + strconv.Itoa(i)})
	}
	for i := range 200_000 {
		enc(&event.ToolCall{Agent: "m", ID: "c" + strconv.Itoa(i), Name: "f", Input: json.RawMessage(`{}`)})
	}
	if peak > openset.DefaultMax+1 {
		t.Errorf("held %d choices, agents or calls at once, want at most %d", peak, openset.DefaultMax+1)
	}
}
