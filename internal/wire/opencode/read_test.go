package opencode

import (
	"testing"

	"github.com/agentstream/agentstream/internal/eventtest"
)

// The generated readers of the structs the decoder reads, checked
// against json.Unmarshal on the recordings' lines (and, fuzzed, on what
// the fuzzer makes of them) and field by field.

func compareLine(t *testing.T, data []byte) bool {
	read := false
	for _, ok := range []bool{
		eventtest.OnePass(t, data, ReadErrorData, nil),
		eventtest.OnePass(t, data, ReadExitMetadata, nil),
		eventtest.OnePass(t, data, ReadLine, nil),
	} {
		read = read || ok
	}
	return read
}

func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	seeds := eventtest.Lines(t, "../../../testdata/opencode/*.jsonl", "")
	eventtest.OnePassSeeds(t, seeds, len(seeds)/2, compareLine)
}

func FuzzGeneratedReaders(f *testing.F) {
	eventtest.FuzzOnePass(f, eventtest.Lines(f, "../../../testdata/opencode/*.jsonl", ""), compareLine)
}

func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	eventtest.ReadsEveryField(t, ReadErrorData)
	eventtest.ReadsEveryField(t, ReadExitMetadata)
	eventtest.ReadsEveryField(t, ReadLine)
}
