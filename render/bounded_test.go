package render

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// held returns the calls and queued items the transcript holds.
func (t *Transcript) held() int {
	n := len(t.calls) + t.waiting
	for _, a := range t.order {
		n += len(a.pending) + len(a.queue)
	}
	return n
}

// TestBoundedCalls feeds a transcript a million tool calls that never get
// a result, generated one by one, and counts what it holds (every 256
// calls): at most a few entries per call for MaxOpenCalls calls, in both
// modes, the cap reported once.
func TestBoundedCalls(t *testing.T) {
	for _, live := range []bool{false, true} {
		t.Run("live="+strconv.FormatBool(live), func(t *testing.T) {
			tr := NewTranscript(io.Discard, Options{Live: live})
			peak, reported := 0, 0
			for i := range boundedCalls {
				err := tr.Event(&event.ToolCall{ID: "c" + strconv.Itoa(i), Name: "Read", Input: json.RawMessage(`{}`)})
				switch {
				case errors.Is(err, ErrTooManyCalls):
					reported++
				case err != nil:
					t.Fatal(err)
				}
				if i%256 == 0 || i == boundedCalls-1 {
					peak = max(peak, tr.held())
				}
			}
			tr.Close()
			if limit := 4 * MaxOpenCalls; peak > limit {
				t.Errorf("the transcript held %d for %d open calls; want at most %d", peak, boundedCalls, limit)
			}
			if reported != 1 {
				t.Errorf("the cap was reported %d times, want once", reported)
			}
		})
	}
}
