package assemble

import (
	"fmt"

	"github.com/agentstream/agentstream/event"
)

// OpenLimit counts the blocks a stream holds open (one per agent and kind
// between its first BlockStart or Delta and its BlockEnd), for a consumer
// that keeps state per open block and cannot close one early, as the
// Assembler does: the text transcript. It holds at most max keys.
type OpenLimit struct {
	max  int
	open map[openKey]struct{}
}

// NewOpenLimit returns a limit of max open blocks (DefaultMaxOpen if <= 0).
func NewOpenLimit(max int) *OpenLimit {
	if max <= 0 {
		max = DefaultMaxOpen
	}
	return &OpenLimit{max: max, open: map[openKey]struct{}{}}
}

// Add feeds one event. It returns an error wrapping ErrTooManyOpen when
// the event would open a block beyond the limit; the block is not counted.
func (l *OpenLimit) Add(ev event.Event) error {
	var k openKey
	switch ev := ev.(type) {
	case *event.BlockStart:
		k = openKey{ev.AgentID(), ev.Kind}
	case *event.Delta:
		k = openKey{ev.AgentID(), ev.Kind}
	case *event.BlockEnd:
		delete(l.open, openKey{ev.AgentID(), ev.Kind})
		return nil
	default:
		return nil
	}
	if _, ok := l.open[k]; ok {
		return nil
	}
	if len(l.open) >= l.max {
		return fmt.Errorf("%w: more than %d (agents and kinds of block being streamed); %s block of agent %q is one too many",
			ErrTooManyOpen, l.max, k.kind, k.agent)
	}
	l.open[k] = struct{}{}
	return nil
}
