package aisdk

import (
	"io"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
)

// BenchmarkDecode reads the recordings of ai 5.x and 7.x.
func BenchmarkDecode(b *testing.B) {
	eventtest.BenchDecode(b, eventtest.Corpus(b, corpus, "ai-*.sse"), func(r io.Reader) event.Decoder { return NewDecoder(r, nil) })
}
