package opencode

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
		wiretest.OnePass(t, data, ReadErrorData, nil),
		wiretest.OnePass(t, data, ReadExitMetadata, nil),
		wiretest.OnePass(t, data, ReadLine, nil),
	} {
		read = read || ok
	}
	return read
}

func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	seeds := eventtest.Lines(t, "../../../testdata/opencode/*.jsonl", "")
	wiretest.OnePassSeeds(t, seeds, len(seeds)/2, compareLine)
}

func FuzzGeneratedReaders(f *testing.F) {
	wiretest.FuzzOnePass(f, eventtest.Lines(f, "../../../testdata/opencode/*.jsonl", ""), compareLine)
}

func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadErrorData)
	wiretest.ReadsEveryField(t, ReadExitMetadata)
	wiretest.ReadsEveryField(t, ReadLine)
}
