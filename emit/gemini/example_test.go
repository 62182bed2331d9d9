package gemini_test

import (
	"encoding/json"
	"fmt"
	"os"

	emit "github.com/agentstream/agentstream/emit/gemini"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := emit.NewEncoder(os.Stdout, &emit.Config{Warn: func(err error) { fmt.Println("warning:", err) }})
	for _, ev := range []event.Event{
		&event.SessionStart{Agent: "s1", Model: "gemini-2.5-pro", Prompt: "hi"},
		&event.BlockStart{Agent: "s1", Kind: event.Text},
		&event.Delta{Agent: "s1", Kind: event.Text, Text: "Hello."},
		&event.BlockEnd{Agent: "s1", Kind: event.Text},
		&event.ToolCall{Agent: "s1", ID: "c1", Name: "read_file", Input: json.RawMessage(`{"file_path":"a"}`)},
		&event.RunEnd{Agent: "s1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 10, OutputTokens: 3, Has: event.HasInput | event.HasOutput}},
	} {
		enc.Encode(ev)
	}
	enc.Close()
	// Output:
	// {"type":"init","timestamp":"","session_id":"s1","model":"gemini-2.5-pro"}
	// {"type":"message","timestamp":"","role":"user","content":"hi"}
	// {"type":"message","timestamp":"","role":"assistant","content":"Hello.","delta":true}
	// {"type":"tool_use","timestamp":"","tool_name":"read_file","tool_id":"c1","parameters":{"file_path":"a"}}
	// warning: gemini cannot carry stop reasons
	// {"type":"result","timestamp":"","status":"success","stats":{"total_tokens":13,"input_tokens":10,"output_tokens":3,"cached":null,"input":null,"tool_calls":1}}
}
