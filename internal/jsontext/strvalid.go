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
// between escapes whole, and decodes the escapes itself. (It handed a
// string with a \u escape to unescape, which started over: the xml
// producer's meta_final escapes every non-ASCII character, and its result
// text was 12% of xml -> jsonenv.)
func (r *Reader) unescapeValid(start, i int) []byte {
	b := r.b
	buf := append(r.buf[:0], b[start:i]...)
loop:
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			r.i = i + 1
			r.buf = buf
			return buf
		case c == '\\':
			if i+1 >= len(b) {
				break loop
			}
			if b[i+1] == 'u' {
				var ok bool
				if buf, i, ok = appendEscapedRune(buf, b, i+2); !ok {
					break loop
				}
				continue
			}
			e, ok := simpleEscape(b[i+1])
			if !ok {
				break loop
			}
			buf = append(buf, e)
			i += 2
		case c < 0x20:
			break loop
		default:
			// A run of bytes that stand for themselves, copied at once;
			// the scan starts past c, which is one of them.
			j := i + 1 + plainLen(b[i+1:])
			buf = append(buf, b[i:j]...)
			i = j
		}
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

// PlainLen returns the length of s's prefix that AppendString writes as it
// is, byte for byte (plain ASCII and valid UTF-8): an encoder measuring
// how much of a text fits a budget may count those bytes as one each.
// The prefix ends at a character boundary.
func PlainLen(s string) int { return utf8Run(s) }
