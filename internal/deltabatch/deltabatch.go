// Package deltabatch allocates Delta events, the most frequent event of
// every decoder (a producer writes a delta every 40 bytes or so), in
// batches: one allocation per Len events instead of one per event.
package deltabatch

import (
	"unsafe"

	"github.com/agentstream/agentstream/event"
)

// Len is how many Delta events a batch holds. A consumer that keeps an
// event keeps its batch (Len × 48 bytes) alive with it.
const Len = 32

// Batch hands out Delta events. Each is handed out once and never
// written again, so events stay as independent of the decoder and of
// each other as if each had been allocated alone. The zero value is
// ready to use.
type Batch struct {
	batch []event.Delta
	used  int // structs of batch handed out
}

// New returns a new Delta of agent and kind with text.
func (p *Batch) New(agent string, kind event.BlockKind, text string) *event.Delta {
	if p.used == len(p.batch) {
		p.batch, p.used = make([]event.Delta, Len), 0
	}
	// An index, not batch = batch[1:], and the fields one by one into
	// the zeroed struct, not *ev = event.Delta{...}: while the collector
	// runs, the slice's pointer took a write barrier per delta and the
	// struct copy a bulk one (typedmemmove).
	ev := &p.batch[p.used]
	p.used++
	ev.Agent, ev.Kind, ev.Text = agent, kind, text
	return ev
}

// Of hands out zeroed values of T (other events, a decoder's structs) as
// Batch hands out Deltas: each once, never written again by the one who
// hands it out. A batch is as many values as fit in firstBytes, then
// twice that, up to fullBytes: so that a decoder of a tiny input allocates
// little more than it uses, and, each a size of the allocator's own, so
// that no room is rounded away. The zero value is ready to use.
type Of[T any] struct {
	b     []T
	used  int // values of b handed out
	bytes int // the size of b's batch
}

// The sizes in bytes of Of's first and full batches.
const (
	firstBytes = 256
	fullBytes  = 8 << 10
)

// New returns a zeroed *T, handed out once. (An index, not b = b[1:]:
// while the collector runs, writing the slice's pointer takes a write
// barrier.)
func (p *Of[T]) New() *T {
	if p.used == len(p.b) {
		p.bytes = min(max(2*p.bytes, firstBytes), fullBytes)
		p.b, p.used = make([]T, max(p.bytes/max(int(unsafe.Sizeof(*new(T))), 1), 1)), 0
	}
	v := &p.b[p.used]
	p.used++
	return v
}
