package inlinexml

import (
	"encoding/json"
	"io"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/eventtest"
)

// TestWrap rewrites the text blocks of a stream from another decoder: the
// other events pass through, a source thinking block closes an open
// <thinking>, and the completion result fills the source's RunEnd.
func TestWrap(t *testing.T) {
	t.Parallel()
	src := slices.Concat(
		[]event.Event{
			&event.SessionStart{Agent: "a", Model: "m"},
			&event.BlockStart{Agent: "a", Kind: event.Thinking},
			&event.Delta{Agent: "a", Kind: event.Thinking, Text: "native"},
			&event.BlockEnd{Agent: "a", Kind: event.Thinking, Signature: "sig"},
		},
		eventtest.TextBlock("a", "Reading.\n<read_file><path>x</path></read_file>", 1),
		[]event.Event{
			&event.ToolResult{Agent: "a", ID: "inline-1", Content: []event.Part{{Type: "text", Text: "body"}}},
			&event.BlockStart{Agent: "a", Kind: event.Text},
			&event.Delta{Agent: "a", Kind: event.Text, Text: "<thinking>mine"},
			&event.BlockStart{Agent: "a", Kind: event.Thinking},
			&event.Delta{Agent: "a", Kind: event.Thinking, Text: "theirs"},
			&event.BlockEnd{Agent: "a", Kind: event.Thinking},
			&event.Delta{Agent: "a", Kind: event.Text, Text: " more</thinking><attempt_completion><result>R</result></attempt_completion>"},
			&event.BlockEnd{Agent: "a", Kind: event.Text},
			&event.RunEnd{Agent: "a", StopReason: "end_turn", Turns: 2},
		},
	)
	want := []eventtest.Item{
		{Event: &event.SessionStart{Agent: "a", Model: "m"}},
		{Event: &event.BlockStart{Agent: "a", Kind: event.Thinking}},
		{Event: &event.Delta{Agent: "a", Kind: event.Thinking, Text: "native"}},
		{Event: &event.BlockEnd{Agent: "a", Kind: event.Thinking, Signature: "sig"}},
		{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
		{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Reading.\n"}},
		{Event: &event.BlockEnd{Agent: "a", Kind: event.Text}},
		{Event: &event.ToolCall{Agent: "a", ID: "inline-1", Name: "read_file", Input: json.RawMessage(`{"path":"x"}`)}},
		{Event: &event.ToolResult{Agent: "a", ID: "inline-1", Content: []event.Part{{Type: "text", Text: "body"}}}},
		{Event: &event.BlockStart{Agent: "a", Kind: event.Thinking}},
		{Event: &event.Delta{Agent: "a", Kind: event.Thinking, Text: "mine"}},
		{Event: &event.BlockEnd{Agent: "a", Kind: event.Thinking}},
		{Event: &event.BlockStart{Agent: "a", Kind: event.Thinking}},
		{Event: &event.Delta{Agent: "a", Kind: event.Thinking, Text: "theirs"}},
		{Event: &event.BlockEnd{Agent: "a", Kind: event.Thinking}},
		{Event: &event.BlockStart{Agent: "a", Kind: event.Thinking}},
		{Event: &event.Delta{Agent: "a", Kind: event.Thinking, Text: " more"}},
		{Event: &event.BlockEnd{Agent: "a", Kind: event.Thinking}},
		{Event: &event.ToolCall{Agent: "a", ID: "inline-2", Name: "attempt_completion", Input: json.RawMessage(`{"result":"R"}`)}},
		{Event: &event.RunEnd{Agent: "a", StopReason: "end_turn", Turns: 2, Result: "R"}},
	}
	got := eventtest.Collect(Wrap(&eventtest.Source{Events: src}, nil))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestWrapAgents keeps one scanner per agent: interleaved deltas of two
// agents do not mix.
func TestWrapAgents(t *testing.T) {
	t.Parallel()
	src := []event.Event{
		&event.Delta{Agent: "a", Kind: event.Text, Text: "<read_file><pa"},
		&event.Delta{Agent: "b", Kind: event.Text, Text: "<list_files><pa"},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "th>1</path></read_file>"},
		&event.Delta{Agent: "b", Kind: event.Text, Text: "th>2</path></list_files>"},
		&event.BlockEnd{Agent: "b", Kind: event.Text},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "<read_file>"},
	}
	want := []eventtest.Item{
		{Event: &event.ToolCall{Agent: "a", ID: "inline-1", Name: "read_file", Input: json.RawMessage(`{"path":"1"}`)}},
		{Event: &event.ToolCall{Agent: "b", ID: "inline-2", Name: "list_files", Input: json.RawMessage(`{"path":"2"}`)}},
		// a's text block was left open by the source: it stays open
		{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
		{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "<read_file>"}},
		{Err: "<input>:1:38: the input ended inside <read_file>; the call is kept as text"},
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
			name: "inside thinking",
			text: "Hi.<thinking>partial",
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
			name: "inside a call",
			text: "Run <read_file><path>a",
			want: []eventtest.Item{
				{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
				{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Run <read_file><path>a"}},
				{Err: cut},
			},
		},
		{
			name: "inside a possible tag",
			text: "Done <rea",
			want: []eventtest.Item{
				{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
				{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Done <rea"}},
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
