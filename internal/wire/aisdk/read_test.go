package aisdk

import (
	"testing"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// The generated readers of the structs the decoder reads, checked
// against json.Unmarshal on the recordings' lines (and, fuzzed, on what
// the fuzzer makes of them) and field by field.

func compareLine(t *testing.T, data []byte) bool {
	read := false
	for _, ok := range []bool{
		wiretest.OnePass(t, data, ReadChunk, func(got, want *Chunk) {
			// What got's pointers point at, which json.Unmarshal
			// allocates instead (compared through the pointers).
			want.delta, want.errorText, want.toolName, want.inputTextDelta = got.delta, got.errorText, got.toolName, got.inputTextDelta
			want.sourceID, want.mediaType, want.filename, want.messageID, want.reason = got.sourceID, got.mediaType, got.filename, got.messageID, got.reason
			want.providerExecuted, want.dynamic, want.preliminary, want.transient = got.providerExecuted, got.dynamic, got.preliminary, got.transient
			// The last ids' text, kept by the reader (keep=).
			want.id, want.toolCallID = got.id, got.toolCallID
		}),
	} {
		read = read || ok
	}
	return read
}

func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	seeds := eventtest.Lines(t, "../../../testdata/aisdk/*.sse", "data: ")
	wiretest.OnePassSeeds(t, seeds, len(seeds)/2, compareLine)
}

func FuzzGeneratedReaders(f *testing.F) {
	wiretest.FuzzOnePass(f, eventtest.Lines(f, "../../../testdata/aisdk/*.sse", "data: "), compareLine)
}

func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadChunk)
}
