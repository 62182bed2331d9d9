package opencode_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/opencode"
)

func Example() {
	in := `{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":{"id":"p1","messageID":"msg_1","sessionID":"ses_1","type":"step-start"}}
{"type":"tool_use","timestamp":2,"sessionID":"ses_1","part":{"type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{"command":"ls"},"output":"a.go\n","metadata":{"exit":0}}}}
{"type":"step_finish","timestamp":3,"sessionID":"ses_1","part":{"id":"p2","reason":"tool-calls","messageID":"msg_1","sessionID":"ses_1","type":"step-finish","tokens":{"input":900,"output":10,"reasoning":2,"cache":{"read":0,"write":0}},"cost":0.001}}
`
	dec := opencode.NewDecoder(strings.NewReader(in), &opencode.Config{Source: "run.jsonl"})
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
		case *event.ToolCall:
			fmt.Printf("call %s %s\n", ev.Name, ev.Input)
		case *event.ToolResult:
			fmt.Printf("result exit %d %q\n", *ev.ExitCode, ev.Content[0].Text)
		case *event.TurnEnd:
			fmt.Printf("step end: %s, %d in, %d out, $%.3f\n", ev.StopReason, ev.Usage.InputTokens, ev.Usage.OutputTokens, *ev.CostUSD)
		}
	}
	// Output:
	// call bash {"command":"ls"}
	// result exit 0 "a.go\n"
	// step end: tool-calls, 900 in, 12 out, $0.001
	// problem: run.jsonl:3:1: stream ended after a step that finished with tool-calls: the run's next step is missing
}
