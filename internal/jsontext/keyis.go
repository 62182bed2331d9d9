package jsontext

import "encoding/binary"

// Follows reports whether the input at the Reader goes on with a+b, and
// if so reads it, as a reader that knows where it is asks for what comes
// next in compact JSON: a member's key and its ':' (`"type":` right after
// an object's '{', `,"type":` after a member's value), leaving the Reader
// where Key would have, or a string of a vocabulary, quotes included
// (StringIs). The text is split in two, a its first eight bytes (all of
// it when shorter) and b the rest: inlined, with constants, a part of
// eight bytes or less is one comparison of a word, where one of more than
// eight bytes is a call (so a text of up to sixteen bytes takes two
// comparisons and no call).
func (r *Reader) Follows(a, b string) bool {
	i := r.i
	n := i + len(a) + len(b)
	if r.bad || uint(n) > uint(len(r.b)) {
		return false
	}
	// One bounds check: t's length and capacity are constants, so
	// its two parts need none.
	if t := r.b[i:n:n]; string(t[:len(a)]) != a || string(t[len(a):]) != b {
		return false
	}
	r.i, r.first = n, false
	return true
}

// ObjectEnd reads the '}' that closes the object being read if it comes
// next, as compact JSON writes it, reporting whether it did; otherwise it
// reads nothing and Key reads on (white space before the '}' included).
// It is inlined: the end of an object a decoder read in the producer's
// order (Follows) costs one test.
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
// text is valid UTF-8. It ors the words of 32 bytes at a time together,
// testing once per 32, and the last 32 bytes (which may overlap the ones
// before) the same way, where a shorter b is read a word at a time.
func IsASCII(b []byte) bool {
	n := len(b)
	if n < 32 {
		if n < 8 {
			for _, c := range b {
				if c >= 0x80 {
					return false
				}
			}
			return true
		}
		acc := binary.LittleEndian.Uint64(b[n-8:])
		for i := 0; i+8 <= n; i += 8 {
			acc |= binary.LittleEndian.Uint64(b[i : i+8 : i+8])
		}
		return acc&highs == 0
	}
	for i := 0; i+32 < n; i += 32 {
		if or32(b[i:i+32:i+32])&highs != 0 {
			return false
		}
	}
	return or32(b[n-32:])&highs == 0
}

// or32 returns the or of the four words of b's first 32 bytes.
func or32(b []byte) uint64 {
	b = b[:32:32]
	return binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[8:]) |
		binary.LittleEndian.Uint64(b[16:]) | binary.LittleEndian.Uint64(b[24:])
}

// Word returns the eight bytes of the input at the Reader plus k as a
// little-endian word, or 0 when fewer are left or the Reader has failed
// (no word of a text with no NUL byte): a decoder tells a string of its
// vocabulary, or a key with its colon, by switching on its first eight
// bytes and comparing the rest a word at a time (the last word ending
// where the text does, overlapping the one before), then reads it
// (Advance). It is inlined.
func (r *Reader) Word(k int) uint64 {
	i := r.i + k
	if r.bad || uint(i+8) > uint(len(r.b)) {
		return 0
	}
	return binary.LittleEndian.Uint64(r.b[i : i+8 : i+8])
}

// Advance reads the next n bytes, a text the caller compared (Word).
func (r *Reader) Advance(n int) { r.i, r.first = r.i+n, false }
