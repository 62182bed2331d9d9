package agui

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/claude"
)

// BenchmarkEncode writes the events of the Claude Code recordings in
// testdata (real producers' output: AG-UI has none in the corpus).
func BenchmarkEncode(b *testing.B) {
	var evs []event.Event
	var n int64
	for _, file := range eventtest.Corpus(b, "../../testdata/claude", "*.jsonl") {
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		n += int64(len(data))
		evs = append(evs, eventtest.Events(eventtest.Collect(claude.NewDecoder(bytes.NewReader(data), nil)))...)
	}
	b.ReportAllocs()
	b.SetBytes(n)
	for b.Loop() {
		enc := NewEncoder(io.Discard, nil)
		for _, ev := range evs {
			enc.Encode(ev)
		}
		enc.Close()
	}
}
