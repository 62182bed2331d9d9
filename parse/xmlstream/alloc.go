package xmlstream

import (
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/slab"
)

// deltas makes the Delta events of text and thinking, the decoder's most
// frequent event (a producer writes a delta every 40 bytes or so), with
// fewer allocations: the structs come from a deltabatch.Batch, and the
// text of a short delta is copied into a slab shared by the deltas after
// it. Nothing is ever written twice: a slab's bytes, once written, are
// never changed (a full slab is let go and a new one started), so every
// event stays independent of the decoder and of the others, as if each
// had been allocated alone. A batch or a slab lives as long as any event
// made from it.
//
// So a delta costs no allocation of its own: one per 32 deltas and one
// per slab.
type deltas struct {
	batch deltabatch.Batch
	slab  slab.Strings
}

// make returns a new Delta of agent and kind whose text is b's bytes.
func (p *deltas) make(agent string, kind event.BlockKind, b []byte) *event.Delta {
	return p.batch.New(agent, kind, p.slab.String(b))
}
