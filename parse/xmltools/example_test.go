package xmltools_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/xmltools"
)

func Example() {
	text := `Checking. <ai-agent-abcd1234-0001 tool="echo">{"x": 1}</ai-agent-abcd1234-0001>` +
		`<ai-agent-beef0000-0002 tool="echo">{}</ai-agent-beef0000-0002>` +
		`<ai-agent-abcd1234-FINAL format="markdown">All **good**.</ai-agent-abcd1234-FINAL>`
	dec := xmltools.NewDecoder(strings.NewReader(text), nil)
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
			fmt.Printf("call %s %s %s\n", ev.ID, ev.Name, ev.Input)
		case *event.RunEnd:
			fmt.Printf("final %s: %s\n", ev.StopReason, ev.Result)
		}
	}
	// Output:
	// call abcd1234-0001 echo {"x": 1}
	// problem: <input>:1:80: invalid tag <ai-agent-beef0000-0002>: nonce does not match abcd1234; kept as text
	// final success: All **good**.
}
