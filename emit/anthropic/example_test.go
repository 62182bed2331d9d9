package anthropic_test

import (
	"os"

	"github.com/agentstream/agentstream/emit/anthropic"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := anthropic.NewEncoder(os.Stdout, nil)
	enc.Encode(&event.TurnStart{MessageID: "msg_1", Model: "claude-opus-4-8"})
	enc.Encode(&event.BlockStart{Kind: event.Text})
	enc.Encode(&event.Delta{Kind: event.Text, Text: "Hi"})
	enc.Encode(&event.BlockEnd{Kind: event.Text})
	enc.Encode(&event.TurnEnd{MessageID: "msg_1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 5, OutputTokens: 2, Has: event.HasInput | event.HasOutput}})
	enc.Close()
	// Output:
	// event: message_start
	// data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-8","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":null,"output_tokens":null}}}
	//
	// event: content_block_start
	// data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
	//
	// event: content_block_delta
	// data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}
	//
	// event: content_block_stop
	// data: {"type":"content_block_stop","index":0}
	//
	// event: message_delta
	// data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":5,"output_tokens":2}}
	//
	// event: message_stop
	// data: {"type":"message_stop"}
}
