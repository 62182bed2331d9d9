package wirecheck

import (
	"slices"

	"github.com/agentstream/agentstream/internal/openset"
)

// Held is the state a checker keeps per id (an open message, an
// announced tool call, a request waiting for its response), holding at
// most Max ids: one more pushes out the id added longest ago, whose
// checks are then no longer made. The zero value holds at most
// openset.DefaultMax.
//
// Put says when it first lets an id go, for the checker to report once,
// as a violation of the rule the lost state serves (as validate's shared
// rules report theirs); after that a lookup that misses may be of an id
// let go of (Lost), which a checker does not report as a violation.
type Held[V any] struct {
	Max  int
	set  *openset.Set[string]
	vals map[string]V
	lost bool // an id was let go of since the last Clear
	told bool // Put said so once
}

func (h *Held[V]) init() {
	if h.set == nil {
		h.set, h.vals = openset.New[string](h.Max), map[string]V{}
	}
}

// Put holds v for id. When that lets go of the oldest id for the first
// time, it returns that id and first true.
func (h *Held[V]) Put(id string, v V) (oldest string, first bool) {
	h.init()
	h.vals[id] = v
	old, out := h.set.Add(id)
	if !out {
		return "", false
	}
	delete(h.vals, old)
	first = !h.told
	h.lost, h.told = true, true
	return old, first
}

// Get returns what is held for id.
func (h *Held[V]) Get(id string) (V, bool) {
	v, ok := h.vals[id]
	return v, ok
}

// Has reports whether id is held.
func (h *Held[V]) Has(id string) bool {
	_, ok := h.vals[id]
	return ok
}

// Delete lets go of id.
func (h *Held[V]) Delete(id string) {
	if h.set != nil {
		h.set.Remove(id)
		delete(h.vals, id)
	}
}

// Clear lets go of every id, as a new run does; Put does not say again
// that it let one go.
func (h *Held[V]) Clear() {
	h.set, h.vals, h.lost = nil, nil, false
}

// Len returns the number of ids held.
func (h *Held[V]) Len() int { return len(h.vals) }

// Lost reports whether an id was let go of past the cap (since the last
// Clear).
func (h *Held[V]) Lost() bool { return h.lost }

// Sorted returns the ids held, sorted.
func (h *Held[V]) Sorted() []string {
	out := make([]string, 0, len(h.vals))
	for k := range h.vals {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
