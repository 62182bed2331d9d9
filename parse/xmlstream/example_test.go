package xmlstream_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/xmlstream"
)

func Example() {
	const stream = `data: <content-block-text>

data: a < b && C:\\new\n

data: </content-block-text>

data:  is text

data: </content-block-text>

data: <content-block-tool_call id="t1" name="Bash" arguments="{&quot;command&quot;: &quot;ls&quot;}"></content-block-tool_call>

data: <content-block-tool_result id="t1" name="Bash"><![CDATA[a.txt\nb.txt]]></content-block-tool_result>

data: [DONE]

`
	dec := xmlstream.NewDecoder(strings.NewReader(stream), nil)
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("problem:", err)
			continue
		}
		switch e := ev.(type) {
		case *event.Delta:
			fmt.Printf("delta %q\n", e.Text)
		case *event.ToolCall:
			fmt.Printf("call %s %s\n", e.Name, e.Input)
		case *event.ToolResult:
			fmt.Printf("result %q\n", e.Content[0].Text)
		default:
			fmt.Printf("%T\n", ev)
		}
	}
	// Output:
	// *event.BlockStart
	// delta "a < b && C:\\new\n"
	// delta "</content-block-text>"
	// delta " is text"
	// *event.BlockEnd
	// call Bash {"command": "ls"}
	// result "a.txt\nb.txt"
}
