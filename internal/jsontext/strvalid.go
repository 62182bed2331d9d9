package jsontext

import (
	"encoding/binary"
	"unicode/utf16"
)

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
	switch {
	case start+8 <= len(b):
		if m := stops(word(b, start)); m != 0 {
			i = start + first(m)
		} else if start+16 > len(b) {
			i = start + 8 + plainLen(b[start+8:])
		} else if m := stops(word(b, start+8)); m != 0 {
			i = start + 8 + first(m)
		} else {
			i = start + 16 + plainLen(b[start+16:])
		}
	case len(b) >= 8:
		// A string in the input's last eight bytes (the last value of
		// a message), read in one word as tail reads it.
		i = start + first(stops(tail(word(b[len(b)-8:], 0), start, len(b))))
	default:
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
	return r.unescapeValid(start, i)
}

// unescapeValid is unescape for valid UTF-8 input, which StrValid reads:
// the runs between escapes are copied as they are, whatever their bytes.
// The string it writes is never longer than the text read (an escape is
// longer than what it stands for), so buf gets room for the rest of the
// input once and the loop writes at n, a word at a time while it scans
// a run, with no call: append's growth and memmove, and plainLen, were
// calls, around which the compiler spilled the loop's values. Room for
// each store holds on any input, valid or not: n never passes i-start.
func (r *Reader) unescapeValid(start, i int) []byte {
	b := r.b
	buf := r.buf[:cap(r.buf)]
	if len(buf) < len(b)-start {
		buf = make([]byte, max(len(b)-start, 2*len(buf)))
	}
	n := copy(buf, b[start:i])
loop:
	for i < len(b) {
		c := b[i]
		switch {
		case c == '\\':
			e, u, ok := escape(b, i)
			if !ok {
				break loop
			}
			if !u {
				buf[n] = e
				n++
				i += 2
				continue
			}
			rr := hex4(b[i+2:])
			i += 6
			if utf16.IsSurrogate(rr) {
				// Emoji and other characters past U+FFFF: a call,
				// rarer than the others.
				rr, i = surrogate(b, i, rr)
			}
			switch {
			case rr < 0:
				break loop
			case rr < 0x80:
				buf[n] = byte(rr)
				n++
			case rr < 0x800:
				_ = buf[n+1]
				buf[n], buf[n+1] = 0xc0|byte(rr>>6), 0x80|byte(rr)&0x3f
				n += 2
			case rr < 0x10000:
				_ = buf[n+2]
				buf[n], buf[n+1], buf[n+2] = 0xe0|byte(rr>>12), 0x80|byte(rr>>6)&0x3f, 0x80|byte(rr)&0x3f
				n += 3
			default:
				_ = buf[n+3]
				buf[n], buf[n+1], buf[n+2], buf[n+3] = 0xf0|byte(rr>>18), 0x80|byte(rr>>12)&0x3f, 0x80|byte(rr>>6)&0x3f, 0x80|byte(rr)&0x3f
				n += 4
			}
		case c == '"':
			r.i = i + 1
			r.buf = buf
			return buf[:n]
		case c < 0x20:
			break loop
		default:
			// A run of bytes that stand for themselves (c is one):
			// each word scanned is stored whole (the bytes past the
			// stop are overwritten next), room for it being there
			// while the input has eight bytes left.
			for i+8 <= len(b) {
				w := word(b, i)
				binary.LittleEndian.PutUint64(buf[n:], w)
				if m := stops(w); m != 0 {
					k := first(m)
					i += k
					n += k
					continue loop
				}
				i += 8
				n += 8
			}
			for ; i < len(b); i++ {
				if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
					break
				}
				buf[n] = b[i]
				n++
			}
		}
	}
	r.buf = buf
	r.bad = true
	return nil
}

// escape reads the escape at b[i], a backslash: the byte a one-letter
// escape stands for, or u for a \u escape; ok is false for none.
func escape(b []byte, i int) (e byte, u, ok bool) {
	if i+1 >= len(b) {
		return 0, false, false
	}
	if b[i+1] == 'u' {
		return 0, true, true
	}
	e, ok = simpleEscape(b[i+1])
	return e, false, ok
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
