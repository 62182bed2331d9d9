package gemini_test

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
)

// BenchmarkDecode reads the stream-json recordings of Gemini CLI.
func BenchmarkDecode(b *testing.B) {
	files, _ := filepath.Glob("../../testdata/gemini/*.jsonl")
	eventtest.BenchDecode(b, files, func(r io.Reader) event.Decoder { return newDecoder(r, "bench") })
}
