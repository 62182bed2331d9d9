package assemble_test

import (
	"fmt"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	a := assemble.New(0)
	for _, ev := range []event.Event{
		&event.Delta{Agent: "a", Kind: event.Text, Text: "Hello, "},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "world"},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
		&event.ToolCall{Agent: "a", ID: "t", Name: "Bash", Input: []byte(`{}`)},
	} {
		blocks, _ := a.Add(ev)
		for _, b := range blocks {
			fmt.Printf("%s: %s%s\n", b.Type, b.Text, b.Name)
		}
	}
	// Output:
	// text: Hello, world
	// tool_call: Bash
}
