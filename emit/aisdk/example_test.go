package aisdk_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/agentstream/agentstream/emit/aisdk"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := aisdk.NewEncoder(os.Stdout, &aisdk.Config{Warn: func(err error) { fmt.Println("warning:", err) }})
	for _, ev := range []event.Event{
		&event.TurnStart{},
		&event.Delta{Kind: event.Text, Text: "Hi."},
		&event.BlockEnd{Kind: event.Text},
		&event.ToolCall{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.ToolResult{ID: "toolu_1", Content: []event.Part{{Type: "text", Text: "a.txt"}}},
		&event.TurnEnd{StopReason: "end_turn", Usage: &event.Usage{InputTokens: 10, OutputTokens: 3, Has: event.HasInput | event.HasOutput}},
	} {
		enc.Encode(ev)
	}
	enc.Close()
	// Output:
	// data: {"type":"start"}
	//
	// data: {"type":"start-step"}
	//
	// data: {"type":"text-start","id":"text-1"}
	//
	// data: {"type":"text-delta","id":"text-1","delta":"Hi."}
	//
	// data: {"type":"text-end","id":"text-1"}
	//
	// data: {"type":"tool-input-available","toolCallId":"toolu_1","toolName":"Bash","input":{"command":"ls"}}
	//
	// data: {"type":"tool-output-available","toolCallId":"toolu_1","output":"a.txt"}
	//
	// warning: aisdk cannot carry usage
	// data: {"type":"finish-step"}
	//
	// data: {"type":"finish","finishReason":"stop"}
	//
	// data: [DONE]
	//
}
