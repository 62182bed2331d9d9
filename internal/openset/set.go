// Package openset is the cap a decoder puts on the state it keeps per
// agent: a set of keys (an agent's open block, message or payload) in the
// order they were added, holding at most a fixed number. Adding one more
// than the cap pushes out the key added longest ago, which the decoder
// then closes early and reports once.
//
// Each operation is O(1) amortised: keys removed out of order leave a
// stale entry in the queue, dropped when it reaches the front or when the
// queue grows to twice the set.
package openset

import (
	"iter"
	"maps"
)

// DefaultMax is the default cap: the same as the assembler's
// (assemble.DefaultMaxOpen), so a stream within one is within the other.
const DefaultMax = 1024

// Set is an insertion-ordered set of at most Max keys.
type Set[K comparable] struct {
	max   int
	seq   map[K]uint64 // key -> the number it was added under
	queue []entry[K]   // keys in the order added; stale where seq differs
	next  uint64
}

type entry[K comparable] struct {
	key K
	seq uint64
}

// New returns a set holding at most max keys (DefaultMax if max <= 0).
func New[K comparable](max int) *Set[K] {
	if max <= 0 {
		max = DefaultMax
	}
	return &Set[K]{max: max, seq: map[K]uint64{}}
}

// Max returns the cap.
func (s *Set[K]) Max() int { return s.max }

// Len returns the number of keys held; 0 for a nil Set.
func (s *Set[K]) Len() int {
	if s == nil {
		return 0
	}
	return len(s.seq)
}

// Has reports whether k is held; false for a nil Set.
func (s *Set[K]) Has(k K) bool {
	if s == nil {
		return false
	}
	_, ok := s.seq[k]
	return ok
}

// Add adds k (a no-op if it is held). When that makes one key more than
// the cap, the oldest key is removed and returned with out true.
func (s *Set[K]) Add(k K) (oldest K, out bool) {
	if _, ok := s.seq[k]; ok {
		return oldest, false
	}
	s.next++
	s.seq[k] = s.next
	s.queue = append(s.queue, entry[K]{k, s.next})
	if len(s.seq) <= s.max {
		return oldest, false
	}
	for {
		e := s.queue[0]
		s.queue[0] = entry[K]{}
		s.queue = s.queue[1:]
		if s.seq[e.key] == e.seq {
			delete(s.seq, e.key)
			return e.key, true
		}
	}
}

// Remove removes k, if held.
func (s *Set[K]) Remove(k K) {
	if _, ok := s.seq[k]; !ok {
		return
	}
	delete(s.seq, k)
	if len(s.queue) > 2*len(s.seq)+16 {
		live := make([]entry[K], 0, len(s.seq))
		for _, e := range s.queue {
			if s.seq[e.key] == e.seq {
				live = append(live, e)
			}
		}
		s.queue = live
	}
}

// Clear removes every key, keeping the memory for reuse.
func (s *Set[K]) Clear() {
	clear(s.seq)
	clear(s.queue)
	s.queue = s.queue[:0]
}

// Oldest returns the key added first of those held.
func (s *Set[K]) Oldest() (k K, ok bool) {
	for len(s.queue) > 0 {
		e := s.queue[0]
		if seq, held := s.seq[e.key]; held && seq == e.seq {
			return e.key, true
		}
		s.queue[0] = entry[K]{}
		s.queue = s.queue[1:] // stale: dropped for good
	}
	return k, false
}

// Newest returns the key added last of those held.
func (s *Set[K]) Newest() (k K, ok bool) {
	for i := len(s.queue) - 1; i >= 0; i-- {
		e := s.queue[i]
		if seq, held := s.seq[e.key]; held && seq == e.seq {
			return e.key, true
		}
	}
	return k, false
}

// All yields the keys held, in no particular order.
func (s *Set[K]) All() iter.Seq[K] { return maps.Keys(s.seq) }
