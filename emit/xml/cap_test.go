package xml

import (
	"fmt"
	"io"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// TestCapOpen checks that the blocks open in the source, the agents seen
// and the tool calls kept stay within maxOpen entries each, whatever the
// input, and that going beyond is warned about once.
func TestCapOpen(t *testing.T) {
	t.Parallel()
	var warnings []string
	e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	for i := range 3 * maxOpen {
		agent := fmt.Sprintf("a%d", i)
		for _, ev := range []event.Event{
			&event.ToolCall{Agent: agent, ID: fmt.Sprintf("t%d", i), Name: "n"},
			&event.BlockStart{Agent: agent, Kind: event.Text},
			&event.Delta{Agent: agent, Kind: event.Text, Text: "x"},
		} {
			if err := e.Encode(ev); err != nil {
				t.Fatal(err)
			}
		}
		if e.live.Len() > maxOpen || e.seen.Len() > maxOpen || len(e.calls) > maxOpen || e.callIDs.Len() > maxOpen ||
			len(e.parent) > maxOpen || len(e.children) > maxOpen {
			t.Fatalf("after %d agents: %d blocks, %d agents, %d and %d calls, %d parents and %d with children kept, more than %d",
				i+1, e.live.Len(), e.seen.Len(), len(e.calls), e.callIDs.Len(), len(e.parent), len(e.children), maxOpen)
		}
		// Every parent named is counted, and nothing else.
		n := 0
		for _, c := range e.children {
			n += c
		}
		if n != len(e.parent) {
			t.Fatalf("after %d agents: %d agents counted as children, %d with a parent", i+1, n, len(e.parent))
		}
	}
	if e.live.Len() != maxOpen || e.seen.Len() != maxOpen || len(e.calls) != maxOpen {
		t.Errorf("at the end %d blocks, %d agents, %d calls kept, want %d each", e.live.Len(), e.seen.Len(), len(e.calls), maxOpen)
	}
	want := "xml cannot carry more than 1024 open blocks, agents or tool calls waiting for a result (the oldest is forgotten)"
	n := 0
	for _, w := range warnings {
		if w == want {
			n++
		}
	}
	if n != 1 {
		t.Errorf("warned %d times about the cap, want once; warnings: %q", n, warnings)
	}
}

// TestManyRuns: a log of more runs than the cap, each answering its tool
// calls, is not too many of anything at once: no warning, nothing held
// beyond one run.
func TestManyRuns(t *testing.T) {
	t.Parallel()
	var warnings []string
	e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	for i := range 2 * maxOpen {
		agent := fmt.Sprintf("session-%d", i)
		for _, ev := range []event.Event{
			&event.SessionStart{Agent: agent, Model: "m"},
			&event.Delta{Agent: agent, Kind: event.Text, Text: "x"},
			&event.BlockEnd{Agent: agent, Kind: event.Text},
			&event.ToolCall{Agent: agent, ID: fmt.Sprintf("t%d", i), Name: "n"},
			&event.ToolResult{Agent: agent, ID: fmt.Sprintf("t%d", i)},
		} {
			if err := e.Encode(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if e.seen.Len() != 1 || len(e.calls) != 0 || e.callIDs.Len() != 0 || e.live.Len() != 0 {
		t.Errorf("holds %d agents, %d and %d calls, %d blocks; want 1, 0, 0, 0", e.seen.Len(), len(e.calls), e.callIDs.Len(), e.live.Len())
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
}
