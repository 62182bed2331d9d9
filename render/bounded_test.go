package render

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// held returns the entries the transcript holds: per agent, per call and
// per message id.
func (t *Transcript) held() int {
	n := len(t.agents) + t.idle.Len() + t.busy.Len() + len(t.order) + len(t.roots) +
		len(t.calls) + t.waiting + t.live.Len() + t.counted.Len()
	for _, a := range t.order {
		n += len(a.pending) + len(a.queue) + len(a.held) + a.nopen
	}
	return n
}

// TestBoundedState feeds a transcript hostile streams, generated event by
// event, and counts what it holds (every 256 inputs): at most a few
// entries for each of MaxAgents agents and MaxOpenCalls calls, in both
// modes, each cap reported once.
func TestBoundedState(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		events func(i int) []event.Event
		err    error
	}{
		{"N agents, each with a block open", boundedAgents, func(i int) []event.Event {
			return []event.Event{&event.Delta{Agent: "a" + strconv.Itoa(i), Kind: event.Text, Text: "x"}}
		}, ErrTooManyAgents},
		{"N choices, each a turn of one block", boundedChoices, func(i int) []event.Event {
			id := "choice-" + strconv.Itoa(i)
			return []event.Event{
				&event.Delta{Agent: id, Kind: event.Text, Text: "x"},
				&event.BlockEnd{Agent: id, Kind: event.Text},
				&event.TurnEnd{Agent: id, MessageID: "m" + strconv.Itoa(i), StopReason: "stop"},
			}
		}, ErrTooManyAgents},
		{"N open tool calls of one agent", boundedCalls, func(i int) []event.Event {
			return []event.Event{&event.ToolCall{ID: "c" + strconv.Itoa(i), Name: "Read", Input: json.RawMessage(`{}`)}}
		}, ErrTooManyCalls},
		{"N turns of one agent", boundedChoices, func(i int) []event.Event {
			return []event.Event{&event.TurnEnd{MessageID: "m" + strconv.Itoa(i)}}
		}, nil},
		{"N notices of one agent", boundedChoices, func(i int) []event.Event {
			return []event.Event{&event.Notice{Kind: "n" + strconv.Itoa(i%2), Message: "m"}}
		}, nil},
	}
	for _, tt := range tests {
		for _, live := range []bool{false, true} {
			t.Run(tt.name+"/live="+strconv.FormatBool(live), func(t *testing.T) {
				tr := NewTranscript(io.Discard, Options{Live: live})
				peak, reported := 0, 0
				for i := range tt.n {
					for _, ev := range tt.events(i) {
						err := tr.Event(ev)
						switch {
						case tt.err != nil && errors.Is(err, tt.err):
							reported++
						case err != nil:
							t.Fatal(err)
						}
					}
					if i%256 == 0 || i == tt.n-1 {
						peak = max(peak, tr.held())
					}
				}
				if err := tr.Close(); err != nil && !errors.Is(err, event.ErrTruncated) {
					t.Fatal(err)
				}
				// Each agent kept (1024) is in agents, in a set, in order and
				// roots (which keep those let go of up to twice the agents
				// kept), and has a block open; and 4096 message ids. The
				// limit is in numbers, not the caps' names, so that raising
				// a cap fails it.
				if limit := 12 * 1024; peak > limit {
					t.Errorf("the transcript held %d entries for %d inputs; want at most %d", peak, tt.n, limit)
				}
				if want := min(1, boolInt(tt.err != nil)); reported != want {
					t.Errorf("the cap was reported %d times, want %d", reported, want)
				}
			})
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestManyAgentsKeepTheirText: past MaxAgents agents each streaming a
// block, the one let go of is the agent seen longest ago, never the agent
// of the event being read: every agent's text is printed (those let go of
// cut short), none goes to an agent already forgotten.
func TestManyAgentsKeepTheirText(t *testing.T) {
	t.Parallel()
	for _, live := range []bool{false, true} {
		var out strings.Builder
		tr := NewTranscript(&out, Options{Live: live})
		n := MaxAgents + 8
		for i := range n {
			err := tr.Event(&event.Delta{Agent: "a" + strconv.Itoa(i), Kind: event.Text, Text: "text-" + strconv.Itoa(i) + "."})
			if err != nil && !errors.Is(err, ErrTooManyAgents) {
				t.Fatal(err)
			}
		}
		if err := tr.Close(); !errors.Is(err, event.ErrTruncated) {
			t.Fatalf("Close: %v, want the blocks left open reported", err)
		}
		for i := range n {
			if s := "text-" + strconv.Itoa(i) + "."; !strings.Contains(out.String(), s) {
				t.Errorf("live=%v: %q is not in the transcript", live, s)
			}
		}
		if got, want := strings.Count(out.String(), "[truncated]"), n; got != want {
			t.Errorf("live=%v: %d blocks marked truncated, want %d", live, got, want)
		}
	}
}
