package codex

import (
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/slab"
)

// alloc hands out the decoder's events and the text they keep with few
// allocations: the events of each frequent type come from batches of
// batchLen, and short strings and raw JSON are copied into slabs shared by
// the ones after them. Real Codex runs are a handful of short lines, each
// of which makes an event or three, so an allocation per event and per
// string was most of the cost of a line.
//
// Nothing is ever written twice: a struct is handed out once, and a slab's
// bytes, once written, are never changed (a full slab is let go and a new
// one started), so every event stays independent of the decoder and of the
// others, as if each had been allocated alone. A batch or a slab lives as
// long as any event made from it. The zero value is ready to use.
type alloc struct {
	starts  batch[event.SessionStart]
	turns   batch[event.TurnStart]
	ends    batch[turnEnd]
	blocks  batch[textBlock]
	calls   batch[event.ToolCall]
	results batch[toolResult]
	errors  batch[event.Error]
	text    slab.Strings // the strings
	raw     []byte       // the raw JSON slab
}

// turnEnd is a TurnEnd with room for its usage.
type turnEnd struct {
	end   event.TurnEnd
	usage event.Usage
}

// textBlock is the three events of a whole text or thinking block.
type textBlock struct {
	start event.BlockStart
	delta event.Delta
	end   event.BlockEnd
}

// toolResult is a ToolResult with room for an exit code and one part.
type toolResult struct {
	ev   event.ToolResult
	code int
	part [1]event.Part
}

// batchLen is how many structs a batch holds, once the decoder is past
// its first few events: the first batches hold 2, 4 and 8, so that a
// decoder of a tiny input allocates little more than it uses.
const batchLen = 16

// batch hands out zeroed structs of type T, batchLen to an allocation.
type batch[T any] struct {
	b    []T
	used int // structs of b handed out
}

// new returns a zeroed *T, handed out once. (An index, not b = b[1:]:
// while the collector runs, writing the slice's pointer takes a write
// barrier.)
func (p *batch[T]) new() *T {
	if p.used == len(p.b) {
		p.b, p.used = make([]T, min(max(2*len(p.b), 2), batchLen)), 0
	}
	v := &p.b[p.used]
	p.used++
	return v
}

// bytes returns a copy of the concatenation of parts, its capacity cut
// at its length (an append to it cannot write into the slab).
func (a *alloc) bytes(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n > slab.MaxText {
		b := make([]byte, 0, n)
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	if cap(a.raw)-len(a.raw) < n {
		a.raw = make([]byte, 0, slab.Next(cap(a.raw)))
	}
	start := len(a.raw)
	for _, p := range parts {
		a.raw = append(a.raw, p...)
	}
	return a.raw[start:len(a.raw):len(a.raw)]
}
