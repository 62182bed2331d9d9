package jsontext

// StrValid is Str for input known to be valid UTF-8 (a decoder that has
// passed its unit through badutf8.Fix): it copies nothing for a string
// without escapes, whatever its bytes, instead of checking each non-ASCII
// character. On input that is not valid UTF-8 its result is undefined.
func (r *Reader) StrValid() []byte {
	if r.Peek() != '"' {
		r.bad = true
		return nil
	}
	b, start := r.b, r.i+1
	// Most strings of an envelope (a type, an id, a delta) end within
	// a word or a few: the first word is looked at here, saving
	// plainLen's call for the shortest.
	var i int
	if start+8 <= len(b) {
		if m := stops(word(b, start)); m != 0 {
			i = start + first(m)
		} else {
			i = start + 8 + plainLen(b[start+8:])
		}
	} else {
		i = start + plainLen(b[start:])
	}
	switch {
	case i >= len(b) || b[i] < 0x20:
		r.bad = true
		return nil
	case b[i] == '"':
		r.i = i + 1
		return b[start:i]
	}
	return r.unescape(start, i, true)
}

// simpleEscape returns the byte a one-letter escape \c stands for.
func simpleEscape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// PlainLen returns the length of s's prefix that AppendString writes as it
// is, byte for byte (plain ASCII and valid UTF-8): an encoder measuring
// how much of a text fits a budget may count those bytes as one each.
// The prefix ends at a character boundary.
func PlainLen(s string) int { return utf8Run(s) }
