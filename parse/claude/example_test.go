package claude_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/claude"
)

func Example() {
	in := `{"type":"system","subtype":"init","session_id":"s1","model":"claude-opus-4-8","tools":["Bash"],"cwd":"/w"}
{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_1","model":"claude-opus-4-8","content":[]}},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}},"session_id":"s1","parent_tool_use_id":null}
{"type":"assistant","message":{"id":"msg_1","model":"claude-opus-4-8","role":"assistant","content":[{"type":"text","text":"Hello"}]},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"content_block_stop","index":0},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"message_stop"},"session_id":"s1","parent_tool_use_id":null}
{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"Hello","stop_reason":"end_turn","session_id":"s1","total_cost_usd":0.001}
`
	dec := claude.NewDecoder(strings.NewReader(in), &claude.Config{Source: "run.jsonl"})
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("problem:", err)
			continue
		}
		switch ev := ev.(type) {
		case *event.SessionStart:
			fmt.Printf("session %s, model %s\n", ev.SessionID, ev.Model)
		case *event.Delta:
			fmt.Printf("%s delta %q\n", ev.Kind, ev.Text)
		case *event.TurnEnd:
			fmt.Printf("turn %s: %s\n", ev.MessageID, ev.StopReason)
		case *event.RunEnd:
			fmt.Printf("run: %s after %d turn(s)\n", ev.StopReason, ev.Turns)
		default:
			fmt.Printf("%T\n", ev)
		}
	}
	// Output:
	// session s1, model claude-opus-4-8
	// *event.TurnStart
	// *event.BlockStart
	// text delta "Hello"
	// *event.BlockEnd
	// turn msg_1: end_turn
	// run: end_turn after 1 turn(s)
}
