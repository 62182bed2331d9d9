package openaichat

import (
	"encoding/json"
	"io"
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// TestMaxOpen: a completion with more choices, or more tool calls waiting
// for their result, than the cap keeps state for the cap only.
func TestMaxOpen(t *testing.T) {
	t.Parallel()
	const n = openset.DefaultMax + 100
	var warnings []string
	e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	e.Encode(&event.TurnStart{MessageID: "c"})
	for i := 1; i <= n; i++ {
		e.Encode(&event.Delta{Agent: "choice-" + strconv.Itoa(i), Kind: event.Text, Text: "x"})
		e.Encode(&event.ToolCall{ID: "t" + strconv.Itoa(i), Name: "f", Input: json.RawMessage(`{}`)})
	}
	if len(e.roles) != openset.DefaultMax || len(e.tools) > openset.DefaultMax+1 {
		t.Errorf("%d choices, %d tool counts held, want %d", len(e.roles), len(e.tools), openset.DefaultMax)
	}
	if p := e.b.Pending(); p != openset.DefaultMax {
		t.Errorf("%d pending tool calls held, want %d", p, openset.DefaultMax)
	}
	if len(warnings) != 1 || warnings[0] != "openai-chat cannot carry subagents (only the main agent's turns are written)" {
		t.Errorf("warnings %q", warnings)
	}
}
