package inlinexml_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/inlinexml"
)

func Example() {
	text := "<thinking>Read it first.</thinking>\nChecking a < b.\n" +
		"<read_file>\n<path>src/a.go</path>\n</read_file>"
	dec := inlinexml.NewDecoder(strings.NewReader(text), nil)
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		switch ev := ev.(type) {
		case *event.Delta:
			fmt.Printf("%s: %q\n", ev.Kind, ev.Text)
		case *event.ToolCall:
			fmt.Printf("call %s %s %s\n", ev.ID, ev.Name, ev.Input)
		}
	}
	// Output:
	// thinking: "Read it first."
	// text: "Checking a < b.\n"
	// call inline-1 read_file {"path":"src/a.go"}
}
