package jsonenv

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// held counts the entries the encoder keeps.
func (e *Encoder) held() int { return e.open.Len() + e.cut.Len() }

// TestBoundedState feeds the encoder hostile streams, generated event by
// event, never held: boundedN agents that each open a block and never
// end it (a1m.jsonl of docs/limits.md), the same cut short by an error
// each, and boundedN tool calls of one agent. It holds at most its cap.
func TestBoundedState(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		events func(i int) []event.Event
	}{
		{"one open block each of N agents", func(i int) []event.Event {
			a := "a" + strconv.Itoa(i)
			return []event.Event{&event.BlockStart{Agent: a, Kind: event.Text}, &event.Delta{Agent: a, Kind: event.Text, Text: "x"}}
		}},
		{"N agents each cut short by an error", func(i int) []event.Event {
			a := "a" + strconv.Itoa(i)
			return []event.Event{&event.Delta{Agent: a, Kind: event.Text, Text: "x"}, &event.Error{Agent: a, Message: "overloaded"}}
		}},
		{"N open tool calls", func(i int) []event.Event {
			return []event.Event{&event.ToolCall{Agent: "a", ID: "c" + strconv.Itoa(i), Name: "Read", Input: []byte(`{}`)}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var warned []string
			e := NewEncoder(io.Discard, &Config{NDJSON: true, Warn: func(err error) { warned = append(warned, err.Error()) }})
			peak := 0
			for i := range boundedN {
				for _, ev := range tt.events(i) {
					if err := e.Encode(ev); err != nil {
						t.Fatal(err)
					}
				}
				peak = max(peak, e.held())
			}
			if limit := 2 * openset.DefaultMax; peak > limit {
				t.Errorf("the encoder held %d entries for %d; want at most %d", peak, boundedN, limit)
			}
			if tt.name == "one open block each of N agents" {
				if err := e.Close(); err == nil {
					t.Errorf("Close() = nil, want the blocks left open (and let go of) reported")
				}
				if want := "jsonenv cannot carry more than 1024 streamed blocks open at once (the oldest let go of stays open: the output ends as a cut one)"; len(warned) == 0 || warned[0] != want {
					t.Errorf("warnings %q, want %q first", warned, want)
				}
			}
		})
	}
}

// TestTypeHeadsBounded: the heads typeHead keeps for reuse are of short
// types only, whatever the block kinds the events bring (an unknown
// kind's type comes from its source, as long as it is), and each event
// still gets its own type.
func TestTypeHeadsBounded(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	e := NewEncoder(&out, &Config{NDJSON: true})
	for i := range 2 * maxTypeHeads {
		kind := event.BlockKind(strings.Repeat("k", 1000) + strconv.Itoa(i))
		for _, ev := range []event.Event{&event.BlockStart{Agent: "a", Kind: kind}, &event.Delta{Agent: "a", Kind: kind, Text: "x"}} {
			if err := e.Encode(ev); err != nil {
				t.Fatal(err)
			}
		}
		if want := `{"type":"` + string(kind) + `"`; !strings.Contains(out.String(), want) {
			t.Fatalf("no envelope of type %.20q...", kind)
		}
	}
	for _, h := range e.typeHeads {
		if len(h[0]) >= 1000 {
			t.Errorf("kept the head of a type of %d bytes for reuse", len(h[0]))
		}
	}
}
