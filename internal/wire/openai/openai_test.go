package openai

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

func TestStopTables(t *testing.T) {
	t.Parallel()
	// Every canonical reason the tables know goes out and back.
	for _, stop := range []string{"", StopEndTurn, StopToolUse, StopMaxToks, StopRefusal} {
		f, ok := FinishFromStop(stop)
		if !ok || StopFromFinish(f) != stop {
			t.Errorf("chat: %s -> %s (%v) -> %s", stop, f, ok, StopFromFinish(f))
		}
		if stop == "" {
			continue // completed is the Responses API's only way to end, read as end_turn
		}
		st, inc, ok := StatusFromStop(stop)
		if back := StopFromStatus(st, inc, stop == StopToolUse); !ok || back != stop {
			t.Errorf("responses: %s -> %s/%s (%v) -> %s", stop, st, inc, ok, back)
		}
	}
	if f, ok := FinishFromStop("pause_turn"); ok || f != FinishUnknown {
		t.Errorf("pause_turn -> %s (%v), want %s and not ok", f, ok, FinishUnknown)
	}
	if got := StopFromFinish("weird"); got != "weird" {
		t.Errorf("unknown finish_reason = %q, want it kept", got)
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	u := Usage{Prompt: 100, Cached: 30, Output: 50, Reasoning: 20, Has: event.HasTokens | event.HasCacheRead | event.HasReasoning}
	want := &event.Usage{InputTokens: 70, CacheReadTokens: 30, OutputTokens: 50, ReasoningTokens: 20, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasReasoning}
	if diff := cmp.Diff(want, u.Event()); diff != "" {
		t.Errorf("Event (-want +got):\n%s", diff)
	}
	back, lost := FromEvent(want)
	if diff := cmp.Diff(u, back); diff != "" || lost {
		t.Errorf("FromEvent lost %v (-want +got):\n%s", lost, diff)
	}
	// Counts the source did not say stay unsaid, both ways.
	bare := Usage{Prompt: 100, Output: 50, Has: event.HasTokens}
	if diff := cmp.Diff(&event.Usage{InputTokens: 100, OutputTokens: 50, Has: event.HasTokens}, bare.Event()); diff != "" {
		t.Errorf("Event without details (-want +got):\n%s", diff)
	}
	if back, _ := FromEvent(bare.Event()); back != bare {
		t.Errorf("FromEvent without details = %+v, want %+v", back, bare)
	}
	// An output count alone: no prompt or total is made up (null).
	only := Usage{Output: 5, Has: event.HasOutput}
	if diff := cmp.Diff(&event.Usage{OutputTokens: 5, Has: event.HasOutput}, only.Event()); diff != "" {
		t.Errorf("Event of an output count alone (-want +got):\n%s", diff)
	}
	if p, o, tot := only.Tokens(); p != nil || o == nil || *o != 5 || tot != nil {
		t.Errorf("Tokens of an output count alone = %v %v %v, want nil 5 nil", p, o, tot)
	}
	if _, lost := FromEvent(&event.Usage{CacheWriteTokens: 1, Has: event.HasCacheWrite}); !lost {
		t.Error("cache writes are not reported lost")
	}
}

func TestSplit(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "short", strings.Repeat("é", 200), strings.Repeat("a", 63) + "€" + strings.Repeat("b", 300)} {
		var parts []string
		for rest := s; rest != ""; {
			var p string
			p, rest = Cut(rest)
			parts = append(parts, p)
		}
		if got := strings.Join(parts, ""); got != s {
			t.Errorf("pieces of %q join to %q", s, got)
		}
		for _, p := range parts {
			if len(p) > MaxDelta || !utf8.ValidString(p) {
				t.Errorf("piece %q: %d bytes, valid %v", p, len(p), utf8.ValidString(p))
			}
		}
	}
}
