package inlinexml

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
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

// TestWrapTruncated checks the end of a source cut off inside a text
// block: what the scanner holds comes out first, the blocks stay open as
// the source left them, and the source's truncation is the last thing
// before io.EOF, once.
func TestWrapTruncated(t *testing.T) {
	t.Parallel()
	const cut = eventtest.CutMessage
	eventtest.WrapCut(t, func(dec event.Decoder) event.Decoder { return Wrap(dec, nil) }, []eventtest.CutCase{
		eventtest.CutInThinking("<thinking>"),
		{
			Name: "inside a call",
			Text: "Run <read_file><path>a",
			Want: []eventtest.Item{
				{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
				{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Run <read_file><path>a"}},
				{Err: cut},
			},
		},
		{
			Name: "inside a possible tag",
			Text: "Done <rea",
			Want: []eventtest.Item{
				{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
				{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Done <rea"}},
				{Err: cut},
			},
		},
	})
}
