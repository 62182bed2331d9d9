package assemble

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// trace records what a Lifecycle's hooks were told, one line per call.
type trace struct{ calls []string }

func (tr *trace) hooks(abandon, thinkingFirst bool) Hooks[string] {
	h := Hooks[string]{
		Open: func(agent string, kind event.BlockKind) string {
			tr.calls = append(tr.calls, "open "+agent+"/"+string(kind))
			return agent + "/" + string(kind)
		},
		End: func(b string, e *event.BlockEnd) {
			how := "cut"
			if e != nil {
				how = "end"
			}
			tr.calls = append(tr.calls, how+" "+b)
		},
		ThinkingFirst: thinkingFirst,
	}
	if abandon {
		h.Abandon = func(b string) { tr.calls = append(tr.calls, "abandon "+b) }
	}
	return h
}

func TestLifecycle(t *testing.T) {
	t.Parallel()
	delta := func(agent string, k event.BlockKind) event.Event {
		return &event.Delta{Agent: agent, Kind: k, Text: "x"}
	}
	tests := []struct {
		name          string
		abandon       bool
		thinkingFirst bool
		events        []event.Event
		cutAll        bool // CutAll, in the order they opened
		want          []string
	}{
		{"a delta opens, its end ends", false, false, []event.Event{
			delta("a", event.Text), delta("a", event.Text), &event.BlockEnd{Agent: "a", Kind: event.Text},
		}, false, []string{"open a/text", "end a/text"}},
		{"a start opens once", false, false, []event.Event{
			&event.BlockStart{Agent: "a", Kind: event.Thinking}, delta("a", event.Thinking),
		}, false, []string{"open a/thinking"}},
		{"a start again cuts the block open", false, false, []event.Event{
			delta("a", event.Text), &event.BlockStart{Agent: "a", Kind: event.Text},
		}, false, []string{"open a/text", "cut a/text", "open a/text"}},
		{"an end with nothing open does nothing", false, false, []event.Event{
			&event.BlockEnd{Agent: "a", Kind: event.Text}, delta("b", event.Text), &event.BlockEnd{Agent: "a", Kind: event.Text},
		}, false, []string{"open b/text"}},
		{"an error cuts its agent's blocks, in the order they opened", false, false, []event.Event{
			delta("a", event.Text), delta("b", event.Text), delta("a", event.Thinking), &event.Error{Agent: "a", Message: "boom"},
		}, false, []string{"open a/text", "open b/text", "open a/thinking", "cut a/text", "cut a/thinking"}},
		{"an error cuts thinking first when asked", false, true, []event.Event{
			delta("a", event.Text), delta("a", event.Thinking), &event.Error{Agent: "a", Message: "boom"},
		}, false, []string{"open a/text", "open a/thinking", "cut a/thinking", "cut a/text"}},
		{"an abandon gives up its agent's blocks", true, false, []event.Event{
			delta("a", event.Thinking), delta("a", event.Text), &event.Notice{Agent: "a", Kind: event.NoticeAbandoned},
		}, false, []string{"open a/thinking", "open a/text", "abandon a/thinking", "abandon a/text"}},
		{"without an Abandon hook an abandon cuts", false, false, []event.Event{
			delta("a", event.Text), &event.Notice{Agent: "a", Kind: event.NoticeAbandoned},
		}, false, []string{"open a/text", "cut a/text"}},
		{"other notices do nothing", true, false, []event.Event{
			delta("a", event.Text), &event.Notice{Agent: "a", Kind: "status"},
		}, false, []string{"open a/text"}},
		{"the end of the stream cuts what is open, in the order it opened", false, false, []event.Event{
			delta("b", event.Text), delta("a", event.Thinking), delta("c", event.Text), &event.BlockEnd{Agent: "a", Kind: event.Thinking},
			delta("a", event.Text),
		}, true, []string{"open b/text", "open a/thinking", "open c/text", "end a/thinking", "open a/text", "cut b/text", "cut c/text", "cut a/text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var tr trace
			l := NewLifecycle(tr.hooks(tt.abandon, tt.thinkingFirst))
			for _, ev := range tt.events {
				b, ok := l.Event(ev)
				if d, isDelta := ev.(*event.Delta); ok != isDelta || isDelta && b != d.Agent+"/"+string(d.Kind) {
					t.Errorf("Event(%T) = %q, %v", ev, b, ok)
				}
			}
			if tt.cutAll {
				l.CutAll(nil)
				if l.Len() != 0 {
					t.Errorf("after CutAll, %d blocks open", l.Len())
				}
			}
			if diff := cmp.Diff(tt.want, tr.calls); diff != "" {
				t.Errorf("hook calls (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLifecycleCut: the blocks its user closes early, and the order CutAll
// ends them in.
func TestLifecycleCut(t *testing.T) {
	t.Parallel()
	var tr trace
	l := NewLifecycle(tr.hooks(false, false))
	for _, a := range []string{"c", "a", "b", "d"} {
		l.Delta(&event.Delta{Agent: a, Kind: event.Text})
	}
	l.CutOldest()
	l.CutAgent("b")
	l.CutAgent("nobody")
	if b, ok := l.Get("a", event.Text); !ok || b != "a/text" || l.Len() != 2 {
		t.Errorf("Get(a) = %q, %v; Len %d; want a/text, true; 2", b, ok, l.Len())
	}
	if _, ok := l.Get("c", event.Text); ok {
		t.Error("c is still open after CutOldest")
	}
	got := l.CutAll(strings.Compare)
	if diff := cmp.Diff([]string{"a/text", "d/text"}, got); diff != "" {
		t.Errorf("CutAll (-want +got):\n%s", diff)
	}
	want := []string{"open c/text", "open a/text", "open b/text", "open d/text", "cut c/text", "cut b/text", "cut a/text", "cut d/text"}
	if diff := cmp.Diff(want, tr.calls); diff != "" {
		t.Errorf("hook calls (-want +got):\n%s", diff)
	}
}

// TestLifecycleBounded: blocks that open and end leave nothing behind: the
// order kept of the open blocks stays within a few times their number.
func TestLifecycleBounded(t *testing.T) {
	t.Parallel()
	var tr trace
	l := NewLifecycle(tr.hooks(false, false))
	l.Delta(&event.Delta{Agent: "long", Kind: event.Text})
	for i := range 100_000 {
		a := strconv.Itoa(i)
		l.Delta(&event.Delta{Agent: a, Kind: event.Thinking})
		if i%3 == 0 {
			l.Event(&event.Error{Agent: a})
		} else {
			l.Event(&event.BlockEnd{Agent: a, Kind: event.Thinking})
		}
		tr.calls = tr.calls[:0]
		if len(l.order) > 2*l.open.len()+16 || l.open.len() != 1 {
			t.Fatalf("after %d blocks: %d open, order of %d", i+1, l.open.len(), len(l.order))
		}
	}
}

// TestEndAgentHookReusesSlot: when ending an agent's first block makes its
// hook end the second and start a block of another agent (which takes the
// second's slot), the agent's end leaves that new block open.
func TestEndAgentHookReusesSlot(t *testing.T) {
	t.Parallel()
	var tr trace
	h := tr.hooks(false, true)
	var l *Lifecycle[string]
	end := h.End
	h.End = func(b string, e *event.BlockEnd) {
		end(b, e)
		if b == "a/thinking" {
			l.Event(&event.BlockEnd{Agent: "a", Kind: event.Text})
			l.Event(&event.BlockStart{Agent: "b", Kind: event.Text})
		}
	}
	l = NewLifecycle(h)
	l.Event(&event.BlockStart{Agent: "a", Kind: event.Thinking})
	l.Event(&event.BlockStart{Agent: "a", Kind: event.Text})
	l.Event(&event.Error{Agent: "a"})
	if _, ok := l.Get("b", event.Text); !ok {
		t.Errorf("b's text block ended with a's blocks: %q", tr.calls)
	}
	want := []string{"open a/thinking", "open a/text", "cut a/thinking", "end a/text", "open b/text"}
	if diff := cmp.Diff(want, tr.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}
