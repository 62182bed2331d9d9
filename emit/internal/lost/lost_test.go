package lost

import (
	"testing"

	"github.com/agentstream/agentstream/event"
)

func TestKind(t *testing.T) {
	for _, c := range []struct {
		ev   event.Event
		want string
	}{
		{&event.Notice{}, "notices"},
		{&event.AwaitingTools{}, "awaiting tools"},
		{&event.Files{}, "generated files"},
		{&event.FileChange{}, "file changes"},
		{&event.TodoList{}, "todo lists"},
		{&event.Unknown{}, "events of type *event.Unknown"},
	} {
		if got := Kind(c.ev); got != c.want {
			t.Errorf("Kind(%T) = %q, want %q", c.ev, got, c.want)
		}
	}
}

// TestReasoningTokens: only a usage that counts reasoning tokens, on the
// events that carry one.
func TestReasoningTokens(t *testing.T) {
	t.Parallel()
	some := &event.Usage{ReasoningTokens: 3}
	none := &event.Usage{OutputTokens: 3}
	for _, tc := range []struct {
		ev   event.Event
		want bool
	}{
		{&event.TurnStart{Usage: some}, true},
		{&event.TurnEnd{Usage: some}, true},
		{&event.RunEnd{Usage: some}, true},
		{&event.TurnEnd{Usage: none}, false},
		{&event.RunEnd{}, false},
		{&event.Delta{Text: "x"}, false},
	} {
		if got := ReasoningTokens(tc.ev); got != tc.want {
			t.Errorf("ReasoningTokens(%T %+v) = %v, want %v", tc.ev, tc.ev, got, tc.want)
		}
	}
}
