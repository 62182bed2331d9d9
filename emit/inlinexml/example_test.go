package inlinexml_test

import (
	"encoding/json"
	"os"

	"github.com/agentstream/agentstream/emit/inlinexml"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := inlinexml.NewEncoder(os.Stdout, nil)
	for _, ev := range []event.Event{
		&event.Delta{Kind: event.Text, Text: "Reading the file."},
		&event.BlockEnd{Kind: event.Text},
		&event.ToolCall{ID: "toolu_1", Name: "read_file", Input: json.RawMessage(`{"path":"a.go","start_line":3}`)},
		&event.ToolResult{ID: "toolu_1", Content: []event.Part{{Type: "text", Text: "package a"}}},
	} {
		enc.Encode(ev)
	}
	enc.Close()
	// Output:
	// Reading the file.
	// <read_file>
	// <path>a.go</path>
	// <start_line>3</start_line>
	// </read_file>
	// <tool_result tool_name="read_file">
	// package a
	// </tool_result>
}
