package xml_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/agentstream/agentstream/emit/xml"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := xml.NewEncoder(os.Stdout, &xml.Config{Warn: func(err error) { fmt.Println("warning:", err) }})
	for _, ev := range []event.Event{
		&event.BlockStart{Kind: event.Text},
		&event.Delta{Kind: event.Text, Text: "Listing C:\\tmp\n"},
		&event.BlockEnd{Kind: event.Text},
		&event.ToolCall{ID: "t1", Name: "Bash", Input: json.RawMessage(`{"command":"ls \"é\""}`)},
		&event.ToolResult{ID: "t1", Name: "Bash", IsError: true, Content: []event.Part{{Type: "text", Text: "a\nb"}}},
	} {
		if err := enc.Encode(ev); err != nil {
			fmt.Println(err)
		}
	}
	if err := enc.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// data: <content-block-text>
	//
	// data: Listing C:\\tmp\n
	//
	// data: </content-block-text>
	//
	// data: <content-block-tool_call id="t1" name="Bash" arguments="{&quot;command&quot;: &quot;ls \\&quot;\\u00e9\\&quot;&quot;}"></content-block-tool_call>
	//
	// warning: xml cannot carry tool result is_error
	// data: <content-block-tool_result id="t1" name="Bash"><![CDATA[a\nb]]></content-block-tool_result>
	//
	// data: [DONE]
}
