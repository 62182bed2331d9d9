package messages

import (
	"strconv"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
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
	b = appendString(b, text)
	return append(b, "}}"...)
}

// appendTextBlock appends b, which has no citations, as Marshal writes
// it.
func appendTextBlock(buf []byte, b textBlock) []byte {
	buf = append(buf, `{"type":`...)
	buf = appendString(buf, b.Type)
	buf = append(buf, `,"text":`...)
	return append(appendString(buf, b.Text), '}')
}

// appendThinkingBlock appends b as Marshal writes it.
func appendThinkingBlock(buf []byte, b thinkingBlock) []byte {
	buf = append(buf, `{"type":`...)
	buf = appendString(buf, b.Type)
	buf = append(buf, `,"thinking":`...)
	buf = appendString(buf, b.Thinking)
	buf = append(buf, `,"signature":`...)
	return append(appendString(buf, b.Signature), '}')
}

// appendString appends s as a JSON string exactly as Marshal (encoding/json
// without HTML escaping) writes it: \b \f \n \r \t and \u00XX for the other
// control characters, \u2028 and \u2029 escaped, invalid UTF-8 as \ufffd.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
