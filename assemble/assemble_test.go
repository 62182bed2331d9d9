package assemble_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
)

func ptr[T any](v T) *T { return &v }

func run(t *testing.T, max int, evs ...event.Event) ([]*assemble.Block, []error) {
	t.Helper()
	a := assemble.New(max)
	var out []*assemble.Block
	var errs []error
	for _, ev := range evs {
		bs, err := a.Add(ev)
		if err != nil {
			errs = append(errs, err)
		}
		out = append(out, bs...)
	}
	return append(out, a.Flush()...), errs
}

func TestAssemble(t *testing.T) {
	t.Parallel()
	text := func(agent, s string) []event.Event {
		return []event.Event{
			&event.BlockStart{Agent: agent, Kind: event.Text},
			&event.Delta{Agent: agent, Kind: event.Text, Text: s},
			&event.BlockEnd{Agent: agent, Kind: event.Text},
		}
	}
	tests := []struct {
		name string
		in   []event.Event
		want []*assemble.Block
	}{
		{
			name: "citations attach to the text block before them",
			in: append(text("a", "Grass is green."),
				&event.Citations{Agent: "a", Items: []event.Citation{{Type: "char_location", CitedText: "g", DocumentIndex: ptr[int64](0)}}},
				&event.ToolCall{Agent: "a", ID: "t", Name: "n", Input: []byte(`{}`)}),
			want: []*assemble.Block{
				{Agent: "a", Type: "text", Text: "Grass is green.", Citations: []assemble.Citation{{Type: "char_location", CitedText: "g", DocumentIndex: ptr[int64](0)}}},
				{Agent: "a", Type: "tool_call", ID: "t", Name: "n", Input: []byte(`{}`)},
			},
		},
		{
			name: "interleaved agents assemble separately",
			in: []event.Event{
				&event.Delta{Agent: "p", Kind: event.Text, Text: "P1 "},
				&event.Delta{Agent: "c", Kind: event.Thinking, Text: "C1 "},
				&event.Delta{Agent: "p", Kind: event.Text, Text: "P2"},
				&event.BlockEnd{Agent: "c", Kind: event.Thinking},
				&event.Delta{Agent: "c", Kind: event.Thinking, Text: "C2"},
				&event.BlockEnd{Agent: "p", Kind: event.Text},
				&event.BlockEnd{Agent: "c", Kind: event.Thinking},
			},
			want: []*assemble.Block{
				{Agent: "c", Type: "thinking", Text: "C1 "},
				{Agent: "c", Type: "thinking", Text: "C2"},
				{Agent: "p", Type: "text", Text: "P1 P2"},
			},
		},
		{
			name: "open blocks at the end are truncated",
			in: []event.Event{
				&event.Delta{Agent: "a", Kind: event.Text, Text: "cut"},
				&event.Delta{Agent: "a", Kind: event.Thinking, Text: "mid"},
			},
			want: []*assemble.Block{
				{Agent: "a", Type: "text", Text: "cut", Truncated: true},
				{Agent: "a", Type: "thinking", Text: "mid", Truncated: true},
			},
		},
		{
			name: "an error ends the blocks it interrupted, which come first",
			in: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Thinking},
				&event.Delta{Agent: "a", Kind: event.Thinking, Text: "hmm"},
				&event.BlockStart{Agent: "b", Kind: event.Text},
				&event.Delta{Agent: "b", Kind: event.Text, Text: "other"},
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "Hel"},
				&event.Error{Agent: "a", Type: "RuntimeError", Message: "boom", Fatal: true},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "lo"},
			},
			want: []*assemble.Block{
				{Agent: "a", Type: "thinking", Text: "hmm", Truncated: true},
				{Agent: "a", Type: "text", Text: "Hel", Truncated: true},
				{Agent: "a", Type: "error", Kind: "RuntimeError", Text: "boom", Fatal: true},
				{Agent: "a", Type: "text", Text: "lo", Truncated: true},
				{Agent: "b", Type: "text", Text: "other", Truncated: true},
			},
		},
		{
			name: "abandoned blocks are dropped, the notice says so",
			in: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "Hel"},
				&event.Notice{Agent: "a", Kind: event.NoticeAbandoned, Message: "given up"},
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "Hello"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
			want: []*assemble.Block{
				{Agent: "a", Type: "notice", Kind: "abandoned", Text: "given up"},
				{Agent: "a", Type: "text", Text: "Hello"},
			},
		},
		{
			name: "a file change's start is replaced by its completion",
			in: []event.Event{
				&event.FileChange{Agent: "a", ID: "f1", Status: "in_progress", Changes: []event.Change{{Path: "p", Kind: "add"}}},
				&event.FileChange{Agent: "a", ID: "f2", Status: "in_progress", Changes: []event.Change{{Path: "q", Kind: "add"}}},
				&event.FileChange{Agent: "a", ID: "f1", Status: "completed", Changes: []event.Change{{Path: "p", Kind: "add"}}},
			},
			want: []*assemble.Block{
				{Agent: "a", Type: "file_change", ID: "f1", Status: "completed", Changes: []assemble.Change{{Path: "p", Kind: "add"}}},
				{Agent: "a", Type: "file_change", ID: "f2", Status: "in_progress", Changes: []assemble.Change{{Path: "q", Kind: "add"}}, Truncated: true},
			},
		},
		{
			name: "a subagent's last text block comes out when its parent goes on",
			in: slices.Concat([]event.Event{
				&event.ToolCall{Agent: "p", ID: "t", Name: "task"},
				&event.SessionStart{Agent: "c", ParentAgent: "p"},
			}, text("c", "child"), []event.Event{
				&event.SessionStart{Agent: "g", ParentAgent: "c"},
			}, text("g", "grandchild"), []event.Event{
				&event.ToolResult{Agent: "p", ID: "t", Name: "task"},
				&event.Citations{Agent: "c", Items: []event.Citation{{Type: "char_location", CitedText: "late"}}},
			}),
			want: []*assemble.Block{
				{Agent: "p", Type: "tool_call", ID: "t", Name: "task"},
				{Agent: "c", Type: "meta_init", ParentAgent: "p"},
				{Agent: "g", Type: "meta_init", ParentAgent: "c"},
				{Agent: "c", Type: "text", Text: "child"},
				{Agent: "g", Type: "text", Text: "grandchild"},
				{Agent: "p", Type: "tool_result", ID: "t", Name: "task", Content: ptr("")},
				// Citations after the parent went on have no block to join.
				{Agent: "c", Type: "text", Citations: []assemble.Citation{{Type: "char_location", CitedText: "late"}}},
			},
		},
		{
			name: "a subagent whose parent wrote while it ran comes out in completion order",
			in: slices.Concat([]event.Event{
				&event.ToolCall{Agent: "p", ID: "t", Name: "task"},
				&event.SessionStart{Agent: "c", ParentAgent: "p"},
			}, text("p", "wait"), text("c", "found"), []event.Event{
				&event.ToolResult{Agent: "p", ID: "t", Name: "task"},
			}),
			want: []*assemble.Block{
				{Agent: "p", Type: "tool_call", ID: "t", Name: "task"},
				{Agent: "c", Type: "meta_init", ParentAgent: "p"},
				{Agent: "p", Type: "text", Text: "wait"},
				{Agent: "c", Type: "text", Text: "found"},
				{Agent: "p", Type: "tool_result", ID: "t", Name: "task", Content: ptr("")},
			},
		},
		{
			name: "tool result parts",
			in: []event.Event{&event.ToolResult{Agent: "a", ID: "t", Name: "n", Content: []event.Part{
				{Type: "text", Text: "one"}, {Type: "image", Source: "s", MediaType: "image/png"}, {Type: "text", Text: "two"},
			}}},
			want: []*assemble.Block{{
				Agent: "a", Type: "tool_result", ID: "t", Name: "n", Content: ptr("one\ntwo"),
				Images: []assemble.Image{{Src: "s", MediaType: "image/png"}},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, errs := run(t, 0, tt.in...)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBlockCap(t *testing.T) {
	t.Parallel()
	got, errs := run(t, 5,
		&event.Delta{Agent: "a", Kind: event.Text, Text: "1234"},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "5678"},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "9"},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
	)
	if len(errs) != 1 || !errors.Is(errs[0], event.ErrTooLarge) {
		t.Fatalf("errors = %v, want one ErrTooLarge", errs)
	}
	want := []*assemble.Block{{Agent: "a", Type: "text", Text: "1234", Truncated: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
}
