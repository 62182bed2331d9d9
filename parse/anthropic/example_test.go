package anthropic_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/anthropic"
)

func Example() {
	in := `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","model":"claude-opus-4-8","content":[],"usage":{"input_tokens":5,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}}

event: ping
data: {"type":"ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"command\": \"l"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"s\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":12}}

`
	dec := anthropic.NewDecoder(strings.NewReader(in), &anthropic.Config{Source: "body.sse"})
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
		case *event.TurnStart:
			fmt.Println("turn", ev.MessageID)
		case *event.ToolCall:
			fmt.Printf("call %s %s\n", ev.Name, ev.Input)
		case *event.TurnEnd:
			fmt.Println("turn end", ev.StopReason, ev.Usage.OutputTokens)
		default:
			fmt.Printf("%T\n", ev)
		}
	}
	// Output:
	// turn msg_1
	// call Bash {"command": "ls"}
	// turn end tool_use 12
	// problem: body.sse:19:1: stream ended without message_stop, inside message msg_1
}
