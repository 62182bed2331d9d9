package acp

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
		eventtest.OnePass(t, data, ReadContentBlock, nil),
		eventtest.OnePass(t, data, ReadMessage, nil),
		eventtest.OnePass(t, data, ReadNewSessionResponse, nil),
		eventtest.OnePass(t, data, ReadProbe, nil),
		eventtest.OnePass(t, data, ReadPromptRequest, nil),
		eventtest.OnePass(t, data, ReadPromptResponse, nil),
		eventtest.OnePass(t, data, ReadResultProbe, nil),
		eventtest.OnePass(t, data, ReadSessionNotification, nil),
		eventtest.OnePass(t, data, ReadToolCallContent, nil),
		eventtest.OnePass(t, data, ReadUpdate, nil),
	} {
		read = read || ok
	}
	return read
}

func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	seeds := eventtest.Lines(t, "../../../testdata/acp/*.jsonl", "")
	eventtest.OnePassSeeds(t, seeds, len(seeds)/2, compareLine)
}

func FuzzGeneratedReaders(f *testing.F) {
	eventtest.FuzzOnePass(f, eventtest.Lines(f, "../../../testdata/acp/*.jsonl", ""), compareLine)
}

func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	eventtest.ReadsEveryField(t, ReadContentBlock)
	eventtest.ReadsEveryField(t, ReadMessage)
	eventtest.ReadsEveryField(t, ReadNewSessionResponse)
	eventtest.ReadsEveryField(t, ReadProbe)
	eventtest.ReadsEveryField(t, ReadPromptRequest)
	eventtest.ReadsEveryField(t, ReadPromptResponse)
	eventtest.ReadsEveryField(t, ReadResultProbe)
	eventtest.ReadsEveryField(t, ReadSessionNotification)
	eventtest.ReadsEveryField(t, ReadToolCallContent)
	eventtest.ReadsEveryField(t, ReadUpdate)
}
