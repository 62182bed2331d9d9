package anthropic

import "strings"

// texts copies the strings the decoder keeps (delta texts, ids) into
// slabs shared by the ones after them (jsontext.Reader.SetStrings): a
// Messages API body is mostly deltas of a few dozen bytes, whose texts
// were an allocation each. A slab's bytes, once written, never change (a
// full slab is let go of and a new one started), so that a string stays
// as if allocated alone; a slab lives as long as any string of it. The
// zero value is ready to use.
type texts struct{ b strings.Builder }

const (
	// textSlab is the size of a slab; a string over maxSlabText gets an
	// allocation of its own, so that a slab holds at least 16 of them.
	textSlab    = 4 << 10
	maxSlabText = textSlab / 16
)

// string returns b as a string.
func (t *texts) string(b []byte) string {
	if len(b) > maxSlabText {
		return string(b)
	}
	if t.b.Cap()-t.b.Len() < len(b) {
		t.b = strings.Builder{}
		t.b.Grow(textSlab)
	}
	start := t.b.Len()
	t.b.Write(b)
	return t.b.String()[start:]
}
