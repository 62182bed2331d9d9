package agui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
)

// TestMaxOpen: beyond MaxOpen open messages, tool calls or steps the
// decoder lets go of the oldest, reports it once, and its state stays
// within the cap.
func TestMaxOpen(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(sse(start))
	for i := range 10 {
		b.WriteString(sse(fmt.Sprintf(`{"type":"TEXT_MESSAGE_START","messageId":"m%d"}`, i)))
		b.WriteString(sse(fmt.Sprintf(`{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"f"}`, i)))
		b.WriteString(sse(fmt.Sprintf(`{"type":"STEP_STARTED","stepName":"s%d"}`, i)))
		b.WriteString(sse(fmt.Sprintf(`{"type":"TEXT_MESSAGE_CHUNK","subagentRunId":"a%d","messageId":"k%d","delta":"x"}`, i, i)))
	}
	d := NewDecoder(strings.NewReader(b.String()), &Config{MaxOpen: 3})
	evs, problems := eventtest.EventsAndProblems(t, d)
	if len(d.msgs.ids) > 3 || len(d.calls.ids) > 3 || len(d.steps) > 3 || len(d.chunks) > 3 || len(d.names.ids) > 3 {
		t.Errorf("state beyond the cap: %d messages, %d calls, %d steps, %d lanes, %d names", len(d.msgs.ids), len(d.calls.ids), len(d.steps), len(d.chunks), len(d.names.ids))
	}
	calls := 0
	for _, ev := range evs {
		if _, ok := ev.(*event.ToolCall); ok {
			calls++
		}
	}
	if calls != 10 {
		t.Errorf("%d tool calls emitted, want 10 (the ones let go of with their arguments so far)", calls)
	}
	capped := 0
	for _, p := range problems {
		if strings.Contains(p, "at once") {
			capped++
		}
	}
	if capped != 1 {
		t.Errorf("the cap is reported %d times, want once: %q", capped, problems)
	}
}
