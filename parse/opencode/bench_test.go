package opencode

import (
	"testing"

	"github.com/agentstream/agentstream/event/eventtest"
)

// BenchmarkDecode reads the recordings of opencode run --format json.
func BenchmarkDecode(b *testing.B) {
	eventtest.BenchDecode(b, recordings(b), newDecoder)
}
