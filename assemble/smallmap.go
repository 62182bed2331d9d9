package assemble

// smallMap is a map for the few entries an assembler holds at once (the
// blocks open, the text blocks held): up to smallMax are looked for in
// turn, with no hashing, and a Go map takes over when more are held. The
// zero value is empty.
type smallMap[K comparable, V any] struct {
	few []entry[K, V] // the entries, while m is nil
	m   map[K]V
}

type entry[K comparable, V any] struct {
	k K
	v V
}

// smallMax is the most entries a smallMap looks for in turn: a stream has
// one or two agents streaming at once.
const smallMax = 8

func (s *smallMap[K, V]) get(k K) V {
	if s.m != nil {
		return s.m[k]
	}
	for i := range s.few {
		if s.few[i].k == k {
			return s.few[i].v
		}
	}
	var zero V
	return zero
}

func (s *smallMap[K, V]) set(k K, v V) {
	if s.m != nil {
		s.m[k] = v
		return
	}
	for i := range s.few {
		if s.few[i].k == k {
			s.few[i].v = v
			return
		}
	}
	if len(s.few) < smallMax {
		s.few = append(s.few, entry[K, V]{k, v})
		return
	}
	s.m = make(map[K]V, 2*smallMax)
	for _, e := range s.few {
		s.m[e.k] = e.v
	}
	s.m[k] = v
	s.few = nil
}

func (s *smallMap[K, V]) delete(k K) {
	if s.m != nil {
		delete(s.m, k)
		return
	}
	for i := range s.few {
		if s.few[i].k == k {
			last := len(s.few) - 1
			s.few[i] = s.few[last]
			s.few[last] = entry[K, V]{}
			s.few = s.few[:last]
			return
		}
	}
}

func (s *smallMap[K, V]) len() int {
	if s.m != nil {
		return len(s.m)
	}
	return len(s.few)
}

// clear empties s, keeping its memory.
func (s *smallMap[K, V]) clear() {
	clear(s.m)
	clear(s.few)
	s.few = s.few[:0]
}
