package agui

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
		eventtest.OnePass(t, data, ReadCustomEvent, nil),
		eventtest.OnePass(t, data, ReadErrorValue, nil),
		eventtest.OnePass(t, data, ReadHeader, nil),
		eventtest.OnePass(t, data, ReadLegacyThinkingContent, nil),
		eventtest.OnePass(t, data, ReadReasoningEncryptedValueEvent, nil),
		eventtest.OnePass(t, data, ReadReasoningMessageChunkEvent, nil),
		eventtest.OnePass(t, data, ReadReasoningMessageStartEvent, nil),
		eventtest.OnePass(t, data, ReadReasoningStartEvent, nil),
		eventtest.OnePass(t, data, ReadRunErrorEvent, nil),
		eventtest.OnePass(t, data, ReadRunFinishedEvent, nil),
		eventtest.OnePass(t, data, ReadRunStartedEvent, nil),
		eventtest.OnePass(t, data, ReadStepFinishedEvent, nil),
		eventtest.OnePass(t, data, ReadStepStartedEvent, nil),
		eventtest.OnePass(t, data, ReadSubagentErrorEvent, nil),
		eventtest.OnePass(t, data, ReadSubagentFinishedEvent, nil),
		eventtest.OnePass(t, data, ReadSubagentStartedEvent, nil),
		eventtest.OnePass(t, data, ReadTextMessageChunkEvent, nil),
		eventtest.OnePass(t, data, ReadTextMessageContentEvent, nil),
		eventtest.OnePass(t, data, ReadTextMessageEndEvent, nil),
		eventtest.OnePass(t, data, ReadTextMessageStartEvent, nil),
		eventtest.OnePass(t, data, ReadToolCallArgsEvent, nil),
		eventtest.OnePass(t, data, ReadToolCallChunkEvent, nil),
		eventtest.OnePass(t, data, ReadToolCallEndEvent, nil),
		eventtest.OnePass(t, data, ReadToolCallResultEvent, nil),
		eventtest.OnePass(t, data, ReadToolCallStartEvent, nil),
	} {
		read = read || ok
	}
	return read
}

func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	seeds := eventtest.Lines(t, "../../../testdata/agui/*.sse", "data: ")
	eventtest.OnePassSeeds(t, seeds, len(seeds)/2, compareLine)
}

func FuzzGeneratedReaders(f *testing.F) {
	eventtest.FuzzOnePass(f, eventtest.Lines(f, "../../../testdata/agui/*.sse", "data: "), compareLine)
}

func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	eventtest.ReadsEveryField(t, ReadCustomEvent)
	eventtest.ReadsEveryField(t, ReadErrorValue)
	eventtest.ReadsEveryField(t, ReadHeader)
	eventtest.ReadsEveryField(t, ReadLegacyThinkingContent)
	eventtest.ReadsEveryField(t, ReadReasoningEncryptedValueEvent)
	eventtest.ReadsEveryField(t, ReadReasoningMessageChunkEvent)
	eventtest.ReadsEveryField(t, ReadReasoningMessageStartEvent)
	eventtest.ReadsEveryField(t, ReadReasoningStartEvent)
	eventtest.ReadsEveryField(t, ReadRunErrorEvent)
	eventtest.ReadsEveryField(t, ReadRunFinishedEvent)
	eventtest.ReadsEveryField(t, ReadRunStartedEvent)
	eventtest.ReadsEveryField(t, ReadStepFinishedEvent)
	eventtest.ReadsEveryField(t, ReadStepStartedEvent)
	eventtest.ReadsEveryField(t, ReadSubagentErrorEvent)
	eventtest.ReadsEveryField(t, ReadSubagentFinishedEvent)
	eventtest.ReadsEveryField(t, ReadSubagentStartedEvent)
	eventtest.ReadsEveryField(t, ReadTextMessageChunkEvent)
	eventtest.ReadsEveryField(t, ReadTextMessageContentEvent)
	eventtest.ReadsEveryField(t, ReadTextMessageEndEvent)
	eventtest.ReadsEveryField(t, ReadTextMessageStartEvent)
	eventtest.ReadsEveryField(t, ReadToolCallArgsEvent)
	eventtest.ReadsEveryField(t, ReadToolCallChunkEvent)
	eventtest.ReadsEveryField(t, ReadToolCallEndEvent)
	eventtest.ReadsEveryField(t, ReadToolCallResultEvent)
	eventtest.ReadsEveryField(t, ReadToolCallStartEvent)
}
