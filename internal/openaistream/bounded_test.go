package openaistream

import (
	"io"
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// TestBoundedState: the state both OpenAI encoders share stays within
// openset.DefaultMax entries of each kind for 1,000,000 other agents
// with a turn open and 1,000,000 client tool calls of one turn without a
// result, generated one at a time.
func TestBoundedState(t *testing.T) {
	t.Parallel()
	const n = 1_000_000
	e := NewEncoder(io.Discard, "test", "", nil)
	e.Agent(&event.TurnStart{Agent: "main"})
	e.Begin("r", "m", "r_")
	peak := 0
	for i := range n {
		a := "a" + strconv.Itoa(i)
		e.Other(a, &event.TurnStart{Agent: a})
		e.Called("c" + strconv.Itoa(i))
		peak = max(peak, e.Others(), e.Pending())
	}
	if peak > openset.DefaultMax {
		t.Errorf("held %d agents or calls at once, want at most %d", peak, openset.DefaultMax)
	}
	if !e.Waits() {
		t.Error("the turn does not wait for its calls and the other agents")
	}
}
