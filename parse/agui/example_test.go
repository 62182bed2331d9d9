package agui_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/agui"
)

func Example() {
	stream := `data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}

data: {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}

data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}

data: {"type":"TEXT_MESSAGE_END","messageId":"m1"}

data: {"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"m1"}

data: {"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":\"go\"}"}

data: {"type":"TOOL_CALL_END","toolCallId":"c1"}

data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1","usage":[{"inputTokens":9,"outputTokens":4}]}

`
	dec := agui.NewDecoder(strings.NewReader(stream), &agui.Config{Source: "run.sse"})
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
			fmt.Println("run", ev.Agent, "thread", ev.SessionID)
		case *event.Delta:
			fmt.Printf("%s %q\n", ev.Kind, ev.Text)
		case *event.ToolCall:
			fmt.Println("tool call", ev.Name, string(ev.Input))
		case *event.RunEnd:
			fmt.Println("end:", ev.Usage.InputTokens, "in,", ev.Usage.OutputTokens, "out")
		}
	}
	// Output:
	// run r1 thread t1
	// text "Hello"
	// tool call search {"q":"go"}
	// end: 9 in, 4 out
}
