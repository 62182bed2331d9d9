package agentmeta

import (
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// TestTurnsBounded feeds the session starts of many agents, one run each
// (as a Codex stream of many short runs does), and counts the session
// models Turns keeps: at most the cap, the latest agents'.
func TestTurnsBounded(t *testing.T) {
	t.Parallel()
	var turns Turns
	var warned []string
	warn := func(what string) { warned = append(warned, what) }
	const n = 200_000
	for i := range n {
		id := "a" + strconv.Itoa(i)
		turns.Report(&event.SessionStart{Agent: id, Model: "m"}, warn)
		turns.Report(&event.TurnStart{Agent: id, Model: "m"}, warn)
	}
	if got, max := turns.model.Len(), openset.DefaultMax; got > max {
		t.Fatalf("Turns keeps %d agents' session models, want at most %d", got, max)
	}
	if len(warned) != 0 {
		t.Errorf("turns of the session's own model warned: %q", warned)
	}
	// The latest agent is still known: a model of its messages that
	// differs from its session's is a loss.
	turns.Report(&event.TurnStart{Agent: "a" + strconv.Itoa(n-1), Model: "other"}, warn)
	if len(warned) != 1 {
		t.Errorf("a message model other than the session's: warned %q, want one warning", warned)
	}
}
