package assemble

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestSmallMap runs random sets, deletes and clears on a smallMap and a Go
// map side by side, across the size where a smallMap turns into a map.
func TestSmallMap(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, keys := range []int{3, smallMax, smallMax + 1, 4 * smallMax} {
		var s smallMap[string, int]
		m := map[string]int{}
		for i := range 20_000 {
			k := strconv.Itoa(r.IntN(keys))
			switch op := r.IntN(100); {
			case op < 50:
				s.set(k, i)
				m[k] = i
			case op < 99:
				s.delete(k)
				delete(m, k)
			default:
				s.clear()
				clear(m)
			}
			if s.len() != len(m) {
				t.Fatalf("%d keys, op %d: len %d, want %d", keys, i, s.len(), len(m))
			}
			for j := range keys {
				k := strconv.Itoa(j)
				if got, want := s.get(k), m[k]; got != want {
					t.Fatalf("%d keys, op %d: get(%s) = %d, want %d", keys, i, k, got, want)
				}
			}
		}
	}
}
