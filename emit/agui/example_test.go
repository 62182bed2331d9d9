package agui_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/agentstream/agentstream/emit/agui"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := agui.NewEncoder(os.Stdout, &agui.Config{Warn: func(err error) { fmt.Println("warning:", err) }})
	for _, ev := range []event.Event{
		&event.SessionStart{Agent: "run_1", SessionID: "thread_1"},
		&event.BlockStart{Agent: "run_1", Kind: event.Text},
		&event.Delta{Agent: "run_1", Kind: event.Text, Text: "Listing."},
		&event.BlockEnd{Agent: "run_1", Kind: event.Text},
		&event.ToolCall{Agent: "run_1", ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.ToolResult{Agent: "run_1", ID: "toolu_1", Content: []event.Part{{Type: "text", Text: "a.txt"}}},
		&event.RunEnd{Agent: "run_1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 10, CacheReadTokens: 5, OutputTokens: 3, Has: event.HasInput | event.HasOutput | event.HasCacheRead}},
	} {
		enc.Encode(ev)
	}
	enc.Close()
	// Output:
	// data: {"type":"RUN_STARTED","threadId":"thread_1","runId":"run_1"}
	//
	// data: {"type":"TEXT_MESSAGE_START","messageId":"agentstream-1","role":"assistant"}
	//
	// data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"agentstream-1","delta":"Listing."}
	//
	// data: {"type":"TEXT_MESSAGE_END","messageId":"agentstream-1"}
	//
	// data: {"type":"TOOL_CALL_START","toolCallId":"toolu_1","toolCallName":"Bash","parentMessageId":"agentstream-1"}
	//
	// data: {"type":"TOOL_CALL_ARGS","toolCallId":"toolu_1","delta":"{\"command\":\"ls\"}"}
	//
	// data: {"type":"TOOL_CALL_END","toolCallId":"toolu_1"}
	//
	// data: {"type":"TOOL_CALL_RESULT","messageId":"agentstream-2","toolCallId":"toolu_1","content":"a.txt","role":"tool"}
	//
	// warning: agui cannot carry stop reasons
	// data: {"type":"RUN_FINISHED","threadId":"thread_1","runId":"run_1","usage":[{"inputTokens":15,"outputTokens":3,"cachedInputTokens":5}]}
	//
}
