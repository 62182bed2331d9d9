package toolset_test

import (
	"fmt"

	"github.com/agentstream/agentstream/toolset"
)

func ExampleParse() {
	// An Anthropic tools array, as sent in a Messages API request.
	tools, err := toolset.Parse([]byte(`[
		{"name": "read_file", "description": "Read a file",
		 "input_schema": {"type": "object", "properties": {
			"path": {"type": "string"},
			"start_line": {"type": ["integer", "null"]}}}},
		{"name": "list_files"}
	]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range tools {
		fmt.Print(t.Name, ":")
		for _, p := range t.Params {
			fmt.Printf(" %s (%s)", p.Name, p.Type)
		}
		fmt.Println()
	}
	// Output:
	// read_file: path (string) start_line (integer)
	// list_files:
}

func ExampleParseFlags() {
	tools, err := toolset.ParseFlags([]string{"read_file:path,start_line; search"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range tools {
		fmt.Printf("%s %d params, declared: %v\n", t.Name, len(t.Params), t.Params != nil)
	}
	// Output:
	// read_file 2 params, declared: true
	// search 0 params, declared: false
}
