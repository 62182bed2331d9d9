package claude

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event/eventtest"
)

// TestContract checks the event.Decoder error contract on a truncated
// stream: the events a line (or the end of the input) still produced come
// before the ParseError about it, and the ParseError wrapping
// ErrTruncated is the last thing before io.EOF.
func TestContract(t *testing.T) {
	t.Parallel()
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"session_id":"s1","parent_tool_use_id":null}` + "\n"
	}
	input := initLine + "\n" +
		se(`{"type":"message_start","message":{"id":"msg_1","model":"m"}}`) +
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`) +
		// A message_stop with its block open: the block and the turn
		// end, then the problem is reported.
		se(`{"type":"message_stop"}`) +
		se(`{"type":"message_start","message":{"id":"msg_2","model":"m"}}`) +
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"Bash","input":{}}}`) +
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"cmd\":"}}`)
	want := []string{
		"SessionStart",
		"TurnStart", "BlockStart", "Delta", "BlockEnd", "TurnEnd", "ParseError(syntax)",
		// The end of the input emits the tool call cut off, then
		// reports the truncation.
		"TurnStart", "ToolCall", "ParseError(truncated)",
		"EOF",
	}
	for name, r := range map[string]io.Reader{
		"whole":         strings.NewReader(input),
		"OneByteReader": iotest.OneByteReader(strings.NewReader(input)),
		"HalfReader":    iotest.HalfReader(strings.NewReader(input)),
	} {
		if diff := cmp.Diff(want, eventtest.Sequence(t, NewDecoder(r, nil))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	// The same as --output-format json, cut off inside its last element:
	// the syntax error ends the input, and the truncation comes after it.
	lines := strings.Split(strings.TrimSuffix(input, "\n"), "\n")
	array := "[" + strings.Join(lines, ",")
	array = array[:len(array)-10]
	// The tool call comes from the end of the input, after the element's
	// problem, before the truncation.
	want = append(want[:len(want)-3], "ParseError(syntax)", "ToolCall", "ParseError(truncated)", "EOF")
	if diff := cmp.Diff(want, eventtest.Sequence(t, NewDecoder(strings.NewReader(array), nil))); diff != "" {
		t.Errorf("array (-want +got):\n%s", diff)
	}
}
