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
	data []byte // the chunk's bytes: the caller's, or own
	own  []byte // a copy of a lazy chunk's
	head []byte // a lazy chunk's bytes, or its members before the choices (learn), with [] for its choices
	one  Choice // a lazy chunk's choice being checked
	left int    // the choices NextChoice has still to read
	// The members of a chunk before its choices (its id, object,
	// created, model, ...), which a completion repeats in every chunk,
	// byte for byte, and what they decode to: a chunk that begins with
	// them has only its choices (and usage) read (sameHead).
	memo   []byte // the members, up to "choices": included
	memoed header
	hc     Chunk // the members decoded alone (learn)
	// The texts of the choices (what follows "choices":) of the latest
	// chunks whose one choice was one string (sameText).
	texts [textTemplates]textTemplate
	older int    // the one of texts learnText replaces
	probe []byte // a template with "" for its string (learnText)
	pc    Chunk  // what probe decodes to
}

// header is what a chunk's members before its choices decode to.
type header struct {
	id, object, model, tier string
	created                 int64
	fprint                  *string
}

// LazyBytes is the size of a chunk from which Decode leaves its choices
// to NextChoice: such a chunk's choices (100,000 choices in a few MB) are
// read one at a time, twice (once to check that the one-pass reader can
// read them all, once for each NextChoice), never held all at once.
const LazyBytes = 1 << 20

// Decode decodes data into c as json.Unmarshal into a zero Chunk does.
// The caller may reuse data once it returns (a framer's borrowed
// message): the Reader keeps a copy of a chunk whose choices it leaves
// to NextChoice, and reads no other after Decode; ErrorJSON's text is
// data's. The members before the choices are decoded once for the
// chunks of a completion that repeat them (learn, sameHead).
func (cr *Reader) Decode(data []byte, c *Chunk) error {
	cr.left = 0
	ResetChunk(c)
	cr.data = data
	if len(data) >= LazyBytes {
		cr.own = append(cr.own[:0], data...) // read by NextChoice after
		cr.data = cr.own
		if cr.lazy(c) {
			return nil
		}
		ResetChunk(c)
	}
	if len(cr.memo) == 0 || !hasPrefix(cr.data, cr.memo) {
		cr.learn()
	}
	if len(cr.memo) > 0 && hasPrefix(cr.data, cr.memo) && cr.sameHead(c) {
		return nil
	}
	ResetChunk(c)
	return jsontext.Decode(&cr.jr, cr.data, c, ReadChunk)
}

// sameHead decodes a chunk that begins with the members memo holds: its
// header is what they decoded to, its choices array and what follows it
// (a usage object, the '}') are read as ReadChunk reads them, or as a
// template's text around one string (sameText). It reports
// false when the rest is anything else (the choices null, another
// member), or what the one-pass reader gives up on: the caller decodes
// the chunk the general way.
//
// Exact, as members are decoded one by one and the last of a repeated
// key wins: the memo's members decode to the memo's header, and what
// follows them sets no field of it.
func (cr *Reader) sameHead(c *Chunk) bool {
	rest := cr.data[len(cr.memo):]
	if !cr.sameText(rest, c) {
		r := &cr.jr
		r.Reset(rest)
		r.Rewind(0, 1) // inside the chunk's object
		if !readRest(r, c) {
			return false
		}
		cr.learnText(rest, c)
	}
	h := &cr.memoed
	c.ID, c.Object, c.Created, c.Model, c.ServiceTier, c.SystemFingerprint = h.id, h.object, h.created, h.model, h.tier, h.fprint
	return true
}

// readRest reads what follows a chunk's "choices": into c as ReadChunk
// reads it, when it is the choices array, then usage members only, then
// the chunk's '}'; it reports false on anything else (the choices null,
// another member), and when r gives up.
func readRest(r *jsontext.Reader, c *Chunk) bool {
	if r.Peek() != '[' {
		return false
	}
	r.Array()
	s := c.choices[:0]
	for r.More() {
		s = jsontext.Extend(s)
		ResetChoice(&s[len(s)-1])
		if !(r.Peek() == 'n' && r.Null()) {
			readChoice(r, &s[len(s)-1])
		}
	}
	c.choices = s
	c.Choices = jsontext.NotNil(s[:len(s):len(s)])
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		if string(key) != "usage" {
			return false
		}
		if r.Peek() == 'n' && r.Null() {
			c.Usage = nil
		} else {
			readUsage(r, jsontext.Ensure(&c.Usage))
		}
	}
	return r.End()
}

// maxHead bounds the members before the choices that learn keeps (twice:
// the memo and the header it decodes): a chunk with more has them read
// in full, as a chunk that does not repeat its header always is.
const maxHead = 4 << 10

// learn finds the members before the choices of the chunk Decode reads
// and decodes them alone, as the chunk's head with no choices, into the
// memo, for sameHead. It leaves the memo as it was when the chunk has no
// choices, when a key before them is one that encoding/json could match
// to a field case-insensitively (Key fails on it), when the one-pass
// reader gives up on them, when they set the usage or the error, or
// when they are longer than maxHead.
func (cr *Reader) learn() {
	r := &cr.jr
	r.Reset(cr.data)
	if !r.Object() {
		return
	}
	end := -1
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		if string(key) == "choices" {
			end = r.Offset()
			break
		}
		r.Skip()
	}
	if end < 0 || r.Failed() || end > maxHead {
		return
	}
	cr.head = append(append(cr.head[:0], cr.data[:end]...), "[]}"...)
	h := &cr.hc
	ResetChunk(h)
	r.Reset(cr.head)
	if !ReadChunk(r, h) || !r.End() || h.Usage != nil || h.Error != nil {
		return
	}
	cr.memo = append(cr.memo[:0], cr.data[:end]...)
	cr.memoed = header{id: h.ID, object: h.Object, model: h.Model, tier: h.ServiceTier, created: h.Created, fprint: h.SystemFingerprint}
}

// hasPrefix is bytes.HasPrefix.
func hasPrefix(b, prefix []byte) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == string(prefix)
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
