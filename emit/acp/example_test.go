package acp_test

import (
	"encoding/json"
	"os"

	emitacp "github.com/agentstream/agentstream/emit/acp"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := emitacp.NewEncoder(os.Stdout, &emitacp.Config{Agent: "sess-1"})
	for _, ev := range []event.Event{
		&event.BlockStart{Kind: event.Text},
		&event.Delta{Kind: event.Text, Text: "Done."},
		&event.BlockEnd{Kind: event.Text},
		&event.ToolCall{ID: "c1", Name: "Read", Input: json.RawMessage(`{"file_path":"/a"}`)},
		&event.ToolResult{ID: "c1", Name: "Read", Content: []event.Part{{Type: "text", Text: "hello"}}},
		&event.RunEnd{StopReason: "end_turn"},
	} {
		if err := enc.Encode(ev); err != nil {
			panic(err)
		}
	}
	if err := enc.Close(); err != nil {
		panic(err)
	}
	// Output:
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Done."}}}}
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read","kind":"read","rawInput":{"file_path":"/a"}}}}
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"hello"}}]}}}
	// {"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}
}
