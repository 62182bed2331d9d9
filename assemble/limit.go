package assemble

import (
	"fmt"

	"github.com/agentstream/agentstream/event"
)

// OpenLimit counts the blocks a stream holds open, as a Lifecycle opens
// and ends them, for a consumer that keeps state per open block and cannot
// close one early, as the Assembler does: the text transcript. It holds at
// most max blocks.
type OpenLimit struct {
	max    int
	blocks *Lifecycle[struct{}]
}

// NewOpenLimit returns a limit of max open blocks (DefaultMaxOpen if <= 0).
func NewOpenLimit(max int) *OpenLimit {
	if max <= 0 {
		max = DefaultMaxOpen
	}
	return &OpenLimit{max: max, blocks: NewLifecycle(Hooks[struct{}]{
		Open: func(string, event.BlockKind) struct{} { return struct{}{} },
		End:  func(struct{}, *event.BlockEnd) {},
	})}
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
	}
	if _, open := l.blocks.Get(k.agent, k.kind); k.kind != "" && !open && l.blocks.Len() >= l.max {
		return fmt.Errorf("%w: more than %d (agents and kinds of block being streamed); %s block of agent %q is one too many",
			ErrTooManyOpen, l.max, k.kind, k.agent)
	}
	l.blocks.Event(ev)
	return nil
}
