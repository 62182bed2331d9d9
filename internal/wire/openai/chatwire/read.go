package chatwire

import (
	"github.com/agentstream/agentstream/internal/jsontext"
)

// Reader decodes chunks for the decoder's hot path: in one pass with the
// reader generated from wire.go when it can, else with encoding/json,
// which gives the errors and their wording. Decoded into the same Chunk
// each time, a chunk reuses the last one's memory: its Choices, their
// ToolCalls and text pointers are valid until the next Decode.
type Reader struct {
	jr   jsontext.Reader
	data []byte // the chunk's bytes
	head []byte // a lazy chunk's bytes with [] for its choices
	one  Choice // a lazy chunk's choice being checked
	left int    // the choices NextChoice has still to read
}

// LazyBytes is the size of a chunk from which Decode leaves its choices
// to NextChoice: such a chunk's choices (100,000 choices in a few MB) are
// read one at a time, twice (once to check that the one-pass reader can
// read them all, once for each NextChoice), never held all at once.
const LazyBytes = 1 << 20

// Decode decodes data into c as json.Unmarshal into a zero Chunk does.
// The caller may reuse data once it returns (a framer's borrowed
// message): the Reader keeps its own copy.
func (cr *Reader) Decode(data []byte, c *Chunk) error {
	cr.data = append(cr.data[:0], data...)
	cr.left = 0
	ResetChunk(c)
	if len(cr.data) >= LazyBytes {
		if cr.lazy(c) {
			return nil
		}
		ResetChunk(c)
	}
	return jsontext.Decode(&cr.jr, cr.data, c, ReadChunk)
}

// lazy decodes a chunk over LazyBytes but for its choices, which it
// checks and counts, leaving them to NextChoice; false if the one-pass
// readers cannot read the chunk so (its choices not one array, or one
// they give up).
func (cr *Reader) lazy(c *Chunk) bool {
	r := &cr.jr
	r.Reset(cr.data)
	if !r.Object() {
		return false
	}
	start, end, n := -1, 0, 0
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		if string(key) != "choices" {
			r.SkipUnknown(key, func(k string) bool { return k == "choices" })
			continue
		}
		if start >= 0 || r.Peek() != '[' {
			return false // encoding/json merges a repeated array into the first
		}
		start = r.Offset()
		r.Array()
		for ; r.More(); n++ {
			ResetChoice(&cr.one)
			if !r.Null() {
				readChoice(r, &cr.one)
			}
		}
		end = r.Offset()
	}
	ResetChoice(&cr.one)
	if start < 0 || !r.End() {
		return false
	}
	cr.head = append(append(append(cr.head[:0], cr.data[:start]...), "[]"...), cr.data[end:]...)
	r.Reset(cr.head)
	if !ReadChunk(r, c) || !r.End() {
		return false
	}
	c.lazy, cr.left = n, n
	r.Reset(cr.data[start:])
	r.Array()
	return true
}

// NextChoice decodes the next choice of the chunk Decode read last into
// ch, when Decode left them to it (Chunk.Lazy), as Decode would have
// decoded it into Choices; its strings and tool calls are valid until
// the next call. It returns false after the last.
func (cr *Reader) NextChoice(ch *Choice) bool {
	if cr.left == 0 || !cr.jr.More() {
		cr.left = 0
		return false
	}
	cr.left--
	ResetChoice(ch)
	if !cr.jr.Null() {
		readChoice(&cr.jr, ch)
	}
	return true
}
