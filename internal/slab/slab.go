// Package slab copies the short strings a decoder keeps (delta texts,
// ids) into slabs shared by the strings after them, rather than giving
// each an allocation of its own: a stream is mostly short deltas.
//
// Nothing is ever written twice: a slab's bytes, once written, never
// change (a full slab is let go of and a new one started), so every
// string stays as if allocated alone; a slab lives as long as any string
// of it.
package slab

import "strings"

const (
	// Size is the size of a full slab; the first is First, and each next
	// twice the last up to Size (Next), so that a short input does not
	// pay for a full one.
	Size  = 4 << 10
	First = 512
	// MaxText is the longest string a slab takes: a longer one gets an
	// allocation of its own, so that a full slab holds at least 16 of
	// them and a long text does not keep a slab's worth of others alive.
	MaxText = Size / 16
)

// Next returns the size of the slab after one of size last (0 for the
// first).
func Next(last int) int { return min(max(2*last, First), Size) }

// Strings copies short strings into slabs. The zero value is ready to
// use.
type Strings struct{ b strings.Builder }

// String returns b as a string.
func (s *Strings) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > MaxText {
		return string(b)
	}
	if s.b.Cap()-s.b.Len() < len(b) {
		// A new slab: the old one's bytes stay as they are, in the
		// strings already handed out (Builder.Grow would copy them).
		size := Next(s.b.Cap())
		s.b = strings.Builder{}
		s.b.Grow(size)
	}
	start := s.b.Len()
	s.b.Write(b)
	return s.b.String()[start:]
}
