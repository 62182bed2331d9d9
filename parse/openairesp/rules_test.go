package openairesp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/openset"
)

type reports []string

func (r *reports) Report(rule string, line, col int, msg string) {
	*r = append(*r, fmt.Sprintf("%s %d:%d %s", rule, line, col, msg))
}

// TestCheckBoundedItems: the rules keep at most openset.DefaultMax open
// output items, however many a response opens (200,000 here, never
// done, generated one at a time), say once that they let go of some, and
// do not report a forgotten item's events as outside it.
func TestCheckBoundedItems(t *testing.T) {
	t.Parallel()
	const n = 200_000
	k := checkState{seq: -1}
	k.openItems()
	var rep reports
	msg := func(seq int, data string) {
		k.message(frame.RawMessage{Data: []byte(data), Line: seq + 1}, &rep)
	}
	msg(0, `{"type":"response.created","sequence_number":0,"response":{"id":"r"}}`)
	peak := 0
	for i := range n {
		msg(i+1, fmt.Sprintf(`{"type":"response.output_item.added","sequence_number":%d,"output_index":%d,"item":{"type":"function_call","id":"fc%d"}}`, i+1, i, i))
		peak = max(peak, k.items.Len())
	}
	if peak > openset.DefaultMax {
		t.Errorf("the rules held %d open items at once, want at most %d", peak, openset.DefaultMax)
	}
	if len(rep) != 1 || !strings.Contains(rep[0], "more than 1024 output items") {
		t.Errorf("reports %d, want the cap once:\n%s", len(rep), strings.Join(rep[:min(len(rep), 5)], "\n"))
	}
	rep = nil
	msg(n+1, fmt.Sprintf(`{"type":"response.function_call_arguments.delta","sequence_number":%d,"output_index":3,"delta":"{}"}`, n+1))
	msg(n+2, fmt.Sprintf(`{"type":"response.output_item.done","sequence_number":%d,"output_index":3,"item":{"type":"function_call","id":"fc3","arguments":"{}"}}`, n+2))
	if len(rep) != 0 {
		t.Errorf("events of an item let go of: %q", rep)
	}
}
