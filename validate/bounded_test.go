package validate

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// TestBoundedState feeds the GEN rules hostile streams, generated event by
// event (never held), and counts the entries the tracker holds after each:
// however many agents, calls or turns the stream opens, at most MaxOpen of
// each kind, and each cap is reported once.
func TestBoundedState(t *testing.T) {
	agent := func(i int) string { return "a" + strconv.Itoa(i) }
	tests := []struct {
		name   string
		events func(i int) []event.Event
		caps   []string // the rules whose cap is reported
		open   string   // the rule of what is left open at the end, reported at most MaxOpen times
	}{
		{"one delta each of N agents", func(i int) []event.Event {
			return []event.Event{&event.Delta{Agent: agent(i), Kind: event.Text, Text: "x"}}
		}, []string{MetaInitFirst}, ""},
		{"N agents each with a turn open", func(i int) []event.Event {
			return []event.Event{&event.TurnStart{Agent: agent(i)}}
		}, []string{MetaInitFirst, TurnClosed}, TurnClosed},
		{"N open tool calls of one agent", func(i int) []event.Event {
			return []event.Event{&event.ToolCall{ID: "c" + strconv.Itoa(i), Name: "Read", Input: json.RawMessage(`{}`)}}
		}, []string{ToolAnswered}, ToolAnswered},
		{"N ids listed as pending, never called", func(i int) []event.Event {
			return []event.Event{&event.AwaitingTools{Tools: []event.PendingTool{{ID: "c" + strconv.Itoa(i)}}}}
		}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := &limiter{max: -1, n: map[string]int{}, left: map[string]int{}}
			v := &checker{cfg: &Config{Source: "x", Format: testFormat("test")}, lim: lim}
			v.t.init(v)
			peak := 0
			for i := range boundedN {
				for _, ev := range tt.events(i) {
					v.observe(ev, pos{i + 1, 1})
				}
				peak = max(peak, v.t.held())
			}
			v.t.end()
			if limit := 7 * MaxOpen; peak > limit {
				t.Errorf("the tracker held %d entries for %d agents; want at most %d", peak, boundedN, limit)
			}
			caps, open := map[string]int{}, 0
			for _, x := range v.out {
				switch {
				case strings.HasPrefix(x.Message, "more than "):
					caps[x.Rule]++
				case x.Rule == tt.open:
					open++
				default:
					t.Errorf("unexpected violation %s", dump([]Violation{x}))
				}
			}
			for _, r := range tt.caps {
				if caps[r] != 1 {
					t.Errorf("the cap of %s was reported %d times, want once", r, caps[r])
				}
			}
			if len(caps) != len(tt.caps) {
				t.Errorf("caps reported: %v, want those of %v", caps, tt.caps)
			}
			if tt.open != "" && open != MaxOpen {
				t.Errorf("%d left open reported, want %d (the cap)", open, MaxOpen)
			}
		})
	}
}

// TestCapsKeepRules: past a cap, what is still held is checked as before:
// the last call without a result is reported, a result that comes for a
// call let go of is no violation.
func TestCapsKeepRules(t *testing.T) {
	var items []any
	for i := range MaxOpen + 1 {
		items = append(items, &event.ToolCall{ID: "c" + strconv.Itoa(i), Name: "Read", Input: json.RawMessage(`{}`)})
	}
	items = append(items, &event.ToolResult{ID: "c0"})
	for i := 2; i < MaxOpen; i++ {
		items = append(items, &event.ToolResult{ID: "c" + strconv.Itoa(i)})
	}
	got := eventsCheck(t, items...)
	want := []string{
		"GEN007: more than 1024 tool calls wait for a result; forgot the oldest, c0 (Read) of the main agent: whether it is answered is not checked (later ones are not reported)",
		"GEN007: tool call c1 (Read) of the main agent has no result and is not pending",
		"GEN007: tool call c1024 (Read) of the main agent has no result and is not pending",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMaxPerRule: a violation on every event is listed MaxPerRule times,
// then counted in one more.
func TestMaxPerRule(t *testing.T) {
	var items []any
	for i := range 1500 {
		items = append(items, &event.ToolCall{ID: "c" + strconv.Itoa(i), Name: "Read", Input: json.RawMessage(`1`), Server: true})
	}
	got := eventsCheck(t, items...)
	if len(got) != DefaultMaxPerRule+1 {
		t.Fatalf("%d violations, want %d", len(got), DefaultMaxPerRule+1)
	}
	if want := "GEN008: and 500 more like this (not listed: more than 1000)"; got[len(got)-1] != want {
		t.Errorf("last violation %q, want %q (first %q)", got[len(got)-1], want, got[0])
	}
}

// held returns the number of entries the tracker holds.
func (t *tracker) held() int {
	return len(t.agents) + t.seen.Len() + len(t.calls) + t.open.Len() + t.pend.Len() + len(t.turns) + t.opened.Len()
}
