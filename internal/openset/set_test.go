package openset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSet(t *testing.T) {
	t.Parallel()
	s := New[string](3)
	var out []string
	add := func(k string) {
		if o, ok := s.Add(k); ok {
			out = append(out, o)
		}
	}
	add("a")
	add("b")
	add("c")
	add("a") // held: no change of order
	s.Remove("b")
	add("d")
	add("e") // pushes out a, the oldest
	add("f") // pushes out c
	if diff := cmp.Diff([]string{"a", "c"}, out); diff != "" {
		t.Errorf("pushed out (-want +got):\n%s", diff)
	}
	if n, _ := s.Newest(); n != "f" || s.Len() != 3 || !s.Has("d") || s.Has("a") {
		t.Errorf("newest %q, len %d, has d %v, has a %v", n, s.Len(), s.Has("d"), s.Has("a"))
	}
	if o, _ := s.Oldest(); o != "d" {
		t.Errorf("oldest %q, want d", o)
	}
	for i := range 1000 { // stale entries do not pile up
		k := string(rune('g' + i%20))
		add(k)
		s.Remove(k)
	}
	if len(s.queue) > 2*s.Len()+17 {
		t.Errorf("queue of %d for %d keys", len(s.queue), s.Len())
	}
	s.Clear()
	if _, ok := s.Oldest(); ok || s.Len() != 0 || s.Has("d") {
		t.Errorf("after Clear: len %d, has d %v", s.Len(), s.Has("d"))
	}
}
