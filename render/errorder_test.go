package render

import (
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// TestErrorAfterInterruptedBlock: an error that arrives while a block is
// open comes after that block's text, which is marked truncated, in every
// view, as the input has them.
func TestErrorAfterInterruptedBlock(t *testing.T) {
	t.Parallel()
	evs := seq(
		&event.SessionStart{Agent: mainID, Model: "m"},
		&event.BlockStart{Agent: mainID, Kind: event.Thinking},
		&event.Delta{Agent: mainID, Kind: event.Thinking, Text: "pondering"},
		&event.BlockStart{Agent: mainID, Kind: event.Text},
		&event.Delta{Agent: mainID, Kind: event.Text, Text: "Hello partial"},
		&event.Error{Agent: mainID, Type: "RuntimeError", Message: "boom", Fatal: true},
	)
	for _, v := range views {
		got := visible(renderEvents(t, evs, v.o))
		think, text, errAt := strings.Index(got, "pondering"), strings.Index(got, "Hello partial"), strings.Index(got, "boom")
		if think < 0 || text < 0 || errAt < 0 || !(think < text && text < errAt) {
			t.Errorf("%s: want thinking, then text, then the error:\n%s", v.ext, got)
		}
		if !strings.Contains(got[:errAt], "truncated") {
			t.Errorf("%s: the interrupted block is not marked truncated before the error:\n%s", v.ext, got)
		}
	}
}
