// Package lost names, for an encoder's event.Losses report, the events
// of a kind its format cannot carry.
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
