package aisdk_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/aisdk"
)

func Example() {
	in := `data: {"type":"start","messageId":"msg-1"}

data: {"type":"start-step"}

data: {"type":"text-start","id":"t1"}

data: {"type":"text-delta","id":"t1","delta":"Let me check."}

data: {"type":"text-end","id":"t1"}

data: {"type":"tool-input-available","toolCallId":"call-1","toolName":"weather","input":{"city":"Paris"}}

data: {"type":"tool-output-available","toolCallId":"call-1","output":"21 °C"}

data: {"type":"finish-step"}

data: {"type":"finish","finishReason":"stop"}

data: [DONE]

`
	dec := aisdk.NewDecoder(strings.NewReader(in), nil)
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
		case *event.Delta:
			fmt.Printf("%s: %s\n", ev.Kind, ev.Text)
		case *event.ToolCall:
			fmt.Printf("call %s %s\n", ev.Name, ev.Input)
		case *event.ToolResult:
			fmt.Printf("result of %s: %s\n", ev.Name, ev.Content[0].Text)
		case *event.RunEnd:
			fmt.Printf("end %s\n", ev.StopReason)
		}
	}
	// Output:
	// text: Let me check.
	// call weather {"city":"Paris"}
	// result of weather: 21 °C
	// end end_turn
}
