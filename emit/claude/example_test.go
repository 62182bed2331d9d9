package claude_test

import (
	"encoding/json"
	"os"

	"github.com/agentstream/agentstream/emit/claude"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := claude.NewEncoder(os.Stdout, nil)
	enc.Encode(&event.SessionStart{Agent: "s1", SessionID: "s1", Model: "claude-opus-4-8", Cwd: "/w"})
	enc.Encode(&event.ToolCall{Agent: "s1", ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)})
	enc.Encode(&event.ToolResult{Agent: "s1", ID: "toolu_1", Name: "Bash", Content: []event.Part{{Type: "text", Text: "a.txt"}}})
	enc.Close()
	// Output:
	// {"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"mcp_servers":[],"model":"claude-opus-4-8","permissionMode":"default","slash_commands":[],"apiKeySource":"none","claude_code_version":"agentstream","output_style":"default","agents":[],"skills":[],"plugins":[],"uuid":"a0fbfa9f-f65c-4b0e-ad8b-a40b7b40bb52"}
	// {"type":"assistant","message":{"id":"msg_e8bc163c82ee_1","type":"message","role":"assistant","model":"claude-opus-4-8","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":null,"output_tokens":null}},"parent_tool_use_id":null,"session_id":"s1","uuid":"d1d7cd19-2cf0-4216-8e44-a3d7063985fe"}
	// {"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"a.txt","is_error":false}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"b8a93770-25a5-4407-b337-e3e66e9979b5"}
	// {"type":"result","subtype":"success","is_error":false,"duration_ms":0,"duration_api_ms":0,"num_turns":1,"result":"","stop_reason":null,"session_id":"s1","total_cost_usd":null,"usage":{"input_tokens":null,"output_tokens":null},"modelUsage":{},"permission_denials":[],"uuid":"8fe90473-d255-451f-9310-b8841dc73804"}
}
