package openairesp_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/openairesp"
)

func Example() {
	in := `event: response.created
data: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","model":"gpt-5","status":"in_progress","output":[]}}

event: response.output_item.added
data: {"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"exec","arguments":""}}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","sequence_number":2,"item_id":"fc_1","output_index":0,"delta":"{\"cmd\":\"ls\"}"}

event: response.output_item.done
data: {"type":"response.output_item.done","sequence_number":4,"output_index":0,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"exec","arguments":"{\"cmd\":\"ls\"}"}}

event: response.completed
data: {"type":"response.completed","sequence_number":5,"response":{"id":"resp_1","status":"completed","usage":{"input_tokens":100,"input_tokens_details":{"cached_tokens":80},"output_tokens":7}}}

`
	dec := openairesp.NewDecoder(strings.NewReader(in), &openairesp.Config{Source: "body.sse"})
	for ev, err := dec.Next(); err != io.EOF; ev, err = dec.Next() {
		switch ev := ev.(type) {
		case nil: // a problem in the input: reading goes on
			fmt.Println("problem:", err)
		case *event.TurnStart:
			fmt.Println("turn", ev.MessageID, ev.Model)
		case *event.ToolCall:
			fmt.Printf("call %s %s\n", ev.Name, ev.Input)
		case *event.TurnEnd:
			fmt.Printf("end %s, %d in + %d cached\n", ev.StopReason, ev.Usage.InputTokens, ev.Usage.CacheReadTokens)
		}
	}
	// Output:
	// turn resp_1 gpt-5
	// call exec {"cmd":"ls"}
	// problem: body.sse:10:1: sequence_number 4 after 2: 1 events missing
	// end tool_use, 20 in + 80 cached
}
