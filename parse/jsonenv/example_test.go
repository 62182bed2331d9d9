package jsonenv_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/jsonenv"
)

func Example() {
	in := `data: {"type":"text","agent":"a","final":false,"delta":"Hello"}

data: {"type":"text","agent":"a","final":true,"delta":""}

data: {"type":"tool_call","agent":"a","final":true,"delta":"{\"q\": 1}","id":"t1","name":"search"}

data: [DONE]

`
	dec := jsonenv.NewDecoder(strings.NewReader(in), &jsonenv.Config{Source: "run.sse"})
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
			fmt.Printf("%s delta %q\n", ev.Kind, ev.Text)
		case *event.ToolCall:
			fmt.Printf("call %s %s\n", ev.Name, ev.Input)
		default:
			fmt.Printf("%T\n", ev)
		}
	}
	// Output:
	// *event.BlockStart
	// text delta "Hello"
	// *event.BlockEnd
	// call search {"q": 1}
}
