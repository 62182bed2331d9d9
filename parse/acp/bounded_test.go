package acp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/openset"
)

// violations collects what a checker reports.
type violations []string

func (v *violations) Report(rule string, line, _ int, msg string) {
	*v = append(*v, fmt.Sprintf("%s:%d: %s", rule, line, msg))
}

// TestBoundedState feeds the checker hostile transcripts, generated line by
// line: a million tool calls announced, a million requests never answered.
// It holds at most openset.DefaultMax ids of each, says once that it let
// go of requests waiting for their response (open state), lets go of
// announced tool calls (a window of the ids seen) silently, and reports
// nothing else (an update of a tool call it
// forgot is no violation).
func TestBoundedState(t *testing.T) {
	t.Parallel()
	n := eventtest.BoundedN
	tests := []struct {
		name string
		line func(i int) string
		rule string
		caps int // 1: open state let go of, reported once; 0: a window of ids seen, let go of silently
		held func(st *checkState) int
	}{
		{"tool calls", func(i int) string {
			if i%2 == 1 {
				// An update of the call announced 1000 lines ago.
				return fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c%d","status":"completed"}}}`, max(0, i-1001))
			}
			return fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c%d","title":"t"}}}`, i)
		}, ruleTool, 0, func(st *checkState) int { return st.tools.Len() }},
		{"requests", func(i int) string {
			return fmt.Sprintf(`{"dir":"client->agent","msg":{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}}`, i)
		}, rulePrompt, 1, func(st *checkState) int { return st.requests.Len() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got violations
			st := &checkState{}
			st.check(eventtest.Generated(n, tt.line), &format.CheckConfig{Source: "x"}, &got)
			if h := tt.held(st); h > openset.DefaultMax {
				t.Errorf("held %d ids after %d lines; want at most %d", h, n, openset.DefaultMax)
			}
			if tt.caps == 0 && len(got) != 0 {
				t.Errorf("reported %d violations of a valid transcript: %.3q", len(got), got)
			}
			if tt.caps == 1 && (len(got) != 1 || !strings.HasPrefix(got[0], tt.rule+":") || !strings.Contains(got[0], "more than 1024")) {
				t.Errorf("reported %d violations, want the cap's once (%s): %.3q", len(got), tt.rule, got)
			}
		})
	}
}
