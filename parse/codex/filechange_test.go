package codex

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestFileChangeStarted: a file_change's item.started is an event of its
// own, so that codex -> codex keeps the line.
func TestFileChangeStarted(t *testing.T) {
	t.Parallel()
	in := `{"type":"thread.started","thread_id":"th"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_0","type":"file_change","changes":[{"path":"/w/a","kind":"add"}],"status":"in_progress"}}
{"type":"item.updated","item":{"id":"item_0","type":"file_change","changes":[{"path":"/w/a","kind":"add"}],"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_0","type":"file_change","changes":[{"path":"/w/a","kind":"add"}],"status":"completed"}}
{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}
`
	evs, errs := decodeAll(strings.NewReader(in), nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	changes := []event.Change{{Path: "/w/a", Kind: "add"}}
	want := []event.Event{
		&event.SessionStart{Agent: "th", SessionID: "th"},
		&event.TurnStart{Agent: "th"},
		&event.FileChange{Agent: "th", ID: "item_0", Changes: changes, Status: "in_progress"},
		&event.FileChange{Agent: "th", ID: "item_0", Changes: changes, Status: "completed"},
		&event.TurnEnd{Agent: "th", Usage: &event.Usage{InputTokens: 1, OutputTokens: 1, Has: event.HasTokens | event.HasCacheRead}},
	}
	if diff := cmp.Diff(want, evs); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
