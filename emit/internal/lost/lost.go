// Package lost names, for an encoder's event.Losses report, what its
// format cannot carry: events of a kind, reasoning token counts.
package lost

import (
	"fmt"

	"github.com/agentstream/agentstream/event"
)

// Kind names what ev, an event of a kind an encoder's format cannot
// carry, held: "notices", "todo lists", ..., else "events of type
// *event.X".
func Kind(ev event.Event) string {
	switch ev.(type) {
	case *event.Notice:
		return "notices"
	case *event.AwaitingTools:
		return "awaiting tools"
	case *event.Files:
		return "generated files"
	case *event.FileChange:
		return "file changes"
	case *event.TodoList:
		return "todo lists"
	}
	return fmt.Sprintf("events of type %T", ev)
}

// ReasoningTokens reports whether ev carries a usage (a turn's start or
// end, a run's end) that counts reasoning tokens: the count a target
// whose usage has no field for it (the Messages API's, stream-json's)
// loses.
func ReasoningTokens(ev event.Event) bool {
	var u *event.Usage
	switch ev := ev.(type) {
	case *event.TurnStart:
		u = ev.Usage
	case *event.TurnEnd:
		u = ev.Usage
	case *event.RunEnd:
		u = ev.Usage
	}
	return u != nil && u.ReasoningTokens != 0
}
