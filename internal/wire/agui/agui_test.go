package agui

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRequired: a struct's zero value, as written, has exactly the
// members Required lists for its type (what the struct writes always),
// so the two declarations of the schema's required members agree.
func TestRequired(t *testing.T) {
	t.Parallel()
	structs := map[string]any{
		TextMessageStart: &TextMessageStartEvent{}, TextMessageContent: &TextMessageContentEvent{},
		TextMessageEnd: &TextMessageEndEvent{}, TextMessageChunk: &TextMessageChunkEvent{},
		ToolCallStart: &ToolCallStartEvent{}, ToolCallArgs: &ToolCallArgsEvent{}, ToolCallEnd: &ToolCallEndEvent{},
		ToolCallChunk: &ToolCallChunkEvent{}, ToolCallResult: &ToolCallResultEvent{Content: json.RawMessage(`""`)},
		Raw: &RawEvent{Event: json.RawMessage(`{}`)}, Custom: &CustomEvent{Value: json.RawMessage(`1`)},
		RunStarted: &RunStartedEvent{}, RunFinished: &RunFinishedEvent{}, RunError: &RunErrorEvent{},
		StepStarted: &StepStartedEvent{}, StepFinished: &StepFinishedEvent{},
		ReasoningStart: &ReasoningStartEvent{}, ReasoningMessageStart: &ReasoningMessageStartEvent{},
		ReasoningMessageContent: &ReasoningMessageContentEvent{}, ReasoningMessageEnd: &ReasoningMessageEndEvent{},
		ReasoningMessageChunk: &ReasoningMessageChunkEvent{}, ReasoningEnd: &ReasoningEndEvent{},
		ReasoningEncryptedValue: &ReasoningEncryptedValueEvent{},
		SubagentStarted:         &SubagentStartedEvent{}, SubagentFinished: &SubagentFinishedEvent{}, SubagentError: &SubagentErrorEvent{},
	}
	for typ, v := range structs {
		if !Known(typ) {
			t.Errorf("%s is not in Types", typ)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var got []string
		for k := range m {
			if k != "type" {
				got = append(got, k)
			}
		}
		slices.Sort(got)
		want := slices.Clone(Required[typ])
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: members written always (-Required +struct):\n%s", typ, diff)
		}
	}
	if len(Types) != 31 {
		t.Errorf("%d event types, @ag-ui/core 1.0 has 31", len(Types))
	}
}
