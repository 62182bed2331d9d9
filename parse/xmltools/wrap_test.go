package xmltools

import (
	"encoding/json"
	"io"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/eventtest"
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

// cutSource yields events, then a truncation, then io.EOF: a decoder
// whose input ended inside a text block.
type cutSource struct {
	events []event.Event
	cut    bool
}

func (s *cutSource) Next() (event.Event, error) {
	if len(s.events) > 0 {
		ev := s.events[0]
		s.events = s.events[1:]
		return ev, nil
	}
	if !s.cut {
		s.cut = true
		return nil, &event.ParseError{Source: "in", Line: 3, Offset: -1, Err: event.Errorf(event.ErrTruncated, "stream ended inside a text block")}
	}
	return nil, io.EOF
}

// TestWrapTruncated checks the end of a source cut off inside a text
// block: what the scanner holds comes out first, the blocks stay open as
// the source left them, and the source's truncation is the last thing
// before io.EOF, once.
func TestWrapTruncated(t *testing.T) {
	t.Parallel()
	const cut = "in:3: stream ended inside a text block"
	tests := []struct {
		name string
		text string
		want []eventtest.Item
	}{
		{
			name: "inside think",
			text: "Hi.<think>partial",
			want: []eventtest.Item{
				{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
				{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Hi."}},
				{Event: &event.BlockEnd{Agent: "a", Kind: event.Text}},
				{Event: &event.BlockStart{Agent: "a", Kind: event.Thinking}},
				{Event: &event.Delta{Agent: "a", Kind: event.Thinking, Text: "partial"}},
				{Err: cut},
			},
		},
		{
			name: "inside a slot",
			text: `Run <ai-agent-abcd1234-0001 tool="echo">{"x":`,
			want: []eventtest.Item{
				{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
				{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: `Run <ai-agent-abcd1234-0001 tool="echo">{"x":`}},
				{Err: cut},
			},
		},
		{
			name: "inside FINAL",
			text: `<ai-agent-abcd1234-FINAL format="md">Half a rep`,
			want: []eventtest.Item{
				{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
				{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Half a rep"}},
				{Event: &event.RunEnd{
					Agent: "a", StopReason: "success", Result: "Half a rep", MetaKind: "xmltools",
					Meta: json.RawMessage(`{"format":"md","slot":"abcd1234-FINAL","truncated":true}`),
				}},
				{Err: cut},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			block := eventtest.TextBlock("a", tt.text, 4)
			src := &cutSource{events: block[:len(block)-1]} // no BlockEnd
			got := eventtest.Collect(Wrap(src, nil))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}
