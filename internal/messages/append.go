package messages

import (
	"strconv"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// appendDelta appends the content_block_delta of text for a block of
// kind at index, as Marshal writes blockDelta: the stream event of every
// text and thinking delta, written without reflection or allocation.
func appendDelta(b []byte, index int, kind event.BlockKind, text string) []byte {
	b = append(b, `{"type":"content_block_delta","index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	if kind == event.Thinking {
		b = append(b, `,"delta":{"type":"thinking_delta","thinking":`...)
	} else {
		b = append(b, `,"delta":{"type":"text_delta","text":`...)
	}
	b = jsontext.AppendMarshalString(b, text)
	return append(b, "}}"...)
}

// appendTextBlock appends b, which has no citations, as Marshal writes
// it.
func appendTextBlock(buf []byte, b textBlock) []byte {
	buf = append(buf, `{"type":`...)
	buf = jsontext.AppendMarshalString(buf, b.Type)
	buf = append(buf, `,"text":`...)
	return append(jsontext.AppendMarshalString(buf, b.Text), '}')
}

// appendThinkingBlock appends b as Marshal writes it.
func appendThinkingBlock(buf []byte, b thinkingBlock) []byte {
	buf = append(buf, `{"type":`...)
	buf = jsontext.AppendMarshalString(buf, b.Type)
	buf = append(buf, `,"thinking":`...)
	buf = jsontext.AppendMarshalString(buf, b.Thinking)
	buf = append(buf, `,"signature":`...)
	return append(jsontext.AppendMarshalString(buf, b.Signature), '}')
}

// AppendMessage appends the message object of an assistant snapshot
// holding blocks, each a content block as the Streamer gives it (valid,
// compact JSON), as Marshal writes it: a message without stop reason
// and with zero usage, written without reflection.
func AppendMessage(b []byte, id, model string, blocks ...[]byte) []byte {
	b = append(b, `{"id":`...)
	b = jsontext.AppendMarshalString(b, id)
	b = append(b, `,"type":"message","role":"assistant","model":`...)
	b = jsontext.AppendMarshalString(b, model)
	b = append(b, `,"content":[`...)
	for i, block := range blocks {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, block...)
	}
	return append(b, `],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}}`...)
}
