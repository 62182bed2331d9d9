// Package slab copies the short strings a decoder keeps (delta texts,
// ids) into slabs shared by the strings after them, rather than giving
// each an allocation of its own: a stream is mostly short deltas.
//
// Nothing is ever written twice: a slab's bytes, once written, never
// change (a full slab is let go of and a new one started), so every
// string stays as if allocated alone; a slab lives as long as any string
// of it.
package slab

import "unsafe"

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
type Strings struct{ b []byte }

// String returns b as a string.
func (s *Strings) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > MaxText {
		return string(b)
	}
	if cap(s.b)-len(s.b) < len(b) {
		// A new slab: the old one's bytes stay as they are, in the
		// strings already handed out.
		s.b = make([]byte, 0, Next(cap(s.b)))
	}
	start := len(s.b)
	s.b = append(s.b, b...)
	// A slab's bytes are never written again (see the package doc), so
	// they can be a string's, as strings.Builder hands out its bytes.
	return unsafe.String(&s.b[start], len(b))
}

// Bytes copies short byte strings (raw JSON a decoder keeps) into slabs,
// as Strings copies strings. The zero value is ready to use.
type Bytes struct{ b []byte }

// Copy returns a copy of the concatenation of parts, its capacity cut at
// its length (an append to it cannot write into the slab).
func (s *Bytes) Copy(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n > MaxText {
		b := make([]byte, 0, n)
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	if cap(s.b)-len(s.b) < n {
		s.b = make([]byte, 0, Next(cap(s.b)))
	}
	start := len(s.b)
	for _, p := range parts {
		s.b = append(s.b, p...)
	}
	return s.b[start:len(s.b):len(s.b)]
}

// Equal reports whether a == b, testing first whether the two share
// their bytes, without the call of the runtime's comparison then: the
// strings an encoder or a decoder compares with the last ones (an event's
// agent, its type) are mostly the very strings they were, a decoder's
// kept ids and a kind's constants.
func Equal(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}
