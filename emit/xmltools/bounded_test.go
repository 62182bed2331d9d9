package xmltools

import (
	"io"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/emit/internal/hostile"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// TestBounded feeds the hostile streams and counts the calls the encoder
// keeps for their results after each event: at most openset.DefaultMax,
// the cap warned about once.
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
			peak := hostile.Feed(t, e, hostile.N, tt.gen, func() int { return e.calls.Len() })
			if peak > openset.DefaultMax {
				t.Errorf("held %d calls; want at most %d", peak, openset.DefaultMax)
			}
			caps := 0
			for _, w := range warnings {
				if strings.Contains(w, "more than 1024") {
					caps++
				}
			}
			if caps != tt.caps {
				t.Errorf("%d cap warnings, want %d: %q", caps, tt.caps, warnings)
			}
		})
	}
}
