package acp_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/acp"
)

func Example() {
	in := `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Reading. "}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"read","kind":"read","status":"in_progress","rawInput":{"path":"/a"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"hello"}}]}}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}
`
	dec := acp.NewDecoder(strings.NewReader(in), nil)
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		switch ev := ev.(type) {
		case *event.SessionStart:
			fmt.Println("session", ev.SessionID)
		case *event.Delta:
			fmt.Printf("%s %q\n", ev.Kind, ev.Text)
		case *event.ToolCall:
			fmt.Printf("call %s %s\n", ev.Name, ev.Input)
		case *event.ToolResult:
			fmt.Printf("result %s %q\n", ev.Status, ev.Content[0].Text)
		case *event.RunEnd:
			fmt.Println("end", ev.StopReason)
		}
	}
	// Output:
	// session s1
	// text "Reading. "
	// call read {"path":"/a"}
	// result completed "hello"
	// end end_turn
}
