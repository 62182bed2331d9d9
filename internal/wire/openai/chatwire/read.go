package chatwire

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/openai"
)

// Reader decodes chunks for the decoder's hot path: in one pass with
// jsontext.Reader when it can, else with encoding/json, which gives the
// errors and their wording. It reuses its buffers from chunk to chunk: a
// chunk's Choices, their ToolCalls and text pointers are valid until the
// next Decode. It reads the chunk, its choices and their deltas itself,
// keeping their memory from chunk to chunk (what a generated reader,
// which decodes into a zero value, cannot); the rest (tool calls, usage,
// the vocabulary) with the readers generated from wire.go.
type Reader struct {
	jr      jsontext.Reader
	data    []byte // the chunk's bytes
	choices []Choice
	calls   []ToolCallDelta
	// the last id, model, service_tier and system_fingerprint read,
	// reused while they repeat
	id, model, tier, fprint repeated
	fpval                   *string // fprint's value
	created                 struct {
		text string
		n    int64
	}

	lazy  bool   // the chunk being read is over LazyBytes: its choices are left to NextChoice
	one   Choice // a lazy chunk's choice being read
	start int    // the offset of a lazy chunk's choices array
	left  int    // the choices NextChoice has still to read
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
	clear(cr.calls) // the last chunk's strings: not kept alive
	cr.calls = cr.calls[:0]
	*c = Chunk{}
	cr.lazy, cr.left = len(cr.data) >= LazyBytes, 0
	cr.jr.Reset(cr.data)
	if cr.read(c) && cr.jr.End() {
		if cr.left > 0 {
			c.lazy = cr.left
			cr.jr.Reset(cr.data[cr.start:])
			cr.jr.Array()
		}
		return nil
	}
	cr.lazy, cr.left = false, 0
	*c = Chunk{}
	return json.Unmarshal(cr.data, c)
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
	clear(cr.calls)
	cr.calls = cr.calls[:0]
	*ch = Choice{}
	cr.readChoice(ch)
	return true
}

