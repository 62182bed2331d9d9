package gemini

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/emit/internal/hostile"
	"github.com/agentstream/agentstream/event"
)

// held counts the entries the encoder holds for tool calls and models.
func (e *Encoder) held() int {
	n := len(e.models)
	if e.called != nil {
		n += e.called.Len()
	}
	return n
}

// TestBounded feeds the hostile streams and counts what the encoder
// holds after each event: at most maxOpen calls waiting for a result and
// maxOpen models, each cap warned about once.
func TestBounded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		gen  func(i int) event.Event
		caps int // cap warnings wanted
	}{
		{"one delta each of N agents", hostile.Agent, 0},
		{"N open tool calls", hostile.Call, 1},
		{"N turns of as many models", func(i int) event.Event {
			if i%2 == 0 {
				return &event.TurnStart{Model: "m" + strconv.Itoa(i)}
			}
			return &event.TurnEnd{Usage: &event.Usage{InputTokens: 1, Has: event.HasInput}}
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var warnings []string
			e := NewEncoder(io.Discard, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
			peak := hostile.Feed(t, e, hostile.N, tt.gen, e.held)
			if peak > maxOpen {
				t.Errorf("held %d entries; want at most %d", peak, maxOpen)
			}
			caps := 0
			for _, w := range warnings {
				if strings.Contains(w, "more than") {
					caps++
				}
			}
			if caps != tt.caps {
				t.Errorf("%d cap warnings, want %d: %q", caps, tt.caps, warnings)
			}
		})
	}
}

// TestManyModels: the result of a run whose turns name more models than
// are kept names none, rather than some whose usage does not add up.
func TestManyModels(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := NewEncoder(&out, nil)
	if err := e.Encode(&event.SessionStart{Model: "m"}); err != nil {
		t.Fatal(err)
	}
	for i := range maxOpen + 1 {
		for _, ev := range []event.Event{&event.TurnStart{Model: "m" + strconv.Itoa(i)}, &event.TurnEnd{Usage: &event.Usage{InputTokens: 1, Has: event.HasInput}}} {
			if err := e.Encode(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := e.Encode(&event.RunEnd{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, `"type":"result"`) || strings.Contains(last, `"models"`) || !strings.Contains(last, `"input_tokens":1025`) {
		t.Errorf("result %.300s", last)
	}
}
