package event_test

import (
	"fmt"

	"github.com/agentstream/agentstream/event"
)

func ExampleEvent() {
	stream := []event.Event{
		&event.BlockStart{Agent: "main", Kind: event.Text},
		&event.Delta{Agent: "main", Kind: event.Text, Text: "Running "},
		&event.Delta{Agent: "main", Kind: event.Text, Text: "ls."},
		&event.BlockEnd{Agent: "main", Kind: event.Text},
		&event.ToolCall{Agent: "main", ID: "t1", Name: "Bash", Input: []byte(`{"command":"ls"}`)},
	}
	for _, ev := range stream {
		switch ev := ev.(type) {
		case *event.Delta:
			fmt.Print(ev.Text)
		case *event.BlockEnd:
			fmt.Println()
		case *event.ToolCall:
			fmt.Printf("[%s] %s %s\n", ev.AgentID(), ev.Name, ev.Input)
		}
	}
	// Output:
	// Running ls.
	// [main] Bash {"command":"ls"}
}

func ExampleLosses() {
	var losses event.Losses
	warn := func(err error) { fmt.Println("warning:", err) }
	losses.Report(warn, "xml", "thinking signatures")
	losses.Report(warn, "xml", "thinking signatures")
	losses.Report(warn, "xml", "tool result is_error")
	// Output:
	// warning: xml cannot carry thinking signatures
	// warning: xml cannot carry tool result is_error
}
