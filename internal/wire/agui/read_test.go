package agui

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
		wiretest.OnePass(t, data, ReadCustomEvent, nil),
		wiretest.OnePass(t, data, ReadErrorValue, nil),
		wiretest.OnePass(t, data, ReadHeader, nil),
		wiretest.OnePass(t, data, ReadLegacyThinkingContent, nil),
		wiretest.OnePass(t, data, ReadReasoningEncryptedValueEvent, nil),
		wiretest.OnePass(t, data, ReadReasoningMessageChunkEvent, nil),
		wiretest.OnePass(t, data, ReadReasoningMessageStartEvent, nil),
		wiretest.OnePass(t, data, ReadReasoningStartEvent, nil),
		wiretest.OnePass(t, data, ReadRunErrorEvent, nil),
		wiretest.OnePass(t, data, ReadRunFinishedEvent, nil),
		wiretest.OnePass(t, data, ReadRunStartedEvent, nil),
		wiretest.OnePass(t, data, ReadStepFinishedEvent, nil),
		wiretest.OnePass(t, data, ReadStepStartedEvent, nil),
		wiretest.OnePass(t, data, ReadSubagentErrorEvent, nil),
		wiretest.OnePass(t, data, ReadSubagentFinishedEvent, nil),
		wiretest.OnePass(t, data, ReadSubagentStartedEvent, nil),
		wiretest.OnePass(t, data, ReadTextMessageChunkEvent, nil),
		wiretest.OnePass(t, data, ReadTextMessageContentEvent, nil),
		wiretest.OnePass(t, data, ReadTextMessageEndEvent, nil),
		wiretest.OnePass(t, data, ReadTextMessageStartEvent, nil),
		wiretest.OnePass(t, data, ReadToolCallArgsEvent, nil),
		wiretest.OnePass(t, data, ReadToolCallChunkEvent, nil),
		wiretest.OnePass(t, data, ReadToolCallEndEvent, nil),
		wiretest.OnePass(t, data, ReadToolCallResultEvent, nil),
		wiretest.OnePass(t, data, ReadToolCallStartEvent, nil),
	} {
		read = read || ok
	}
	return read
}

func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	seeds := eventtest.Lines(t, "../../../testdata/agui/*.sse", "data: ")
	wiretest.OnePassSeeds(t, seeds, len(seeds)/2, compareLine)
}

func FuzzGeneratedReaders(f *testing.F) {
	wiretest.FuzzOnePass(f, eventtest.Lines(f, "../../../testdata/agui/*.sse", "data: "), compareLine)
}

func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadCustomEvent)
	wiretest.ReadsEveryField(t, ReadErrorValue)
	wiretest.ReadsEveryField(t, ReadHeader)
	wiretest.ReadsEveryField(t, ReadLegacyThinkingContent)
	wiretest.ReadsEveryField(t, ReadReasoningEncryptedValueEvent)
	wiretest.ReadsEveryField(t, ReadReasoningMessageChunkEvent)
	wiretest.ReadsEveryField(t, ReadReasoningMessageStartEvent)
	wiretest.ReadsEveryField(t, ReadReasoningStartEvent)
	wiretest.ReadsEveryField(t, ReadRunErrorEvent)
	wiretest.ReadsEveryField(t, ReadRunFinishedEvent)
	wiretest.ReadsEveryField(t, ReadRunStartedEvent)
	wiretest.ReadsEveryField(t, ReadStepFinishedEvent)
	wiretest.ReadsEveryField(t, ReadStepStartedEvent)
	wiretest.ReadsEveryField(t, ReadSubagentErrorEvent)
	wiretest.ReadsEveryField(t, ReadSubagentFinishedEvent)
	wiretest.ReadsEveryField(t, ReadSubagentStartedEvent)
	wiretest.ReadsEveryField(t, ReadTextMessageChunkEvent)
	wiretest.ReadsEveryField(t, ReadTextMessageContentEvent)
	wiretest.ReadsEveryField(t, ReadTextMessageEndEvent)
	wiretest.ReadsEveryField(t, ReadTextMessageStartEvent)
	wiretest.ReadsEveryField(t, ReadToolCallArgsEvent)
	wiretest.ReadsEveryField(t, ReadToolCallChunkEvent)
	wiretest.ReadsEveryField(t, ReadToolCallEndEvent)
	wiretest.ReadsEveryField(t, ReadToolCallResultEvent)
	wiretest.ReadsEveryField(t, ReadToolCallStartEvent)
}
