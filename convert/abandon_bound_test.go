package convert

import (
	"strconv"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

type discard struct{}

func (discard) Encode(event.Event) error { return nil }
func (discard) Close() error             { return nil }

// TestAbandonHoldBounded: a million agents each opening a text block
// that never ends (docs/limits.md's hostile "many agents"), fed event by
// event, leave the hold within MaxAbandonHold and maxLeaked: it fails
// when either cap is removed.
func TestAbandonHoldBounded(t *testing.T) {
	t.Parallel()
	h := HoldAbandoned(discard{}, format.Format{Abandons: true}, Format{Format: format.Format{Name: "t"}}, nil)
	most := 0
	for i := range 1_000_000 {
		a := strconv.Itoa(i)
		if err := h.Encode(&event.BlockStart{Agent: a, Kind: event.Text}); err != nil {
			t.Fatal(err)
		}
		if err := h.Encode(&event.Delta{Agent: a, Kind: event.Text, Text: "x"}); err != nil {
			t.Fatal(err)
		}
		most = max(most, len(h.q))
		if h.bytes > MaxAbandonHold {
			t.Fatalf("after agent %d: %d bytes held, past MaxAbandonHold", i, h.bytes)
		}
	}
	// Each held event counts at least 64 bytes.
	if limit := MaxAbandonHold / 64; most > limit {
		t.Errorf("%d events held at once, want at most %d", most, limit)
	}
	if limit := maxLeaked + MaxAbandonHold/64; len(h.open) > limit {
		t.Errorf("%d open blocks remembered, want at most %d", len(h.open), limit)
	}
	if h.leaked > maxLeaked {
		t.Errorf("%d written blocks remembered, want at most %d", h.leaked, maxLeaked)
	}
}
