package aisdk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/openset"
)

type violations []string

func (v *violations) Report(rule string, line, _ int, msg string) {
	*v = append(*v, fmt.Sprintf("%s:%d: %s", rule, line, msg))
}

// TestBoundedState feeds the checker hostile streams, generated chunk by
// chunk: a million text parts opened, tool inputs started, or tool calls
// given their input, none ended. It holds at most openset.DefaultMax ids
// of each kind, says once for each kind of open state (parts, inputs)
// that it let go of some, lets go of the ids of calls given their input
// (a window of the ids seen) silently, and reports nothing else: a delta or output of one it let go of is no
// violation.
func TestBoundedState(t *testing.T) {
	t.Parallel()
	n := eventtest.BoundedN
	data := func(s string, args ...any) string { return "data: " + fmt.Sprintf(s, args...) + "\n" }
	tests := []struct {
		name  string
		chunk func(i int) string
		rule  string
		caps  int
		held  func(k *checkState) int
	}{
		{"text parts", func(i int) string {
			if i%2 == 1 {
				return data(`{"type":"text-delta","id":"p%d","delta":"x"}`, max(0, i-3001))
			}
			return data(`{"type":"text-start","id":"p%d"}`, i)
		}, rulePart, 1, func(k *checkState) int { return k.parts.Len() }},
		{"tool inputs", func(i int) string {
			if i%2 == 1 {
				return data(`{"type":"tool-input-delta","toolCallId":"c%d","inputTextDelta":"x"}`, max(0, i-3001))
			}
			return data(`{"type":"tool-input-start","toolCallId":"c%d","toolName":"Read"}`, i)
		}, ruleTool, 1, func(k *checkState) int { return k.inputs.Len() }},
		{"tool calls", func(i int) string {
			if i%2 == 1 {
				return data(`{"type":"tool-output-available","toolCallId":"c%d","output":"x"}`, max(0, i-3001))
			}
			return data(`{"type":"tool-input-available","toolCallId":"c%d","toolName":"Read","input":{}}`, i)
		}, ruleTool, 0, func(k *checkState) int { return k.calls.Len() }}, // a window of ids seen: let go of silently
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got violations
			k := &checkState{rep: &got}
			in := eventtest.Generated(n+1, func(i int) string {
				if i == 0 {
					return data(`{"type":"start"}`)
				}
				return tt.chunk(i - 1)
			})
			k.check(in, &format.CheckConfig{Source: "x", MaxEventBytes: 1 << 20})
			if h := tt.held(k); h > openset.DefaultMax {
				t.Errorf("held %d ids after %d chunks; want at most %d", h, n, openset.DefaultMax)
			}
			caps := 0
			for _, v := range got {
				switch {
				case strings.Contains(v, "the stream ends without"):
					// Neither finish nor [DONE]: a stream cut off.
				case strings.HasPrefix(v, tt.rule+":") && strings.Contains(v, "more than 1024"):
					caps++
				default:
					t.Errorf("unexpected violation %s", v)
				}
			}
			if caps != tt.caps {
				t.Errorf("the cap was reported %d times, want %d", caps, tt.caps)
			}
		})
	}
}
