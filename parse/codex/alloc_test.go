package codex

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
)

// TestEventsKept: an event kept by the consumer stays as it was handed
// out while the decoder reads on, though its struct comes from a batch
// and its strings and raw JSON from a slab shared with later events. The
// corpus is read many times over as one stream, so that batches and
// slabs fill up and are replaced many times.
func TestEventsKept(t *testing.T) {
	t.Parallel()
	var in bytes.Buffer
	for range 40 {
		for _, f := range samples(t) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			in.Write(b)
			if len(b) > 0 && b[len(b)-1] != '\n' {
				in.WriteByte('\n')
			}
		}
	}
	d := NewDecoder(&in, nil)
	var kept []event.Event
	var when []string // each event as it was handed out
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if ev == nil {
			continue
		}
		kept = append(kept, ev)
		when = append(when, string(eventtest.Dump([]eventtest.Item{{Event: ev}})))
		// A consumer writing into a raw field must not reach another
		// event's bytes.
		switch ev := ev.(type) {
		case *event.ToolCall:
			_ = append(ev.Input, strings.Repeat("x", 64)...)
		case *event.Error:
			_ = append(ev.Raw, strings.Repeat("x", 64)...)
		}
	}
	if len(kept) < 1000 {
		t.Fatalf("only %d events: the input is too short to fill batches and slabs", len(kept))
	}
	var now []string
	for _, ev := range kept {
		now = append(now, string(eventtest.Dump([]eventtest.Item{{Event: ev}})))
	}
	if diff := cmp.Diff(when, now); diff != "" {
		t.Errorf("kept events changed (-handed out +at the end):\n%s", diff)
	}
	seen := map[event.Event]bool{}
	for i, ev := range kept {
		if seen[ev] {
			t.Fatalf("event %d handed out twice: %s", i, when[i])
		}
		seen[ev] = true
	}
}

// TestRepeatedStrings: a string Codex writes again on the next line that
// has one is made once (the message of an error line and of its
// turn.failed, an item's id on its two lines).
func TestRepeatedStrings(t *testing.T) {
	t.Parallel()
	in := `{"type":"thread.started","thread_id":"th"}
{"type":"turn.started"}
{"type":"error","message":"overloaded, \"retry\""}
{"type":"turn.failed","error":{"message":"overloaded, \"retry\""}}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a\n","exit_code":0,"status":"completed"}}
`
	var msg, failed, call, result string
	for _, it := range eventtest.Collect(NewDecoder(strings.NewReader(in), nil)) {
		switch ev := it.Event.(type) {
		case *event.Error:
			msg = ev.Message
		case *event.TurnEnd:
			failed = ev.Error
		case *event.ToolCall:
			call = ev.ID
		case *event.ToolResult:
			result = ev.ID
		}
	}
	if msg != `overloaded, "retry"` || failed != msg || unsafe.StringData(failed) != unsafe.StringData(msg) {
		t.Errorf("error %q and turn.failed %q are not one string", msg, failed)
	}
	if call != "item_1" || result != call || unsafe.StringData(result) != unsafe.StringData(call) {
		t.Errorf("the ids %q and %q of an item's two lines are not one string", call, result)
	}
}
