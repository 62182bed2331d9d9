package agui

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

// TestBoundedState feeds the checker hostile runs, generated event by
// event: a million messages, tool calls, steps or subagents, none ended
// (or, for subagents, each ended at once). It holds at most
// openset.DefaultMax ids of each kind, says once for each that it let go,
// and reports nothing else: a continuation of one it let go of is no
// violation.
func TestBoundedState(t *testing.T) {
	t.Parallel()
	n := eventtest.BoundedN
	sse := func(s string, args ...any) string { return "data: " + fmt.Sprintf(s, args...) + "\n" }
	tests := []struct {
		name  string
		event func(i int) string
		rule  string
		caps  int // kinds of state let go of
		held  func(k *checkState) int
	}{
		{"messages", func(i int) string {
			if i%3 == 2 {
				return sse(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m%d","delta":"x"}`, max(0, i-3001))
			}
			return sse(`{"type":"TEXT_MESSAGE_START","messageId":"m%d","role":"assistant"}`, i)
		}, ruleOpen, 1, func(k *checkState) int { return k.messages.Len() }},
		{"tool calls", func(i int) string {
			return sse(`{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"Read"}`, i)
		}, ruleOpen, 1, func(k *checkState) int { return k.toolCalls.Len() }},
		{"reasoning", func(i int) string {
			if i%2 == 1 {
				return sse(`{"type":"REASONING_MESSAGE_START","messageId":"r%d","role":"assistant"}`, i)
			}
			return sse(`{"type":"REASONING_START","messageId":"r%d"}`, i)
		}, ruleOpen, 2, func(k *checkState) int { return k.reasoning.Len() + k.spans.Len() }},
		{"steps", func(i int) string {
			if i%3 == 2 && i > 3001 {
				return sse(`{"type":"STEP_FINISHED","stepName":"s%d"}`, i-3001)
			}
			return sse(`{"type":"STEP_STARTED","stepName":"s%d"}`, i)
		}, ruleStep, 1, func(k *checkState) int { return k.steps.Len() }},
		{"subagents", func(i int) string {
			if i%2 == 1 {
				return sse(`{"type":"SUBAGENT_FINISHED","subagentRunId":"sa%d"}`, i/2)
			}
			return sse(`{"type":"SUBAGENT_STARTED","subagentRunId":"sa%d","name":"n"}`, i/2)
		}, ruleSubagent, 0, func(k *checkState) int { return k.active.Len() + k.closed.Len() }}, // every subagent ends: the ended ones are a window of ids seen, let go of silently
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got violations
			k := &checkState{rep: &got}
			in := eventtest.Generated(n+1, func(i int) string {
				if i == 0 {
					return sse(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
				}
				return tt.event(i - 1)
			})
			k.check(in, &format.CheckConfig{Source: "x", MaxEventBytes: 1 << 20})
			if h := tt.held(k); h > 2*openset.DefaultMax {
				t.Errorf("held %d ids after %d events; want at most %d", h, n, openset.DefaultMax)
			}
			owners := 0
			for _, m := range k.owners {
				owners += len(m)
			}
			if owners > 3*maxOwners {
				t.Errorf("held %d owners; want at most %d", owners, 3*maxOwners)
			}
			caps := 0
			for _, v := range got {
				if !strings.HasPrefix(v, tt.rule+":") || !strings.Contains(v, "more than 1024") {
					t.Errorf("unexpected violation %s", v)
					break
				}
				caps++
			}
			if caps != tt.caps {
				t.Errorf("the cap was reported %d times, want %d (once for each kind)", caps, tt.caps)
			}
		})
	}
}
