package wirecheck

import (
	"slices"

	"github.com/agentstream/agentstream/internal/openset"
)

// Held is the state a checker keeps per id (an open message, an
// announced tool call, a request waiting for its response): an
// openset.Map of at most Max ids, one more pushing out the id added
// longest ago, whose checks are then no longer made. The zero value holds
// at most openset.DefaultMax.
//
// Put says when it first lets an id go, for the checker to report once,
// as a violation of the rule the lost state serves (as validate's shared
// rules report theirs); after that a lookup that misses may be of an id
// let go of (Lost), which a checker does not report as a violation.
type Held[V any] struct {
	Max  int
	m    *openset.Map[string, V]
	lost bool // an id was let go of since the last Clear
	told bool // Put said so once
}

// Put holds v for id. When that lets go of the oldest id for the first
// time, it returns that id and first true.
func (h *Held[V]) Put(id string, v V) (oldest string, first bool) {
	if h.m == nil {
		h.m = openset.NewMap[string, V](h.Max)
	}
	old, out := h.m.Put(id, v)
	if !out {
		return "", false
	}
	first = !h.told
	h.lost, h.told = true, true
	return old, first
}

// Get returns what is held for id.
func (h *Held[V]) Get(id string) (V, bool) { return h.m.Get(id) }

// Has reports whether id is held.
func (h *Held[V]) Has(id string) bool { return h.m.Has(id) }

// Delete lets go of id.
func (h *Held[V]) Delete(id string) {
	if h.m != nil {
		h.m.Delete(id)
	}
}

// Clear lets go of every id, as a new run does; Put does not say again
// that it let one go.
func (h *Held[V]) Clear() { h.m, h.lost = nil, false }

// Len returns the number of ids held.
func (h *Held[V]) Len() int { return h.m.Len() }

// Lost reports whether an id was let go of past the cap (since the last
// Clear).
func (h *Held[V]) Lost() bool { return h.lost }

// Sorted returns the ids held, sorted.
func (h *Held[V]) Sorted() []string {
	out := make([]string, 0, h.m.Len())
	for k := range h.m.All() {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
