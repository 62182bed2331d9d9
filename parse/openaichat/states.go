package openaichat

// states holds per-index states (a completion's choices, a choice's tool
// calls) in the order their indexes first came: a list searched in
// place while it is short, with a map beside it once it is longer.
type states[T any] struct {
	list []*T
	keys []int // the index of each state of list
	m    map[int]*T
}

// few is how many states are searched in place before a map is made.
const few = 8

func (s *states[T]) get(k int) *T {
	if s.m != nil {
		return s.m[k]
	}
	for i, key := range s.keys {
		if key == k {
			return s.list[i]
		}
	}
	return nil
}

func (s *states[T]) add(k int, v *T) {
	s.list = append(s.list, v)
	s.keys = append(s.keys, k)
	switch {
	case s.m != nil:
		s.m[k] = v
	case len(s.keys) > few:
		s.m = make(map[int]*T, 2*few)
		for i, key := range s.keys {
			s.m[key] = s.list[i]
		}
	}
}

// emptied returns s without its states, in its memory (its map, when
// it had one, is let go of).
func (s *states[T]) emptied() states[T] {
	clear(s.list)
	return states[T]{list: s.list[:0], keys: s.keys[:0]}
}

// removeFirst removes the state added first and returns it.
func (s *states[T]) removeFirst() *T {
	v := s.list[0]
	delete(s.m, s.keys[0])
	s.list[0] = nil
	s.list, s.keys = s.list[1:], s.keys[1:]
	return v
}
