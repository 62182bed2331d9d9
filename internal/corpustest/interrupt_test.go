package corpustest

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// TestInterruptedBlock: a text block cut short by an Error (or abandoned,
// a Notice of Kind event.NoticeAbandoned) has no BlockEnd, and the next
// BlockStart of that agent and kind begins a new block. Every encoder
// writes such a run without reporting blocks left open, and its decoder
// reads the retry back as a block of its own, never joined to the
// interrupted text.
func TestInterruptedBlock(t *testing.T) {
	t.Parallel()
	const a = "main"
	cut := map[string]event.Event{
		"error":     &event.Error{Agent: a, Message: "overloaded", Type: "overloaded_error"},
		"abandoned": &event.Notice{Agent: a, Kind: event.NoticeAbandoned, Message: "retried"},
	}
	for _, f := range encoders() {
		for name, ev := range cut {
			t.Run(f.Name+"/"+name, func(t *testing.T) {
				t.Parallel()
				evs := []event.Event{
					&event.SessionStart{Agent: a, SessionID: a, Model: "m"},
					&event.TurnStart{Agent: a, MessageID: "msg_1", Model: "m"},
					&event.BlockStart{Agent: a, Kind: event.Text},
					&event.Delta{Agent: a, Kind: event.Text, Text: "Hal"},
					ev,
					&event.TurnStart{Agent: a, MessageID: "msg_2", Model: "m"},
					&event.BlockStart{Agent: a, Kind: event.Text},
					&event.Delta{Agent: a, Kind: event.Text, Text: "Whole answer"},
					&event.BlockEnd{Agent: a, Kind: event.Text},
					&event.TurnEnd{Agent: a, MessageID: "msg_2", StopReason: "end_turn"},
					&event.RunEnd{Agent: a, StopReason: "end_turn", Result: "Whole answer"},
				}
				var out bytes.Buffer
				enc := f.NewEncoder(&out, &format.Options{})
				for _, ev := range evs {
					if err := enc.Encode(ev); err != nil {
						t.Fatalf("Encode(%T): %v", ev, err)
					}
				}
				if err := enc.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
				var texts []string
				var cur *strings.Builder
				dec := f.NewDecoder(bytes.NewReader(out.Bytes()), &format.Options{Source: "out"})
				for {
					ev, err := dec.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						if errors.Is(err, event.ErrTruncated) {
							continue
						}
						t.Logf("read back: %v", err)
						continue
					}
					switch ev := ev.(type) {
					case *event.BlockStart:
						if ev.Kind == event.Text {
							cur = &strings.Builder{}
							texts = append(texts, "")
						}
					case *event.Delta:
						if ev.Kind == event.Text && cur != nil {
							cur.WriteString(ev.Text)
							texts[len(texts)-1] = cur.String()
						}
					}
				}
				if len(texts) == 0 || texts[len(texts)-1] != "Whole answer" {
					t.Errorf("text blocks read back %q: the last is not the retry's own\noutput:\n%s", texts, out.String())
				}
				if diff := cmp.Diff([]string{"Hal"}, texts[:max(len(texts)-1, 0)]); diff != "" && len(texts) > 1 {
					t.Errorf("text blocks before the retry (-want +got):\n%s", diff)
				}
			})
		}
	}
}
