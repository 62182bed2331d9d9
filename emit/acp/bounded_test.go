package acp

import (
	"io"
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/parse/acp"
)

// held counts the entries the encoder keeps.
func (e *Encoder) held() int { return e.tools.Len() + e.fileCalls.Len() + len(e.open) }

// TestBoundedState feeds the encoder hostile streams, generated event by
// event, never held: boundedN agents that each open a block (a1m.jsonl of
// docs/limits.md; ACP writes the first agent's only), boundedN tool calls
// that never get a result (calls1m.jsonl) and boundedN file changes that
// never end. It holds at most its cap.
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
		{"N file changes never ended", func(i int) []event.Event {
			return []event.Event{&event.FileChange{ID: "f" + strconv.Itoa(i), Changes: []event.Change{{Path: "a.go", Kind: "update"}}, Status: "in_progress"}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var warned []string
			e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warned = append(warned, err.Error()) }})
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
			if tt.name == "N open tool calls" {
				want := "acp cannot carry more than 1024 tool calls or file changes open at once (the oldest let go of: a result that comes for it later announces its call again)"
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

// TestLetGoCallAnnounced: a result for a call let go of past the cap
// announces its call again, as for a call never written.
func TestLetGoCallAnnounced(t *testing.T) {
	t.Parallel()
	var out countWriter
	e := NewEncoder(&out, &Config{MaxOpen: 2})
	for _, ev := range []event.Event{
		&event.ToolCall{ID: "c1", Name: "Read"}, &event.ToolCall{ID: "c2", Name: "Read"}, &event.ToolCall{ID: "c3", Name: "Read"},
		&event.ToolResult{ID: "c3"}, &event.ToolResult{ID: "c1"},
	} {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	// Three calls, c1's announced again, two updates.
	if out.lines != 6 {
		t.Errorf("%d lines, want 6", out.lines)
	}
}

type countWriter struct{ lines int }

func (w *countWriter) Write(p []byte) (int, error) {
	for _, c := range p {
		if c == '\n' {
			w.lines++
		}
	}
	return len(p), nil
}

// TestBoundedHold: an ACP session's setup followed by boundedN updates
// that begin no prompt turn (available_commands_update, generated one by
// one): what is held before the first turn stays within MaxHeld, and all
// of it is written, in order, at Close.
func TestBoundedHold(t *testing.T) {
	t.Parallel()
	var out countWriter
	e := NewEncoder(&out, nil)
	meta := []byte(`{"initialize":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}},"session/new":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}}`)
	if err := e.Encode(&event.SessionStart{SessionID: "s", Meta: meta, MetaKind: acp.MetaKind}); err != nil {
		t.Fatal(err)
	}
	peak := 0
	for i := range boundedN {
		raw := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"c` + strconv.Itoa(i) + `","description":"d"}]}}}`)
		if err := e.Encode(&event.Unknown{Format: Name, Type: "available_commands_update", Raw: raw}); err != nil {
			t.Fatal(err)
		}
		peak = max(peak, e.before.Len())
	}
	if peak > DefaultMaxHeld {
		t.Errorf("the encoder held %d bytes before the first turn; want at most %d", peak, DefaultMaxHeld)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if want := 2 + boundedN; out.lines != want {
		t.Errorf("%d lines written, want %d", out.lines, want)
	}
}
