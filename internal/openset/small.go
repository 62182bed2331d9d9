package openset

import "iter"

// Small is a Set that usually holds one key: an encoder's open blocks,
// where a block mostly ends before the next starts. While it holds one
// key, that key is kept in a field and the Set's map is not touched (a
// block's Add and Remove hashed its key four times); a second key moves
// the first into the Set, as the oldest. It answers as the Set would.
type Small[K comparable] struct {
	one    K
	hasOne bool // one is held; then set holds nothing
	set    *Set[K]
}

// NewSmall returns a Small holding at most max keys (DefaultMax if max
// <= 0).
func NewSmall[K comparable](max int) *Small[K] { return &Small[K]{set: New[K](max)} }

// Max returns the cap.
func (s *Small[K]) Max() int { return s.set.Max() }

// Len returns the number of keys held.
func (s *Small[K]) Len() int {
	if s.hasOne {
		return 1
	}
	return s.set.Len()
}

// Has reports whether k is held.
func (s *Small[K]) Has(k K) bool {
	if s.hasOne {
		return s.one == k
	}
	return s.set.Has(k)
}

// Add adds k (a no-op if it is held). When that makes one key more than
// the cap, the oldest key is removed and returned with out true.
func (s *Small[K]) Add(k K) (oldest K, out bool) {
	switch {
	case s.hasOne && s.one == k:
		return oldest, false
	case s.hasOne:
		var zero K
		s.set.Add(s.one) // (the Set is empty: within any cap)
		s.one, s.hasOne = zero, false
	case s.set.Len() == 0:
		s.one, s.hasOne = k, true
		return oldest, false
	}
	return s.set.Add(k)
}

// Remove removes k, if held.
func (s *Small[K]) Remove(k K) {
	if s.hasOne {
		if s.one == k {
			var zero K
			s.one, s.hasOne = zero, false
		}
		return
	}
	s.set.Remove(k)
}

// All yields the keys held, in no particular order. The caller may
// remove the key it was given.
func (s *Small[K]) All() iter.Seq[K] {
	if !s.hasOne {
		return s.set.All()
	}
	one := s.one
	return func(yield func(K) bool) { yield(one) }
}
