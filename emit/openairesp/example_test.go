package openairesp_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agentstream/agentstream/emit/openairesp"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	var out bytes.Buffer
	enc := openairesp.NewEncoder(&out, nil)
	for _, ev := range []event.Event{
		&event.TurnStart{MessageID: "msg_1", Model: "claude-opus-4-8"},
		&event.Delta{Kind: event.Thinking, Text: "Simple."},
		&event.BlockEnd{Kind: event.Thinking, Signature: "c2ln"},
		&event.Delta{Kind: event.Text, Text: "Paris."},
		&event.BlockEnd{Kind: event.Text},
		&event.TurnEnd{MessageID: "msg_1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 9, OutputTokens: 4, Has: event.HasInput | event.HasOutput}},
	} {
		enc.Encode(ev)
	}
	enc.Close()
	for _, line := range strings.Split(out.String(), "\n") {
		if typ, ok := strings.CutPrefix(line, "event: "); ok {
			fmt.Println(typ)
		}
	}
	// Output:
	// response.created
	// response.in_progress
	// response.output_item.added
	// response.reasoning_summary_part.added
	// response.reasoning_summary_text.delta
	// response.reasoning_summary_text.done
	// response.reasoning_summary_part.done
	// response.output_item.done
	// response.output_item.added
	// response.content_part.added
	// response.output_text.delta
	// response.output_text.done
	// response.content_part.done
	// response.output_item.done
	// response.completed
}
