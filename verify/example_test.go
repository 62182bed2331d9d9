package verify_test

import (
	"os"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/verify"
)

func Example() {
	content := "hello"
	a := verify.Side{Name: "a.sse", Format: "xml", Lacks: []format.Content{"is_error"}, Blocks: []*assemble.Block{
		{Agent: "a1", Type: assemble.TypeText, Text: "Listing src/."},
		{Agent: "a1", Type: assemble.TypeToolCall, ID: "t1", Name: "ls", Input: []byte(`{"path": "src", "all": true}`)},
		{Agent: "a1", Type: assemble.TypeToolResult, ID: "t1", Name: "ls", Content: &content},
	}}
	b := verify.Side{Name: "b.sse", Format: "jsonenv", Blocks: []*assemble.Block{
		{Agent: "a1", Type: assemble.TypeText, Text: "Listing src/."},
		{Agent: "a1", Type: assemble.TypeToolCall, ID: "t1", Name: "ls", Input: []byte(`{"all":true,"path":"lib"}`)},
		{Agent: "a1", Type: assemble.TypeToolResult, ID: "t1", Name: "ls", Content: &content, IsError: true},
	}}
	r := verify.Compare(a, b, &verify.Options{Ignore: []string{verify.IgnoreIDs}})
	verify.WriteText(os.Stdout, r)
	// Output:
	// not compared: is_error (A (xml) cannot carry it)
	// agent 1 (main) block 2 (tool_call) field input.path at char 0: "src" != "lib"
	// different: 1 difference (A a.sse: 1 agent, 3 blocks; B b.sse: 1 agent, 3 blocks)
}
