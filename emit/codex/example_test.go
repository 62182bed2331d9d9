package codex_test

import (
	"encoding/json"
	"os"

	"github.com/agentstream/agentstream/emit/codex"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := codex.NewEncoder(os.Stdout, &codex.Config{Agent: "T1"})
	enc.Encode(&event.TurnStart{})
	enc.Encode(&event.ToolCall{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)})
	enc.Encode(&event.ToolResult{ID: "toolu_1", Content: []event.Part{{Type: "text", Text: "a.go\n"}}})
	enc.Encode(&event.BlockStart{Kind: event.Text})
	enc.Encode(&event.Delta{Kind: event.Text, Text: "One "})
	enc.Encode(&event.Delta{Kind: event.Text, Text: "file."})
	enc.Encode(&event.BlockEnd{Kind: event.Text})
	enc.Encode(&event.TurnEnd{Usage: &event.Usage{InputTokens: 900, OutputTokens: 12, Has: event.HasInput | event.HasOutput}})
	enc.Close()
	// Output:
	// {"type":"thread.started","thread_id":"T1"}
	// {"type":"turn.started"}
	// {"type":"item.started","item":{"id":"toolu_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}
	// {"type":"item.completed","item":{"id":"toolu_1","type":"command_execution","command":"ls","aggregated_output":"a.go\n","status":"completed"}}
	// {"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"One file."}}
	// {"type":"turn.completed","usage":{"input_tokens":900,"output_tokens":12}}
}
