package openaichat_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/agentstream/agentstream/emit/openaichat"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := openaichat.NewEncoder(os.Stdout, &openaichat.Config{Warn: func(err error) { fmt.Println("warning:", err) }})
	for _, ev := range []event.Event{
		&event.TurnStart{MessageID: "msg_1", Model: "claude-opus-4-8"},
		&event.Delta{Kind: event.Text, Text: "Hi."},
		&event.BlockEnd{Kind: event.Text},
		&event.ToolCall{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.TurnEnd{MessageID: "msg_1", StopReason: "tool_use"},
		&event.ToolResult{ID: "toolu_1", Content: []event.Part{{Type: "text", Text: "a.txt"}}},
	} {
		enc.Encode(ev)
	}
	enc.Close()
	// Output:
	// data: {"id":"msg_1","object":"chat.completion.chunk","model":"claude-opus-4-8","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}
	//
	// data: {"id":"msg_1","object":"chat.completion.chunk","model":"claude-opus-4-8","choices":[{"index":0,"delta":{"content":"Hi."},"logprobs":null,"finish_reason":null}]}
	//
	// data: {"id":"msg_1","object":"chat.completion.chunk","model":"claude-opus-4-8","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"toolu_1","type":"function","function":{"name":"Bash","arguments":""}}]},"logprobs":null,"finish_reason":null}]}
	//
	// data: {"id":"msg_1","object":"chat.completion.chunk","model":"claude-opus-4-8","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"command\":\"ls\"}"}}]},"logprobs":null,"finish_reason":null}]}
	//
	// data: {"id":"msg_1","object":"chat.completion.chunk","model":"claude-opus-4-8","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}
	//
	// data: [DONE]
	//
	// warning: openai-chat cannot carry client tool results (the client sends them in the next request)
}
