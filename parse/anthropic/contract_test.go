package anthropic

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event/eventtest"
)

// TestContract checks the event.Decoder error contract on a truncated
// stream: the events a message (or the end of the input) still produced
// come before the ParseError about it, and the ParseError wrapping
// ErrTruncated is the last thing before io.EOF.
func TestContract(t *testing.T) {
	t.Parallel()
	input := frameSSE("message_start", start) +
		frameSSE("content_block_start", tStart) +
		frameSSE("content_block_delta", tDelta) +
		// A message_stop with its block open: the block and the turn
		// end, then the problem is reported.
		frameSSE("message_stop", mStop) +
		frameSSE("message_start", strings.Replace(start, "msg_1", "msg_2", 1)) +
		frameSSE("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"Bash","input":{}}}`) +
		frameSSE("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"cmd\":"}}`)
	want := []string{
		"TurnStart", "BlockStart", "Delta", "BlockEnd", "TurnEnd", "ParseError(syntax)",
		// The end of the input emits the tool call cut off, then
		// reports the truncation.
		"TurnStart", "ToolCall", "ParseError(truncated)",
		"EOF",
	}
	// Whole, and cut inside the last SSE message, which is lost: the tool
	// call is emitted without its input, one truncation is reported.
	for _, cut := range []int{0, 5} {
		in := input[:len(input)-cut]
		for name, r := range map[string]io.Reader{
			"whole":         strings.NewReader(in),
			"OneByteReader": iotest.OneByteReader(strings.NewReader(in)),
			"HalfReader":    iotest.HalfReader(strings.NewReader(in)),
		} {
			got := eventtest.Sequence(t, NewDecoder(r, nil))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("cut %d, %s (-want +got):\n%s", cut, name, diff)
			}
		}
	}
}
