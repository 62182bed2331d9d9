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
