package openset

import "iter"

// Map is a map of at most Max keys, their order kept as a Set keeps it:
// putting one key more than the cap lets go of the key put first (with
// its value), which Put returns for the caller to report once. Putting a
// key already held replaces its value and keeps its place.
//
// The zero value is ready to use and holds at most DefaultMax keys.
type Map[K comparable, V any] struct {
	keys *Set[K]
	vals map[K]V
}

// NewMap returns a map holding at most max keys (DefaultMax if max <= 0).
func NewMap[K comparable, V any](max int) *Map[K, V] {
	return &Map[K, V]{keys: New[K](max), vals: map[K]V{}}
}

// Put holds v for k. When that makes one key more than the cap, the key
// put first is let go of and returned with out true.
func (m *Map[K, V]) Put(k K, v V) (oldest K, out bool) {
	if m.keys == nil {
		m.keys, m.vals = New[K](0), map[K]V{}
	}
	m.vals[k] = v
	oldest, out = m.keys.Add(k)
	if out {
		delete(m.vals, oldest)
	}
	return oldest, out
}

// Get returns the value held for k; false for a nil Map.
func (m *Map[K, V]) Get(k K) (v V, ok bool) {
	if m == nil {
		return v, false
	}
	v, ok = m.vals[k]
	return v, ok
}

// Has reports whether k is held; false for a nil Map.
func (m *Map[K, V]) Has(k K) bool {
	_, ok := m.Get(k)
	return ok
}

// Delete lets go of k, if held.
func (m *Map[K, V]) Delete(k K) {
	if m.keys == nil {
		return
	}
	m.keys.Remove(k)
	delete(m.vals, k)
}

// Clear lets go of every key, keeping the memory for reuse.
func (m *Map[K, V]) Clear() {
	if m.keys == nil {
		return
	}
	m.keys.Clear()
	clear(m.vals)
}

// Len returns the number of keys held; 0 for a nil Map.
func (m *Map[K, V]) Len() int {
	if m == nil {
		return 0
	}
	return len(m.vals)
}

// Max returns the cap.
func (m *Map[K, V]) Max() int {
	if m == nil || m.keys == nil {
		return DefaultMax
	}
	return m.keys.Max()
}

// All yields the keys held and their values, in no particular order.
func (m *Map[K, V]) All() iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		if m == nil {
			return
		}
		for k, v := range m.vals {
			if !yield(k, v) {
				return
			}
		}
	}
}
