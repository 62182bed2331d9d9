package jsontext

import "encoding/binary"

// KeyIs reports whether the next member of the object being read has the
// key of q, q being that key quoted and followed by a colon (`"type":`),
// written as compact JSON writes it (the key's quote right after the '{'
// or the ','), and if so reads the key and the ':', leaving the Reader
// where Key would have. Otherwise it reads nothing: the caller goes on
// with Key. The key must be one Key returns as it is (ASCII, no capital,
// nothing a JSON string escapes).
//
// A decoder that knows the order in which a producer writes its keys
// asks for each in turn, one comparison where Key scans the key and the
// caller's switch compares it again; a key out of that order, or written
// otherwise, is read by the decoder's general loop, as before. KeyIs is
// small enough to be inlined, so that the comparison is with a constant.
func (r *Reader) KeyIs(q string) bool {
	i := r.i
	if !r.first {
		i++ // past the ','
	}
	if r.bad || len(r.b)-i < len(q) || string(r.b[i:i+len(q)]) != q || !r.first && r.b[i-1] != ',' {
		return false
	}
	r.i, r.first = i+len(q), false
	return true
}

// ObjectEnd reads the '}' that closes the object being read if it comes
// next, as compact JSON writes it, reporting whether it did; otherwise it
// reads nothing and Key reads on (white space before the '}' included).
// It is inlined: the end of an object a decoder read in the producer's
// order (KeyIs) costs one test.
func (r *Reader) ObjectEnd() bool {
	if r.bad || r.i >= len(r.b) || r.b[r.i] != '}' {
		return false
	}
	r.i++
	r.depth--
	r.first = false
	return true
}

// StringIs reports whether the next value is the string q, q being a
// JSON string as compact JSON writes it, quotes included, with nothing in
// it that JSON escapes, and if so reads it. Otherwise it reads nothing.
// Inlined, it is one comparison with a constant: a decoder matches the
// type strings of its vocabulary with it before reading the value as a
// string.
func (r *Reader) StringIs(q string) bool {
	if r.bad || len(r.b)-r.i < len(q) || string(r.b[r.i:r.i+len(q)]) != q {
		return false
	}
	r.i += len(q)
	return true
}

// IsASCII reports whether every byte of b is ASCII (below 0x80): such
// text is valid UTF-8. It looks at sixteen bytes at a time, and at the
// last few in one word.
func IsASCII(b []byte) bool {
	for len(b) >= 16 {
		if (binary.LittleEndian.Uint64(b)|binary.LittleEndian.Uint64(b[8:]))&highs != 0 {
			return false
		}
		b = b[16:]
	}
	if len(b) >= 8 {
		return (binary.LittleEndian.Uint64(b)|binary.LittleEndian.Uint64(b[len(b)-8:]))&highs == 0
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// StringByte returns the first byte of the next value's text if it is a
// string as compact JSON writes it (its quote next), else 0: the byte a
// decoder dispatches on before comparing the value with the strings of
// its vocabulary that start with it (StringIs). It is inlined.
func (r *Reader) StringByte() byte {
	if r.bad || r.i+1 >= len(r.b) || r.b[r.i] != '"' {
		return 0
	}
	return r.b[r.i+1]
}
