package event

import "math"

// Checked notes what a decoder knows of one payload of the event it made
// (Meta, Raw, Input, Structured: JSON text) beyond what the field says:
// that the text is valid JSON, and whether it is also compact, without
// white space between its tokens (json.Compact gives it back unchanged).
// A decoder that read the text whole, or wrote it, knows it at no cost;
// a consumer that must check or compact payloads (assemble -o json) then
// need not read them again.
//
// It is bookkeeping, not content: never marshalled, and equal to any other
// note under go-cmp, through its Equal method (reflect.DeepEqual does see
// it: compare events with go-cmp). It notes where the payload starts and
// its length, so it is void once the field is set to another slice (and
// keeps the noted array alive until the note itself is dropped); like
// every slice an event holds, a payload's bytes are never written after
// the event is handed out. It is 16 bytes, which every event with a
// payload carries: a payload of 4 GiB or more is not noted.
//
// Nothing checks what a note says: whoever makes one vouches for the
// bytes, and a consumer writes a payload noted compact as it is.
type Checked struct {
	p       *byte
	n       uint32
	compact bool
}

// ValidJSON returns the note of p, which the caller knows to be valid
// JSON text (as json.Valid judges it); it checks nothing.
func ValidJSON(p []byte) Checked { return note(p, false) }

// CompactJSON returns the note of p, which the caller knows to be valid
// JSON text that is compact (json.Compact would give it back unchanged);
// it checks nothing.
func CompactJSON(p []byte) Checked { return note(p, true) }

func note(p []byte, compact bool) Checked {
	if len(p) == 0 || uint64(len(p)) > math.MaxUint32 {
		return Checked{}
	}
	return Checked{&p[0], uint32(len(p)), compact}
}

// Valid reports whether c notes p (the same bytes, not a copy) as valid
// JSON, compact or not.
func (c Checked) Valid(p []byte) bool {
	return len(p) > 0 && len(p) == int(c.n) && &p[0] == c.p
}

// Compact reports whether c notes p as valid, compact JSON.
func (c Checked) Compact(p []byte) bool { return c.compact && c.Valid(p) }

// Equal reports true: a note is not part of what an event says.
func (Checked) Equal(Checked) bool { return true }
