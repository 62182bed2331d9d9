package anthropic

import (
	"errors"
	"testing"

	"github.com/agentstream/agentstream/event"
)

var errFull = errors.New("disk full")

// fullAfter accepts n bytes, then fails every write.
type fullAfter struct {
	n      int
	failed bool
}

func (w *fullAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n, w.failed = 0, true
		return k, errFull
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriteErrorKept: a write that fails is reported by the call that
// made it and by every call after it, Cut's and Close's included (never
// a truncation in its place), wherever in the stream the writer fails.
func TestWriteErrorKept(t *testing.T) {
	t.Parallel()
	events := []event.Event{
		&event.TurnStart{MessageID: "msg_1", Model: "m"},
		&event.BlockStart{Kind: event.Text},
		&event.Delta{Kind: event.Text, Text: "hello"},
		&event.Delta{Kind: event.Text, Text: " world"},
		&event.Error{Message: "overloaded", Type: "overloaded_error", Fatal: true},
	}
	for _, end := range []string{"cut", "close"} {
		for n := 0; n < 1000; n += 7 {
			w := &fullAfter{n: n}
			e := NewEncoder(w, &Config{})
			failed := false
			for i, ev := range events {
				err := e.Encode(ev)
				if failed && !errors.Is(err, errFull) {
					t.Fatalf("%s, %d bytes: event %d after the write error returned %v", end, n, i, err)
				}
				failed = failed || errors.Is(err, errFull)
			}
			var err error
			if end == "cut" {
				err = e.Cut()
			} else {
				err = e.Close()
			}
			if w.failed && !errors.Is(err, errFull) {
				t.Errorf("%s, %d bytes: %s returned %v, want the write error", end, n, end, err)
			}
			if !w.failed && errors.Is(err, errFull) {
				t.Errorf("%s, %d bytes: %s returned the write error, but no write failed", end, n, end)
			}
		}
	}
}
