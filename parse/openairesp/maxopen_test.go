package openairesp

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// TestMaxOpenItems: a response with more output items open at once (added,
// not done) than the cap keeps state for the cap only; the oldest (lowest
// output_index) are let go of, a tool call emitted with its arguments so far, and the first
// time is reported once, positioned.
func TestMaxOpenItems(t *testing.T) {
	t.Parallel()
	const n = openset.DefaultMax + 100
	events := []string{created}
	for i := range n {
		events = append(events,
			`{"type":"response.output_item.added","output_index":`+strconv.Itoa(i)+`,"item":{"id":"fc","type":"function_call","call_id":"c`+strconv.Itoa(i)+`","name":"f","arguments":""}}`,
			`{"type":"response.function_call_arguments.delta","output_index":`+strconv.Itoa(i)+`,"delta":"{}"}`)
	}
	events = append(events, completed)
	dec := NewDecoder(strings.NewReader(body(events...)), &Config{Source: "in"})
	most, calls := 0, 0
	var capped []string
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		switch {
		case errors.Is(err, event.ErrTooManyOpen):
			capped = append(capped, err.Error())
		case err != nil:
			t.Fatalf("Next: %v", err)
		}
		if tc, ok := ev.(*event.ToolCall); ok {
			if tc.ID != "c"+strconv.Itoa(calls) || string(tc.Input) != "{}" {
				t.Fatalf("tool call %d: %s %s", calls, tc.ID, tc.Input)
			}
			calls++
		}
		if r := dec.resp; r != nil {
			most = max(most, len(r.items))
		}
	}
	if most != openset.DefaultMax {
		t.Errorf("at most %d items held, want %d", most, openset.DefaultMax)
	}
	// Line of the 1025th output_item.added: 3 lines an event, created first.
	want := "in:" + strconv.Itoa(3*(1+2*openset.DefaultMax)+1) + ":1: more than 1024 output items open at once in response r1; let go of the oldest, output_index 0, a tool call, emitted with the arguments so far (later ones are not reported)"
	if len(capped) != 1 || capped[0] != want {
		t.Errorf("reports %q, want one %q", capped, want)
	}
	if calls != 100 {
		t.Errorf("%d tool calls emitted early, want 100", calls)
	}
}
