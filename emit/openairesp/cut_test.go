package openairesp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	wire "github.com/agentstream/agentstream/internal/wire/openai/respwire"
)

// TestCutWhileOthersRun: a response whose turn the source ended is not
// over for the run while a client tool call of it waits for its result
// (a subagent runs it) or another choice of its completion streams: a
// cut then leaves it without its final event; the stream's end, the main
// agent going on, or the other choices' ends write it.
func TestCutWhileOthersRun(t *testing.T) {
	t.Parallel()
	subagent := []event.Event{
		&event.TurnStart{Agent: "m", MessageID: "r1", Model: "x"},
		&event.ToolCall{Agent: "m", ID: "t1", Name: "Task", Input: json.RawMessage(`{}`)},
		&event.TurnEnd{Agent: "m", MessageID: "r1", StopReason: "tool_use"},
		&event.Notice{Agent: "m", Kind: "task_progress", Message: "running"},
		&event.TurnStart{Agent: "t1", MessageID: "r2"},
		&event.Delta{Agent: "t1", Kind: event.Text, Text: "sub"},
	}
	choices := []event.Event{
		&event.TurnStart{Agent: "m", MessageID: "c1"},
		&event.TurnStart{Agent: "m/choice-1", MessageID: "c1"},
		&event.Delta{Agent: "m", Kind: event.Text, Text: "heads"},
		&event.Delta{Agent: "m/choice-1", Kind: event.Text, Text: "tails"},
		&event.TurnEnd{Agent: "m", MessageID: "c1", StopReason: "end_turn"},
	}
	for _, tc := range []struct {
		name   string
		in     []event.Event
		more   event.Event // an event that ends the wait, or nil
		cut    bool
		closed bool // response.completed written
	}{
		{"subagent cut", subagent, nil, true, false},
		{"subagent closed", subagent, nil, false, true},
		{"subagent then main", subagent, &event.ToolResult{Agent: "m", ID: "t1"}, true, true},
		{"choices cut", choices, nil, true, false},
		{"choices closed", choices, nil, false, true},
		{"choices ended", choices, &event.TurnEnd{Agent: "m/choice-1", MessageID: "c1", StopReason: "end_turn"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			enc := NewEncoder(&out, &Config{Agent: "m"})
			in := tc.in
			if tc.more != nil {
				in = append(append([]event.Event(nil), in...), tc.more)
			}
			for _, ev := range in {
				if err := enc.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			err := event.End(enc, tc.cut)
			if tc.cut != errors.Is(err, event.ErrTruncated) {
				t.Errorf("end (cut %v): %v", tc.cut, err)
			}
			if got := strings.Contains(out.String(), "event: "+wire.EvCompleted+"\n"); got != tc.closed {
				t.Errorf("response.completed written: %v, want %v\n%s", got, tc.closed, out.String())
			}
		})
	}
}
