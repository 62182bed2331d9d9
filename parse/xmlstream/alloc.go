package xmlstream

import (
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/deltabatch"
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
	slab  strings.Builder
}

const (
	// slabSize is the size of a text slab; texts over maxSlabText get a
	// string of their own, so that a slab holds at least 16 of them and
	// a long text does not keep a slab's worth of others alive.
	slabSize    = 4 << 10
	maxSlabText = slabSize / 16
)

// make returns a new Delta of agent and kind whose text is b's bytes.
func (p *deltas) make(agent string, kind event.BlockKind, b []byte) *event.Delta {
	return p.batch.New(agent, kind, p.text(b))
}

// text returns b as a string.
func (p *deltas) text(b []byte) string {
	if len(b) > maxSlabText {
		return string(b)
	}
	if p.slab.Cap()-p.slab.Len() < len(b) {
		// A new slab: the old one's bytes stay as they are, in the strings
		// already handed out (Builder.Grow would copy them).
		p.slab = strings.Builder{}
		p.slab.Grow(slabSize)
	}
	start := p.slab.Len()
	p.slab.Write(b)
	return p.slab.String()[start:]
}
