package codex

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/emit/internal/hostile"
	"github.com/agentstream/agentstream/event"
)

// held counts the entries the encoder holds for tool calls, file
// changes and subagents.
func (e *Encoder) held() int {
	n := len(e.calls) + e.callIDs.Len() + len(e.fileIDs) + e.fileKeys.Len()
	if c := e.calls["spawn"]; c != nil {
		n += len(c.collab.receivers) // those of TestBounded's collab call
	}
	return n
}

// TestBounded feeds the hostile streams and counts what the encoder
// holds after each event: at most maxOpen of each kind, whatever the
// number of agents, calls or file changes, and each cap warned about once.
func TestBounded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		gen  func(i int) event.Event
		caps int // cap warnings wanted
	}{
		{"one delta each of N agents", hostile.Agent, 0},
		{"N open tool calls", hostile.Call, 1},
		{"N file changes in progress", func(i int) event.Event {
			return &event.FileChange{ID: hostile.CallID(i), Status: "in_progress", Changes: []event.Change{{Path: "f", Kind: "add"}}}
		}, 1},
		{"N subagents of one collab call", func(i int) event.Event {
			if i == 0 {
				return &event.ToolCall{ID: "spawn", Name: "spawn_agent", Input: []byte(`{"prompt":"p"}`)}
			}
			return &event.SessionStart{Agent: fmt.Sprint("a", i), ParentAgent: "main", ParentToolID: "spawn"}
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var warnings []string
			e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
			peak := hostile.Feed(t, e, hostile.N, tt.gen, e.held)
			if limit := 2 * maxOpen; peak > limit {
				t.Errorf("held %d entries; want at most %d", peak, limit)
			}
			caps := 0
			for _, w := range warnings {
				if strings.Contains(w, "more than") {
					caps++
				}
			}
			if caps != tt.caps {
				t.Errorf("%d cap warnings, want %d: %q", caps, tt.caps, warnings)
			}
			if e.emptyChild {
				t.Error("the main thread's scope taken for a subagent's")
			}
		})
	}
}
