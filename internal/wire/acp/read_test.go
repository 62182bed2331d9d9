package acp

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
		wiretest.OnePass(t, data, ReadContentBlock, nil),
		wiretest.OnePass(t, data, ReadLine, nil),
		wiretest.OnePass(t, data, ReadMessage, nil),
		wiretest.OnePass(t, data, ReadNewSessionResponse, nil),
		wiretest.OnePass(t, data, ReadProbe, nil),
		wiretest.OnePass(t, data, ReadPromptRequest, nil),
		wiretest.OnePass(t, data, ReadPromptResponse, nil),
		wiretest.OnePass(t, data, ReadResultProbe, nil),
		wiretest.OnePass(t, data, ReadSessionMeta, nil),
		wiretest.OnePass(t, data, ReadSessionNotification, nil),
		wiretest.OnePass(t, data, ReadToolCallContent, nil),
		wiretest.OnePass(t, data, ReadUpdate, nil),
	} {
		read = read || ok
	}
	return read
}

func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	seeds := eventtest.Lines(t, "../../../testdata/acp/*.jsonl", "")
	wiretest.OnePassSeeds(t, seeds, len(seeds)/2, compareLine)
}

func FuzzGeneratedReaders(f *testing.F) {
	wiretest.FuzzOnePass(f, eventtest.Lines(f, "../../../testdata/acp/*.jsonl", ""), compareLine)
}

func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadContentBlock)
	wiretest.ReadsEveryField(t, ReadLine)
	wiretest.ReadsEveryField(t, ReadMessage)
	wiretest.ReadsEveryField(t, ReadNewSessionResponse)
	wiretest.ReadsEveryField(t, ReadProbe)
	wiretest.ReadsEveryField(t, ReadPromptRequest)
	wiretest.ReadsEveryField(t, ReadPromptResponse)
	wiretest.ReadsEveryField(t, ReadResultProbe)
	wiretest.ReadsEveryField(t, ReadSessionMeta)
	wiretest.ReadsEveryField(t, ReadSessionNotification)
	wiretest.ReadsEveryField(t, ReadToolCallContent)
	wiretest.ReadsEveryField(t, ReadUpdate)
}
