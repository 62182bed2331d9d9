package verify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/format"
)

// TestWhatASideCannotCarry: what one side's format cannot carry (its
// Lacks), and a model the side does not name, are listed as not compared,
// naming the side, and are never a difference; carried, they are compared.
func TestWhatASideCannotCarry(t *testing.T) {
	t.Parallel()
	text := func(agent, s string) *assemble.Block {
		return &assemble.Block{Agent: agent, Type: assemble.TypeText, Text: s}
	}
	init := func(agent, model string) *assemble.Block {
		return &assemble.Block{Agent: agent, Type: assemble.TypeMetaInit, Model: model}
	}
	final := func(agent, stop string) *assemble.Block {
		return &assemble.Block{Agent: agent, Type: assemble.TypeMetaFinal, StopReason: stop}
	}
	call := func(id string) *assemble.Block {
		return &assemble.Block{Agent: "m", Type: assemble.TypeToolCall, ID: id, Name: "ls", Input: json.RawMessage(`{}`)}
	}
	sub := []*assemble.Block{init("m", "x"), text("m", "hi"), init("s", "x"), text("s", "sub"), final("s", "end_turn"), final("m", "end_turn")}
	tests := []struct {
		name        string
		a, b        []*assemble.Block
		lacksA      []format.Content
		lacksB      []format.Content
		notCompared []Skip
		diffs       []string
	}{
		{
			name: "a model suffix is no difference",
			a:    []*assemble.Block{init("m", "claude-opus-4-8[1m]"), text("m", "hi")},
			b:    []*assemble.Block{init("m", "claude-opus-4-8"), text("m", "hi")},
		},
		{
			name:  "another model is",
			a:     []*assemble.Block{init("m", "claude-opus-4-8[1m]"), text("m", "hi")},
			b:     []*assemble.Block{init("m", "claude-sonnet-4-5"), text("m", "hi")},
			diffs: []string{`agent 1 (main) meta_init field model at char 7: "claude-opus-4-8" != "claude-sonnet-4-5"`},
		},
		{
			name:        "a side that names no model",
			a:           []*assemble.Block{init("m", "claude-opus-4-8[1m]"), text("m", "hi")},
			b:           []*assemble.Block{{Agent: "m", Type: assemble.TypeMetaInit, Prompt: "p"}, text("m", "hi")},
			lacksA:      []format.Content{format.Prompt},
			notCompared: []Skip{{Field: "prompt", Side: "a", Reason: "A (a) cannot carry it"}, {Field: "model", Side: "b", Reason: "B names no model"}},
		},
		{
			name:        "subagents one side cannot carry",
			a:           sub,
			b:           []*assemble.Block{text("m", "hi"), final("m", "end_turn")},
			lacksB:      []format.Content{format.Subagents, format.MetaInit},
			notCompared: []Skip{{Field: "meta_init", Side: "b", Reason: "B (b) cannot carry it"}, {Field: "subagents", Side: "b", Reason: "B (b) cannot carry it"}},
		},
		{
			name:  "subagents both carry",
			a:     sub,
			b:     []*assemble.Block{init("m", "x"), text("m", "hi"), final("m", "end_turn")},
			diffs: []string{"agent 2 (subagent): only in A"},
		},
		{
			name:        "a subagent's outcome one side cannot carry",
			a:           []*assemble.Block{init("m", "x"), text("m", "hi"), init("s", "x"), text("s", "sub"), final("s", ""), final("m", "end_turn")},
			b:           sub,
			lacksA:      []format.Content{format.SubagentOutcome},
			notCompared: []Skip{{Field: "subagent_outcome", Side: "a", Reason: "A (a) cannot carry it"}},
		},
		{
			name:        "a subagent's outcome both carry",
			a:           []*assemble.Block{init("m", "x"), text("m", "hi"), init("s", "x"), text("s", "sub"), final("s", ""), final("m", "end_turn")},
			b:           sub,
			diffs:       []string{`agent 2 (subagent) meta_final field stop_reason at char 0: "" != "end_turn"`},
			notCompared: nil,
		},
		{
			name:        "ids one side numbers itself",
			a:           []*assemble.Block{call("item_0")},
			b:           []*assemble.Block{call("call_1")},
			lacksA:      []format.Content{format.ID},
			notCompared: []Skip{{Field: "id", Side: "a", Reason: "A (a) cannot carry it"}},
		},
		{
			name:  "ids both carry",
			a:     []*assemble.Block{call("item_0")},
			b:     []*assemble.Block{call("call_1")},
			diffs: []string{`agent 1 (main) block 1 (tool_call) field id at char 0: "item_0" != "call_1"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := Compare(Side{Name: "a", Format: "a", Lacks: tt.lacksA, Blocks: tt.a}, Side{Name: "b", Format: "b", Lacks: tt.lacksB, Blocks: tt.b}, nil)
			if diff := cmp.Diff(tt.diffs, lines(r)); diff != "" {
				t.Errorf("differences (-want +got):\n%s", diff)
			}
			want := tt.notCompared
			if want == nil {
				want = []Skip{}
			}
			if diff := cmp.Diff(want, r.NotCompared); diff != "" {
				t.Errorf("not compared (-want +got):\n%s", diff)
			}
			if r.Equal != (len(tt.diffs) == 0) {
				t.Errorf("equal = %v with differences %s", r.Equal, strings.Join(lines(r), "; "))
			}
		})
	}
}
