package openaichat

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// TestCutWhileSubagentRuns: a completion whose tool call a subagent
// runs is not over for the run: the subagent's events and the main
// agent's notices leave its [DONE] waiting, so a cut then leaves the
// completion without it; the main agent going on, or the stream's end,
// writes it.
func TestCutWhileSubagentRuns(t *testing.T) {
	t.Parallel()
	in := []event.Event{
		&event.TurnStart{Agent: "m", MessageID: "c1", Model: "x"},
		&event.ToolCall{Agent: "m", ID: "t1", Name: "Task", Input: json.RawMessage(`{}`)},
		&event.TurnEnd{Agent: "m", MessageID: "c1", StopReason: "tool_use"},
		&event.Notice{Agent: "m", Kind: "task_progress", Message: "running"},
		&event.TurnStart{Agent: "t1", MessageID: "r2"},
		&event.Delta{Agent: "t1", Kind: event.Text, Text: "sub"},
	}
	for _, tc := range []struct {
		name string
		more event.Event
		cut  bool
		done bool // [DONE] written
	}{
		{"cut", nil, true, false},
		{"closed", nil, false, true},
		{"main goes on", &event.ToolResult{Agent: "m", ID: "t1"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			enc := NewEncoder(&out, &Config{Agent: "m"})
			evs := append([]event.Event(nil), in...)
			if tc.more != nil {
				evs = append(evs, tc.more)
			}
			for _, ev := range evs {
				if err := enc.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			err := event.End(enc, tc.cut)
			if tc.cut != errors.Is(err, event.ErrTruncated) {
				t.Errorf("end (cut %v): %v", tc.cut, err)
			}
			if got := strings.Contains(out.String(), "data: [DONE]\n"); got != tc.done {
				t.Errorf("[DONE] written: %v, want %v\n%s", got, tc.done, out.String())
			}
		})
	}
}
