package agui

import (
	"io"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/emit/internal/hostile"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// held counts the entries the encoder holds for agents and awaited
// calls.
func (e *Encoder) kept() int {
	n := len(e.agents) + len(e.order) + len(e.pending)
	if e.subs != nil {
		n += e.subs.Len() + e.idle.Len()
	}
	return n
}

// TestBounded feeds the hostile streams and counts what the encoder
// holds after each event: at most openset.DefaultMax agents and awaited
// calls, each cap warned about once.
func TestBounded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		gen  func(i int) event.Event
		caps int // cap warnings wanted
	}{
		{"one delta each of N agents", hostile.Agent, 1},
		{"N open tool calls", hostile.Call, 0},
		{"N frontend tool calls awaited", func(i int) event.Event {
			return &event.AwaitingTools{Tools: []event.PendingTool{{ID: hostile.CallID(i)}}}
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var warnings []string
			e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
			peak := hostile.Feed(t, e, hostile.N, tt.gen, e.kept)
			if limit := 5*openset.DefaultMax + 16; peak > limit {
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
		})
	}
}
