package anthropic

import (
	"io"
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// TestBoundedState feeds the encoder hostile streams, generated event by
// event, never held: boundedN agents that each open a block (a1m.jsonl
// of docs/limits.md; the body is the first agent's), and boundedN client
// and MCP tool calls of one message that never get a result
// (calls1m.jsonl), and boundedN thinking blocks of one message ended
// without a signature (kept for a late one). It holds at most its cap.
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
		{"N open tool calls", func(i int) []event.Event {
			return []event.Event{&event.ToolCall{ID: "c" + strconv.Itoa(i), Name: "Read", Input: []byte(`{}`)}}
		}},
		{"N open MCP tool calls", func(i int) []event.Event {
			return []event.Event{&event.ToolCall{ID: "m" + strconv.Itoa(i), Name: "q", MCPServer: "s", Input: []byte(`{}`)}}
		}},
		{"N unsigned thinking blocks", func(i int) []event.Event {
			return []event.Event{&event.BlockStart{Kind: event.Thinking}, &event.BlockEnd{Kind: event.Thinking}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var warned []string
			e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warned = append(warned, err.Error()) }})
			e.Encode(&event.TurnStart{MessageID: "m"})
			peak := 0
			for i := range boundedN {
				for _, ev := range tt.events(i) {
					if err := e.Encode(ev); err != nil {
						t.Fatal(err)
					}
				}
				peak = max(peak, e.st.HeldCalls(), e.st.HeldUnsigned(), len(e.unsigned))
			}
			if limit := 2 * openset.DefaultMax; peak > limit {
				t.Errorf("the encoder held %d entries for %d; want at most %d", peak, boundedN, limit)
			}
			if tt.name == "N open tool calls" || tt.name == "N open MCP tool calls" {
				want := "anthropic cannot carry more than 1024 tool calls open at once (the oldest let go of: its result no longer ends its message)"
				found := false
				for _, w := range warned {
					found = found || w == want
				}
				if !found {
					t.Errorf("warnings %q, want %q", warned, want)
				}
			}
		})
	}
}
