package jsontext

import "encoding/binary"

// StrValid is Str for input known to be valid UTF-8 (a decoder that has
// passed its unit through badutf8.Fix): it copies nothing for a string
// without escapes, whatever its bytes, instead of checking each non-ASCII
// character. On input that is not valid UTF-8 its result is undefined.
func (r *Reader) StrValid() []byte {
	if r.Peek() != '"' {
		r.bad = true
		return nil
	}
	start := r.i + 1
	for i := start + plainLen(r.b[start:]); i < len(r.b); i++ {
		switch c := r.b[i]; {
		case c == '"':
			r.i = i + 1
			return r.b[start:i]
		case c == '\\':
			return r.unescapeValid(start, i)
		case c < 0x20:
			r.bad = true
			return nil
		}
	}
	r.bad = true
	return nil
}

// unescapeValid is unescape for valid UTF-8 input: it copies the runs
// between escapes whole, and decodes the one-letter escapes itself. At a
// \u escape it hands the whole string to unescape, which starts over.
func (r *Reader) unescapeValid(start, i int) []byte {
	buf := append(r.buf[:0], r.b[start:i]...)
	for i < len(r.b) {
		j := i + plainLen(r.b[i:])
		buf = append(buf, r.b[i:j]...)
		if i = j; i < len(r.b) && r.b[i] == '"' {
			r.i = i + 1
			r.buf = buf
			return buf
		}
		if i >= len(r.b) || r.b[i] < 0x20 || i+1 >= len(r.b) {
			break
		}
		c, ok := simpleEscape(r.b[i+1])
		if !ok {
			r.buf = buf
			return r.unescape(start, start)
		}
		buf = append(buf, c)
		i += 2
	}
	r.buf = buf
	r.bad = true
	return nil
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

// plainLen returns the length of b's prefix with no '"', '\\' or control
// byte, looking at eight bytes at a time.
func plainLen(b []byte) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		q, bs := w^(ones*'"'), w^(ones*'\\')
		// A byte of the result has its high bit set where q or bs has a
		// zero byte, or w a byte below 0x20 (and maybe past the first such
		// byte, which the byte loop below finds).
		if ((q-ones)&^q|(bs-ones)&^bs|(w-ones*0x20)&^w)&highs != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			break
		}
	}
	return i
}

// PlainLen returns the length of s's prefix that AppendString writes as it
// is, byte for byte, and that is ASCII: an encoder measuring how much of
// a text fits a budget may count those bytes as one each.
func PlainLen(s string) int { return asciiPlainLen(s) }

// asciiPlainLen returns the length of s's prefix of ASCII bytes that a
// JSON string holds as they are (no '"', '\\' or control byte), looking
// at eight bytes at a time.
func asciiPlainLen(s string) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8] // one bounds check, one load
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		q, bs := w^(ones*'"'), w^(ones*'\\')
		if ((q-ones)&^q|(bs-ones)&^bs|(w-ones*0x20)&^w|w)&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	return i
}
