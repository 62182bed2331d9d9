package xmlstream

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/slab"
)

// TestDeltasIndependent: the deltas made from one reused buffer keep
// their own texts, across batches and slabs, short texts and long.
func TestDeltasIndependent(t *testing.T) {
	t.Parallel()
	var p deltas
	var got, want []event.Event
	buf := make([]byte, 0, slab.MaxText+1)
	for i := range 3 * deltabatch.Len * slab.Size / 100 {
		n := i % (slab.MaxText + 2) // 0 to slab.MaxText+1: in a slab and not
		buf = append(buf[:0], strings.Repeat(string(rune('a'+i%26)), n)...)
		got = append(got, p.make("A", event.Text, buf))
		want = append(want, &event.Delta{Agent: "A", Kind: event.Text, Text: string(buf)})
		for j := range buf {
			buf[j] = '!' // the caller reuses its buffer
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("deltas (-want +got):\n%s", diff)
	}
}
