package frame_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentstream/agentstream/frame"
)

// TestSSEDroppedReaderIsReleased: readers dropped before the end of their
// input leave no goroutine behind once collected.
func TestSSEDroppedReaderIsReleased(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 50 {
		s := frame.NewSSE(strings.NewReader("data: a\n\ndata: b\n\n"), "in", 0)
		if _, err := s.Next(); err != nil {
			t.Fatal(err)
		}
	}
	// Cleanups run after collection, on their own goroutine: give them a
	// few cycles. This waits for a condition; it asserts no duration.
	for i := 0; i < 100 && runtime.NumGoroutine() > before+5; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+5 {
		t.Errorf("%d goroutines after dropping 50 readers, %d before", n, before)
	}
}
