package xmltools_test

import (
	"encoding/json"
	"os"

	"github.com/agentstream/agentstream/emit/xmltools"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := xmltools.NewEncoder(os.Stdout, &xmltools.Config{Nonce: "abcd1234"})
	for _, ev := range []event.Event{
		&event.ToolCall{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"df -h"}`)},
		&event.ToolResult{ID: "toolu_1", Content: []event.Part{{Type: "text", Text: "/var 91%"}}},
		&event.Delta{Kind: event.Text, Text: "/var is nearly full."},
		&event.BlockEnd{Kind: event.Text},
		&event.RunEnd{Result: "/var is nearly full."},
	} {
		enc.Encode(ev)
	}
	enc.Close()
	// Output:
	// <ai-agent-abcd1234-0001 tool="Bash">{"command":"df -h"}</ai-agent-abcd1234-0001>
	// <ai-agent-abcd1234-0001 tool="Bash" status="ok">
	// <request>
	// {"command":"df -h"}
	// </request>
	// <response>
	// /var 91%
	// </response>
	// </ai-agent-abcd1234-0001>
	// <ai-agent-abcd1234-FINAL format="markdown">/var is nearly full.</ai-agent-abcd1234-FINAL>
}
