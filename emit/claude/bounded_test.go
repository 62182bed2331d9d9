package claude

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/emit/internal/hostile"
	"github.com/agentstream/agentstream/event"
)

// held counts the entries the encoder holds for its agents and their
// tool calls.
func (e *Encoder) held() int {
	n := len(e.agents) + len(e.order)
	if e.subs != nil {
		n += e.subs.Len() + e.idle.Len()
	}
	for _, a := range e.agents {
		if a.calls != nil {
			n += a.calls.Len()
		}
		n += len(a.names)
	}
	return n
}

// capWarnings returns the warnings about a cap among ws, which must
// each be given once.
func capWarnings(t *testing.T, ws []string) []string {
	t.Helper()
	var caps []string
	for _, w := range ws {
		if strings.Contains(w, "more than") {
			caps = append(caps, w)
		}
	}
	return caps
}

// TestBoundedAgents: one text delta for each of hostile.N agents, none
// ended, is at most maxAgents subagents held, the cap warned about once.
func TestBoundedAgents(t *testing.T) {
	t.Parallel()
	var warnings []string
	e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	peak := 0
	for i := range hostile.N {
		if err := e.Encode(hostile.Agent(i)); err != nil {
			t.Fatal(err)
		}
		// The count walks the agents held: every 1000th event.
		if i%1000 == 0 || i == hostile.N-1 {
			peak = max(peak, e.held())
		}
	}
	if limit := 5*(maxAgents+1) + 16; peak > limit {
		t.Errorf("held %d entries for %d agents; want at most %d", peak, hostile.N, limit)
	}
	if caps := capWarnings(t, warnings); len(caps) != 1 {
		t.Errorf("cap warnings %q, want one", caps)
	}
	if err := e.Close(); err == nil {
		t.Error("Close of open blocks: no error")
	}
}

// TestBoundedCalls: hostile.N tool calls of one agent, never answered,
// are at most maxCalls remembered, by the encoder and its Streamer: once
// the last maxCalls have their results, the turn is over.
func TestBoundedCalls(t *testing.T) {
	t.Parallel()
	var warnings []string
	e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	peak := hostile.Feed(t, e, hostile.N, hostile.Call, e.held)
	if limit := 2*maxCalls + 2; peak > limit {
		t.Errorf("held %d entries for %d calls; want at most %d", peak, hostile.N, limit)
	}
	if caps := capWarnings(t, warnings); len(caps) != 1 {
		t.Errorf("cap warnings %q, want one", caps)
	}
	main := e.mainAgent
	for i := hostile.N - maxCalls; i < hostile.N; i++ {
		if err := e.Encode(&event.ToolResult{ID: hostile.CallID(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if main.st.InTurn() {
		t.Error("the turn is still open after the results of the calls remembered: the Streamer waits for calls forgotten")
	}
	if err := e.Close(); err != nil {
		t.Error(err)
	}
}

// TestLetGo: past maxAgents subagents, one with nothing open is let go
// of before the first; one with a block open has what arrived written
// marked aborted; seen again, it starts a new message with a new id.
func TestLetGo(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	var warnings []string
	e := NewEncoder(&out, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	busy := func(a, text string) []event.Event {
		return []event.Event{&event.Delta{Agent: a, Kind: event.Text, Text: text}}
	}
	evs := []event.Event{&event.SessionStart{Agent: "main", SessionID: "s"}}
	evs = append(evs, busy("s0", "first")...)
	evs = append(evs, &event.TurnStart{Agent: "q"}, &event.Delta{Agent: "q", Kind: event.Text, Text: "q"},
		&event.BlockEnd{Agent: "q", Kind: event.Text}, &event.TurnEnd{Agent: "q"})
	for i := 1; i < maxAgents-1; i++ {
		evs = append(evs, busy("s"+strconv.Itoa(i), "x")...)
	}
	for _, ev := range evs {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if e.subs.Len() != maxAgents {
		t.Fatalf("%d subagents held, want %d", e.subs.Len(), maxAgents)
	}
	encode := func(evs ...event.Event) {
		t.Helper()
		for _, ev := range evs {
			if err := e.Encode(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	encode(busy("new1", "x")...)
	if e.agents["q"] != nil || e.agents["s0"] == nil {
		t.Fatalf("let go of the wrong one: q held %v, s0 held %v", e.agents["q"] != nil, e.agents["s0"] != nil)
	}
	first := e.agents["s0"].st.Pending
	m, _, _ := first()
	out.Reset()
	encode(busy("new2", "x")...)
	if e.agents["s0"] != nil {
		t.Fatal("s0 still held past the cap with no agent quiet")
	}
	aborted := out.String()
	if !strings.Contains(aborted, `"text":"first"`) || !strings.Contains(aborted, `"aborted":true`) ||
		!strings.Contains(aborted, `"parent_tool_use_id":"s0"`) || !strings.Contains(aborted, m.ID) {
		t.Errorf("s0's open block let go of: %s", aborted)
	}
	encode(busy("s0", "again")...)
	m2, _, _ := e.agents["s0"].st.Pending()
	if m2.ID == m.ID || m2.ID == "" {
		t.Errorf("s0 seen again: message id %q, its first message's %q", m2.ID, m.ID)
	}
	if caps := capWarnings(t, warnings); len(caps) != 1 {
		t.Errorf("cap warnings %q, want one", caps)
	}
}
