package openaistream

import (
	"fmt"
	"io"
	"testing"
)

// TestNewID: the ids made are the prefix and the count as %04d writes
// it, across the widths.
func TestNewID(t *testing.T) {
	t.Parallel()
	e := NewEncoder(io.Discard, "test", "", nil)
	for n := 1; n <= 100_000; n++ {
		if got, want := e.NewID("msg_agentstream_"), fmt.Sprintf("msg_agentstream_%04d", n); got != want {
			t.Fatalf("id %d: %q, want %q", n, got, want)
		}
	}
}
