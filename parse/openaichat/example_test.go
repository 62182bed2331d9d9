package openaichat_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/openaichat"
)

func Example() {
	in := `data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[{"index":0,"delta":{"role":"assistant","content":"Let me check."}}]}

data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]}}]}

data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}}]}

data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[],"usage":{"prompt_tokens":20,"completion_tokens":9}}

data: [DONE]

`
	dec := openaichat.NewDecoder(strings.NewReader(in), nil)
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
		case *event.TurnEnd:
			fmt.Printf("end %s, %d in / %d out\n", ev.StopReason, ev.Usage.InputTokens, ev.Usage.OutputTokens)
		}
	}
	// Output:
	// text: Let me check.
	// call get_weather {"city":"Paris"}
	// end tool_use, 20 in / 9 out
}
