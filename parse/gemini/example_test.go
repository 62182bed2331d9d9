package gemini_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/gemini"
)

func Example() {
	stream := `{"type":"init","timestamp":"t0","session_id":"s1","model":"auto"}
{"type":"message","timestamp":"t1","role":"user","content":"List /tmp/x"}
{"type":"tool_use","timestamp":"t2","tool_name":"run_shell_command","tool_id":"c1","parameters":{"command":"ls /tmp/x"}}
{"type":"tool_result","timestamp":"t3","tool_id":"c1","status":"success","output":"ls: cannot access '/tmp/x'"}
{"type":"message","timestamp":"t4","role":"assistant","content":"It does ","delta":true}
{"type":"message","timestamp":"t5","role":"assistant","content":"not exist.","delta":true}
`
	dec := gemini.NewDecoder(strings.NewReader(stream), &gemini.Config{Source: "run.jsonl"})
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, event.ErrTruncated) {
			fmt.Println(err)
			continue
		}
		switch e := ev.(type) {
		case *event.SessionStart:
			fmt.Printf("session %s, model %s, prompt %q\n", e.SessionID, e.Model, e.Prompt)
		case *event.ToolResult:
			fmt.Printf("%s: error %v: %s\n", e.Name, e.IsError, e.Content[0].Text)
		case *event.Delta:
			fmt.Printf("%q\n", e.Text)
		}
	}
	// Output:
	// session s1, model auto, prompt "List /tmp/x"
	// run_shell_command: error false: ls: cannot access '/tmp/x'
	// "It does "
	// "not exist."
	// run.jsonl:6:1: stream ended inside an assistant message, without its result line
}
