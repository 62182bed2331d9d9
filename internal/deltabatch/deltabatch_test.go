package deltabatch

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestIndependent: events handed out across batches keep what they were
// made with, each its own struct.
func TestIndependent(t *testing.T) {
	t.Parallel()
	var p Batch
	var got []*event.Delta
	var want []event.Delta
	for i := range 3*Len + 1 {
		text := string(rune('a' + i%26))
		got = append(got, p.New("A", event.Text, text))
		want = append(want, event.Delta{Agent: "A", Kind: event.Text, Text: text})
	}
	seen := map[*event.Delta]bool{}
	for i, ev := range got {
		if seen[ev] {
			t.Fatalf("event %d handed out twice", i)
		}
		seen[ev] = true
		if diff := cmp.Diff(want[i], *ev); diff != "" {
			t.Errorf("event %d (-want +got):\n%s", i, diff)
		}
	}
}

// TestOf: values come zeroed, each handed out once, in batches of firstBytes
// bytes, then twice that, up to fullBytes.
func TestOf(t *testing.T) {
	t.Parallel()
	type v struct {
		s string
		n [3]int
	} // 40 bytes
	var p Of[v]
	seen := map[*v]bool{}
	var sizes []int
	for i := range 1000 {
		x := p.New()
		if seen[x] || *x != (v{}) {
			t.Fatalf("value %d handed out twice or not zeroed: %+v", i, *x)
		}
		seen[x] = true
		x.s, x.n[2] = "x", i
		if p.used == 1 {
			sizes = append(sizes, len(p.b))
		}
	}
	if want := []int{6, 12, 25, 51, 102, 204, 204, 204, 204}; !slices.Equal(sizes, want) {
		t.Errorf("batches of %v values, want %v", sizes, want)
	}
}