func (cr *Reader) read(c *Chunk) bool {
	r := &cr.jr
	if !r.Object() {
		return false
	}
	choices := false
	// The keys of a chunk in the order OpenAI writes them, asked for in
	// turn (jsontext.Reader.KeyIs: a comparison each, where Key scans
	// the key and the switch compares it again); the loop reads the
	// rest, and any chunk written otherwise.
	if r.KeyIs(`"id":`) {
		cr.id.field(r, &c.ID)
		if r.KeyIs(`"object":`) {
			readObject(r, c)
			if r.KeyIs(`"created":`) {
				cr.readCreated(c)
				if r.KeyIs(`"model":`) {
					cr.model.field(r, &c.Model)
					if r.KeyIs(`"service_tier":`) {
						cr.tier.field(r, &c.ServiceTier)
					}
					if r.KeyIs(`"system_fingerprint":`) {
						cr.fingerprint(c)
					}
					if r.KeyIs(`"choices":`) {
						choices = true
						cr.readChoices(c)
						if r.KeyIs(`"usage":`) {
							readUsageField(r, c)
						}
					}
				}
			}
		}
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "id":
			cr.id.field(r, &c.ID)
		case "object":
			readObject(r, c)
		case "created":
			cr.readCreated(c)
		case "model":
			cr.model.field(r, &c.Model)
		case "service_tier":
			cr.tier.field(r, &c.ServiceTier)
		case "system_fingerprint":
			cr.fingerprint(c)
		case "choices":
			if choices {
				r.Fail() // encoding/json decodes a repeated array into the first
			}
			choices = true
			cr.readChoices(c)
		case "usage":
			readUsageField(r, c)
		case "error":
			r.Peek() // past white space: the object's text starts at its first byte
			off := r.Offset()
			if r.Null() {
				c.Error, c.errorJSON = nil, nil
				continue
			}
			openai.ReadAPIError(r, jsontext.Ensure(&c.Error))
			c.errorJSON = r.Since(off)
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

func readObject(r *jsontext.Reader, c *Chunk) {
	if r.Peek() == '"' && r.StringIs(`"`+ObjectChunk+`"`) {
		c.Object = ObjectChunk
	} else if !r.Null() {
		c.Object = internObject(r.Str())
	}
}

// readCreated reads created, which repeats from chunk to chunk: while
// its text does, it is not read again.
func (cr *Reader) readCreated(c *Chunk) {
	r := &cr.jr
	if r.Null() {
		return
	}
	off := r.Offset()
	if t := cr.created.text; t != "" && r.StringIs(t) {
		if b := r.Peek(); b == ',' || b == '}' {
			c.Created = cr.created.n
			return
		}
		r.Rewind(off, r.Depth()) // a longer number
	}
	c.Created = r.Int()
	if text := r.Since(off); !r.Failed() && string(text) != cr.created.text {
		cr.created.text, cr.created.n = string(text), c.Created
	}
}

func readUsageField(r *jsontext.Reader, c *Chunk) {
	if r.Null() {
		c.Usage = nil
		return
	}
	readUsage(r, jsontext.Ensure(&c.Usage))
}

// fingerprint reads a system_fingerprint: the last one's pointer while
// it repeats.
func (cr *Reader) fingerprint(c *Chunk) {
	if cr.jr.Null() {
		c.SystemFingerprint = nil
		return
	}
	if s := cr.fprint.read(&cr.jr); cr.fpval == nil || s != *cr.fpval {
		cr.fpval = new(string)
		*cr.fpval = s
	}
	c.SystemFingerprint = cr.fpval
}

func (cr *Reader) readChoices(c *Chunk) {
	r := &cr.jr
	if r.Null() {
		c.Choices = nil
		return
	}
	if !r.Array() {
		return
	}
	if cr.choices == nil {
		cr.choices = make([]Choice, 0, 2)
	}
	cr.choices = cr.choices[:0]
	if cr.lazy {
		// Read each choice, to know the reader can, and keep none.
		cr.start = r.Offset() - 1 // at the '[' Array read
		n := 0
		for r.More() {
			cr.calls = cr.calls[:0]
			cr.one = Choice{}
			cr.readChoice(&cr.one)
			n++
		}
		cr.one, cr.left = Choice{}, n
		c.Choices = cr.choices
		return
	}
	for r.More() {
		cr.choices = append(cr.choices, Choice{})
		cr.readChoice(&cr.choices[len(cr.choices)-1])
	}
	c.Choices = cr.choices
}

func (cr *Reader) readChoice(ch *Choice) {
	r := &cr.jr
	if !r.Object() {
		return
	}
	delta := false
	// A choice's keys in the order OpenAI writes them (see read).
	if r.KeyIs(`"index":`) {
		jsontext.ReadInt(r, &ch.Index)
		if r.KeyIs(`"delta":`) {
			delta = true
			if !r.Null() {
				cr.readDelta(&ch.Delta)
			}
			if r.KeyIs(`"logprobs":`) {
				readLogprobs(r, ch)
			}
			if r.KeyIs(`"finish_reason":`) {
				readFinish(r, ch)
			}
		}
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "index":
			jsontext.ReadInt(r, &ch.Index)
		case "delta":
			if delta {
				r.Fail() // encoding/json merges a repeated delta into the first
			}
			delta = true
			if !r.Null() {
				cr.readDelta(&ch.Delta)
			}
		case "logprobs":
			readLogprobs(r, ch)
		case "finish_reason":
			readFinish(r, ch)
		default:
			r.Skip()
		}
	}
}

func readLogprobs(r *jsontext.Reader, ch *Choice) {
	if r.Null() {
		ch.Logprobs = nil
	} else {
		jsontext.ReadAny(r, &ch.Logprobs)
	}
}

func readFinish(r *jsontext.Reader, ch *Choice) {
	if r.Null() {
		ch.FinishReason = nil
		return
	}
	s := internFinish(r.Str())
	ch.FinishReason = &s
}

func (cr *Reader) readDelta(d *Delta) {
	r := &cr.jr
	if !r.Object() {
		return
	}
	calls := false
	// A delta's first keys in the order OpenAI writes them (see read).
	if r.KeyIs(`"role":`) {
		readRole(r, d)
	}
	if r.KeyIs(`"content":`) {
		d.Content = cr.text(&d.text[0])
		if r.KeyIs(`"refusal":`) {
			d.Refusal = cr.text(&d.text[1])
		}
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "role":
			readRole(r, d)
		case "content":
			d.Content = cr.text(&d.text[0])
		case "refusal":
			d.Refusal = cr.text(&d.text[1])
		case "reasoning_content":
			d.ReasoningContent = cr.text(&d.text[2])
		case "reasoning":
			d.Reasoning = cr.text(&d.text[3])
		case "tool_calls":
			if calls {
				r.Fail()
			}
			calls = true
			cr.readToolCalls(d)
		default:
			r.Skip()
		}
	}
}

func readRole(r *jsontext.Reader, d *Delta) {
	if !r.Null() {
		d.Role = internRole(r.Str())
	}
}

// text reads a string or null into a *string field, keeping the string in
// *s, a slot of its delta: no allocation but the text's.
func (cr *Reader) text(s *string) *string {
	if cr.jr.Null() {
		return nil
	}
	*s = cr.jr.String()
	return s
}

func (cr *Reader) readToolCalls(d *Delta) {
	r := &cr.jr
	if r.Null() {
		d.ToolCalls = nil
		return
	}
	if !r.Array() {
		return
	}
	if cr.calls == nil {
		cr.calls = make([]ToolCallDelta, 0, 4)
	}
	start := len(cr.calls)
	for r.More() {
		cr.calls = append(cr.calls, ToolCallDelta{})
		if !r.Null() {
			readToolCallDelta(r, &cr.calls[len(cr.calls)-1])
		}
	}
	d.ToolCalls = cr.calls[start:len(cr.calls):len(cr.calls)]
}

// repeated is a string value that repeats from chunk to chunk (a
// completion's id, its model): its text as the input wrote it, quotes
// included, and its value, so that a repeat is read with one comparison
// and no allocation.
type repeated struct{ text, val string }

// field reads a string into a string field: null leaves it as it is.
func (p *repeated) field(r *jsontext.Reader, s *string) {
	if !r.Null() {
		*s = p.read(r)
	}
}

// read reads a string value.
func (p *repeated) read(r *jsontext.Reader) string {
	r.Peek() // past white space
	if p.text != "" && r.StringIs(p.text) {
		return p.val
	}
	off := r.Offset()
	b := r.Str()
	if r.Failed() {
		return ""
	}
	if string(b) != p.val {
		p.val = string(b)
	}
	p.text = string(r.Since(off))
	return p.val
}
