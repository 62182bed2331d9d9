package aisdk

import (
	"io"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/emit/internal/hostile"
	"github.com/agentstream/agentstream/event"
)

// held counts the entries the encoder holds for open parts and tool
// calls.
func (e *Encoder) held() int { return len(e.open) + e.calls.Len() }

// TestBounded feeds the hostile streams and counts what the encoder
// holds after each event: at most the cap of tool calls waiting for a
// result, warned about once, and nothing for agents other than the main
// one.
func TestBounded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		gen  func(i int) event.Event
		caps int // cap warnings wanted
	}{
		{"one delta each of N agents", hostile.Agent, 0},
		{"N open tool calls", hostile.Call, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var warnings []string
			e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
			peak := hostile.Feed(t, e, hostile.N, tt.gen, e.held)
			if limit := e.calls.Max() + 2; peak > limit {
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
