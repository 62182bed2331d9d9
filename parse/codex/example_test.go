package codex_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/codex"
)

func Example() {
	in := `{"type":"thread.started","thread_id":"T1"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"a.go\n","exit_code":0,"status":"completed"}}
not json
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"One file."}}
{"type":"turn.completed","usage":{"input_tokens":900,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":12,"reasoning_output_tokens":0}}
`
	dec := codex.NewDecoder(strings.NewReader(in), &codex.Config{Source: "run.jsonl"})
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
			fmt.Printf("call %s %s\n", ev.Name, ev.Input)
		case *event.ToolResult:
			fmt.Printf("result exit %d %q\n", *ev.ExitCode, ev.Content[0].Text)
		case *event.Delta:
			fmt.Printf("%s %q\n", ev.Kind, ev.Text)
		case *event.TurnEnd:
			fmt.Printf("turn end: %d in, %d out\n", ev.Usage.InputTokens, ev.Usage.OutputTokens)
		default:
			fmt.Printf("%T\n", ev)
		}
	}
	// Output:
	// *event.SessionStart
	// *event.TurnStart
	// call command_execution {"command":"ls"}
	// result exit 0 "a.go\n"
	// problem: run.jsonl:5:1: expected a JSON object
	// *event.BlockStart
	// text "One file."
	// *event.BlockEnd
	// turn end: 900 in, 12 out
}

func ExampleDecoder_All() {
	in := `{"type":"thread.started","thread_id":"T1"}
{"type":"item.completed","item":{"id":"item_0","type":"file_change","changes":[{"path":"a.go","kind":"update"}],"status":"completed"}}
`
	for ev, err := range codex.NewDecoder(strings.NewReader(in), nil).All() {
		if err != nil {
			fmt.Println("problem:", err)
			continue
		}
		if fc, ok := ev.(*event.FileChange); ok {
			fmt.Println(fc.Changes[0].Kind, fc.Changes[0].Path)
		}
	}
	// Output:
	// update a.go
}
