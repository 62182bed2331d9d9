package openset

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkSmall runs ops on a Small and on a Set of the same cap and checks
// that they answer alike after each: an op is a key (0-3) to add, or,
// with 4 set, to remove, or with 8 set, to remove while ranging over All.
func checkSmall(t *testing.T, max int, ops []byte) {
	t.Helper()
	s, ref := NewSmall[byte](max), New[byte](max)
	for i, op := range ops {
		k := op & 3
		switch {
		case op&8 != 0:
			for x := range s.All() {
				if x == k {
					s.Remove(x)
				}
			}
			ref.Remove(k)
		case op&4 != 0:
			s.Remove(k)
			ref.Remove(k)
		default:
			o1, out1 := s.Add(k)
			o2, out2 := ref.Add(k)
			if o1 != o2 || out1 != out2 {
				t.Fatalf("op %d (%v): Add(%d) = %d, %v; the Set's %d, %v", i, ops, k, o1, out1, o2, out2)
			}
		}
		got, want := slices.Sorted(s.All()), slices.Sorted(ref.All())
		if diff := cmp.Diff(want, got); diff != "" || s.Len() != ref.Len() || s.Has(k) != ref.Has(k) {
			t.Fatalf("op %d (%v): keys (-Set +Small):\n%s len %d, %d; has %d %v, %v", i, ops, diff, ref.Len(), s.Len(), k, ref.Has(k), s.Has(k))
		}
	}
	if s.Max() != ref.Max() {
		t.Fatalf("Max %d, the Set's %d", s.Max(), ref.Max())
	}
}

func TestSmall(t *testing.T) {
	t.Parallel()
	// Every sequence of four ops of twelve kinds (adds, removes, removes
	// while ranging), under caps 1, 2, 3 and the default.
	kinds := []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	for _, max := range []int{1, 2, 3, 0} {
		ops := make([]byte, 4)
		var walk func(int)
		walk = func(i int) {
			if i == len(ops) {
				checkSmall(t, max, ops)
				return
			}
			for _, k := range kinds {
				ops[i] = k
				walk(i + 1)
			}
		}
		walk(0)
	}
}

func FuzzSmall(f *testing.F) {
	f.Add(uint8(2), []byte{0, 1, 4, 2, 3, 5, 0, 8})
	f.Fuzz(func(t *testing.T, max uint8, ops []byte) {
		checkSmall(t, int(max%5), ops)
	})
}
