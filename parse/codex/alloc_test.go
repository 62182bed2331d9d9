package codex

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

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
