package inlinexml

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/internal/rewrite"
)

// TestPendingCap: calls waiting for a result are capped at maxPending;
// the oldest leaves the list (reported once, at the call that pushed it
// out), so a result pairs with the oldest call still held.
func TestPendingCap(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("<read_file><path>a</path></read_file>\n", maxPending+2) +
		`<tool_result tool_name="read_file">r</tool_result>`
	var calls int
	var got []eventtest.Item
	for _, it := range eventtest.Collect(NewDecoder(strings.NewReader(in), nil)) {
		if _, ok := it.Event.(*event.ToolCall); ok {
			calls++
			continue
		}
		got = append(got, it)
	}
	want := []eventtest.Item{
		{Err: "<input>:1025:1: more than 1024 tool calls wait for a result; the oldest, <read_file> inline-1, will not be paired with one (later ones are not reported)"},
		{Event: &event.ToolResult{ID: "inline-3", Name: "read_file", Content: []event.Part{{Type: "text", Text: "r"}}}},
	}
	if diff := cmp.Diff(want, got); diff != "" || calls != maxPending+2 {
		t.Errorf("%d calls; other items (-want +got):\n%s", calls, diff)
	}
}

// BenchmarkUnpairedResults decodes calls none of whose results names
// them: the time per byte is the same at 1, 2 and 4 MB (it grew with the
// input when each result searched the whole list of calls waiting for
// one; the list is capped at maxPending, and a result whose tool has no
// call waiting does not search it).
func BenchmarkUnpairedResults(b *testing.B) {
	const unit = "<list_files><path>a</path></list_files><tool_result tool_name=\"x\">r</tool_result>"
	for _, mb := range []int{1, 2, 4} {
		in := []byte(strings.Repeat(unit, mb<<20/len(unit)))
		b.Run(strconv.Itoa(mb)+"MB", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				eventtest.Drain(NewDecoder(bytes.NewReader(in), nil))
			}
		})
	}
}

// TestWrapAgentCap: Wrap keeps a scanner for at most rewrite.MaxAgents
// agents; the agent that came first is let go of (its text ends: its
// open thinking block closes) to make room, reported once.
func TestWrapAgentCap(t *testing.T) {
	t.Parallel()
	var src []event.Event
	for i := range rewrite.MaxAgents + 2 {
		src = append(src, &event.Delta{Agent: "a" + strconv.Itoa(i), Kind: event.Text, Text: "<thinking>x"})
	}
	got := eventtest.Collect(Wrap(&eventtest.Source{Events: src}, nil))
	var capped []int
	for i, it := range got {
		if strings.Contains(it.Err, "agents") {
			capped = append(capped, i)
		}
	}
	if len(capped) != 1 || capped[0] < 2 {
		t.Fatalf("cap reported at %v, want once", capped)
	}
	want := []eventtest.Item{
		{Event: &event.BlockEnd{Agent: "a0", Kind: event.Thinking}},
		{Err: "<input>:1:12: the text block ended inside <thinking>"},
		{Err: `<input>: text of more than 1024 agents; let go of the first, "a0": its text ended here (later ones are not reported)`},
		{Event: &event.BlockStart{Agent: "a1024", Kind: event.Thinking}},
	}
	if diff := cmp.Diff(want, got[capped[0]-2:capped[0]+2]); diff != "" {
		t.Errorf("around the cap (-want +got):\n%s", diff)
	}
}

// TestResultPairing: a result pairs with the oldest call of its tool
// still waiting, an unnamed one with the oldest call; a result whose tool
// has no call waiting pairs with none.
func TestResultPairing(t *testing.T) {
	t.Parallel()
	in := "<read_file><path>a</path></read_file><list_files><path>b</path></list_files><read_file><path>c</path></read_file>" +
		`<tool_result tool_name="list_files">1</tool_result><tool_result tool_name="list_files">2</tool_result>` +
		`<tool_result>3</tool_result><tool_result tool_name="read_file">4</tool_result><tool_result tool_name="read_file">5</tool_result>`
	var got [][2]string
	for _, it := range eventtest.Collect(NewDecoder(strings.NewReader(in), nil)) {
		if r, ok := it.Event.(*event.ToolResult); ok {
			got = append(got, [2]string{r.Content[0].Text, r.ID})
		}
	}
	want := [][2]string{{"1", "inline-2"}, {"2", ""}, {"3", "inline-1"}, {"4", "inline-3"}, {"5", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("result, call id (-want +got):\n%s", diff)
	}
}
