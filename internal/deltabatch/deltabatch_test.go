package deltabatch

import (
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
