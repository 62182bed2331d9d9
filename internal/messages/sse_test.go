package messages_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/messages"
	"github.com/agentstream/agentstream/parse/anthropic"
)

// TestWriterAsEvent: a Streamer writing to W writes each stream event as
// the SSE message of what a Streamer with Event is given, byte for byte,
// whatever room W has left (a small W holds few messages whole), and
// HoldStop's message_stop where EndTurn writes it.
func TestWriterAsEvent(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../testdata/anthropic/*.sse")
	if err != nil || len(files) == 0 {
		t.Fatal("no recordings", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var evs []event.Event
		d := anthropic.NewDecoder(bytes.NewReader(data), nil)
		for {
			ev, err := d.Next()
			if err != nil {
				break // a bad recording's events up to its error
			}
			evs = append(evs, ev)
		}
		var want bytes.Buffer
		var ev messages.Streamer
		ev.Event = func(typ string, data []byte) error {
			want.WriteString("event: " + typ + "\ndata: " + string(data) + "\n\n")
			return nil
		}
		run(&ev, evs, false)
		if want.Len() == 0 {
			t.Fatalf("%s: no stream events", name)
		}
		for _, size := range []int{16, 200, 4096} {
			var got bytes.Buffer
			w := bufio.NewWriterSize(&got, size)
			s := messages.Streamer{W: w}
			run(&s, evs, true)
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), got.String()); diff != "" {
				t.Errorf("%s, W of %d bytes (-Event +W):\n%s", name, size, diff)
			}
		}
	}
}

// run gives s the events, ending each turn with HoldStop (and the
// message_stop held written at once) when hold, else with EndTurn.
func run(s *messages.Streamer, evs []event.Event, hold bool) {
	for _, ev := range evs {
		if te, ok := ev.(*event.TurnEnd); ok {
			if hold {
				s.HoldStop(te.StopReason, te.Usage)
				s.WriteStop()
			} else {
				s.EndTurn(te.StopReason, te.Usage)
			}
			continue
		}
		if handled, _ := s.Add(ev); !handled {
			s.Flush()
		}
	}
	s.EndTurn("", nil)
}
