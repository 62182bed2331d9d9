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
