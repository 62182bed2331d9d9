package xmltools

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
)

// TestWrap reads the text blocks of another stream (an xml-final model:
// native tool calls pass through, only FINAL travels in the text). FINAL's
// result fills the source's RunEnd; the nonce is detected once per agent.
func TestWrap(t *testing.T) {
	t.Parallel()
	src := slices.Concat(
		[]event.Event{&event.ToolCall{Agent: "a", ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{}`)}},
		eventtest.TextBlock("a", `<ai-agent-abcd1234-FINAL status="partial" format="md">Half.</ai-agent-abcd1234-FINAL>`, 1),
		eventtest.TextBlock("b", `<ai-agent-ffff0000-0001 tool="x">{}</ai-agent-ffff0000-0001>`, 2),
		[]event.Event{&event.RunEnd{Agent: "a", StopReason: "end_turn", Turns: 1}},
	)
	want := []eventtest.Item{
		{Event: &event.ToolCall{Agent: "a", ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{}`)}},
		{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
		{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Half."}},
		{Event: &event.BlockEnd{Agent: "a", Kind: event.Text}},
		{Event: &event.ToolCall{Agent: "b", ID: "ffff0000-0001", Name: "x", Input: json.RawMessage(`{}`)}},
		{Event: &event.RunEnd{Agent: "a", StopReason: "end_turn", Turns: 1, Result: "Half."}},
	}
	got := eventtest.Collect(Wrap(&eventtest.Source{Events: src}, nil))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestWrapTruncated checks the end of a source cut off inside a text
// block: what the scanner holds comes out first, the blocks stay open as
// the source left them, and the source's truncation is the last thing
// before io.EOF, once.
func TestWrapTruncated(t *testing.T) {
	t.Parallel()
	const cut = eventtest.CutMessage
	eventtest.WrapCut(t, func(dec event.Decoder) event.Decoder { return Wrap(dec, nil) }, []eventtest.CutCase{
		eventtest.CutInThinking("<think>"),
		{
			Name: "inside a slot",
			Text: `Run <ai-agent-abcd1234-0001 tool="echo">{"x":`,
			Want: []eventtest.Item{
				{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
				{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: `Run <ai-agent-abcd1234-0001 tool="echo">{"x":`}},
				{Err: cut},
			},
		},
		{
			Name: "inside FINAL",
			Text: `<ai-agent-abcd1234-FINAL format="md">Half a rep`,
			Want: []eventtest.Item{
				{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
				{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Half a rep"}},
				{Event: &event.RunEnd{
					Agent: "a", StopReason: "success", Result: "Half a rep", MetaKind: "xmltools",
					Meta: json.RawMessage(`{"format":"md","slot":"abcd1234-FINAL","truncated":true}`),
				}},
				{Err: cut},
			},
		},
	})
}
