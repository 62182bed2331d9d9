package jsontext

import (
	"math/bits"
	"unicode/utf8"
)

// The scans below look at eight bytes at a time (the bit tricks of "Bit
// Twiddling Hacks"). Each mask has the high bit set in the bytes that end
// a run; past the first such byte it may have false ones (a borrow runs
// on), but the first, the lowest byte since the load is little-endian, is
// always right, so the run ends at TrailingZeros64(mask)/8, with no byte
// loop over the word.

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// word returns b[i:i+8] as a little-endian uint64 (one load: the compiler
// merges the byte loads).
func word[T string | []byte](b T, i int) uint64 {
	t := b[i : i+8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// tail returns the bytes from i of a text of n bytes (n-i fewer than
// eight, n eight or more) in the low bytes of a word with zeros above,
// from w, the text's last eight bytes as word reads them: one load,
// shifted, where a byte loop took the tail of every scan. The bytes
// before i are shifted out, so no borrow of theirs reaches the mask; the
// zeros are control bytes, a stop for every scan, so the first stop in
// the word is at most n-i. (word is passed in, read at the call, to keep
// tail inlined.)
func tail(w uint64, i, n int) uint64 { return w >> (8 * (i + 8 - n)) }

// stops returns the mask of the bytes of w that a JSON string does not
// hold as they are: '"', '\\' and control bytes.
func stops(w uint64) uint64 {
	// q and bs have the high bits of w: one &^ w leaves out the bytes
	// with their high bit set for the three tests.
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return ((q - ones) | (bs - ones) | (w - ones*0x20)) &^ w & highs
}

// asciiStops is stops for scans that stop at non-ASCII bytes too: those
// mark every byte with its high bit set, so the tests need not leave them
// out, and it takes four operations fewer.
func asciiStops(w uint64) uint64 {
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return ((q - ones) | (bs - ones) | (w - ones*0x20) | w) & highs
}

// capitalMask returns the mask of the bytes of w that are ASCII capitals,
// and of some non-ASCII bytes, which asciiStops marks anyway (exact in
// every byte: the sums never carry out of a byte).
func capitalMask(w uint64) uint64 {
	x := w & (ones * 0x7f)
	return (ones*(127+'Z'+1) - x) & (x + ones*(127-('A'-1))) & highs
}

// first returns the index of the first byte marked in a non-zero mask.
func first(mask uint64) int { return bits.TrailingZeros64(mask) >> 3 }

// plainLen returns the length of b's prefix with no '"', '\\' or control
// byte.
func plainLen(b []byte) int {
	i := 0
	for ; i <= len(b)-8; i += 8 {
		if m := stops(word(b, i)); m != 0 {
			return i + first(m)
		}
	}
	if i < len(b) && len(b) >= 8 {
		return i + first(stops(tail(word(b[len(b)-8:], 0), i, len(b))))
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			break
		}
	}
	return i
}

// asciiPlainLen returns the length of s's prefix of ASCII bytes that a
// JSON string holds as they are (no '"', '\\' or control byte).
func asciiPlainLen[T string | []byte](s T) int {
	i := 0
	for ; i <= len(s)-8; i += 8 {
		if m := asciiStops(word(s, i)); m != 0 {
			return i + first(m)
		}
	}
	if i < len(s) && len(s) >= 8 {
		return i + first(asciiStops(tail(word(s[len(s)-8:], 0), i, len(s))))
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	return i
}

// keyLen returns the length of b's prefix of bytes a key the Reader
// matches holds: ASCII with no '"', '\\' or control byte, and no capital
// unless caps.
func keyLen(b []byte, caps bool) int {
	i := 0
	for ; i <= len(b)-8; i += 8 {
		w := word(b, i)
		m := asciiStops(w)
		if !caps {
			m |= capitalMask(w)
		}
		if m != 0 {
			return i + first(m)
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 || (!caps && 'A' <= c && c <= 'Z') {
			break
		}
	}
	return i
}

// utf8Run returns the length of s's prefix of plain ASCII (as
// asciiPlainLen) and valid characters of two bytes or more (as multiLen),
// which a JSON string holds as they are.
func utf8Run[T string | []byte](s T) int { return runLen(s, false) }

// runLen returns the length of s's prefix that AppendString (or, with
// lineSeparators, AppendMarshalString) writes as it is: plain ASCII and
// valid UTF-8 characters of two bytes or more, and no U+2028 or U+2029
// when lineSeparators. It is one loop over text where prose dense in
// non-ASCII ("Ünïcödé stays intact — 测试 12 🦊.") alternates runs of one
// to a few bytes of each: a run of one ASCII byte costs a look at the
// byte after it, a longer one is scanned a word at a time, and valid
// characters of two, three and four bytes are checked inline (multiLen,
// a call, takes the rare leads whose second byte has a narrower range,
// and the line separators), so a run costs no call.
func runLen[T string | []byte](s T, lineSeparators bool) int {
	i := 0
scan:
	for i < len(s) {
		c := s[i]
		switch {
		case c < utf8.RuneSelf:
			if plainASCII[c] == 0 {
				return i
			}
			if i++; i < len(s) && plainASCII[s[i]] == 0 {
				continue // a run of one, between two characters or before a stop
			}
			for i <= len(s)-8 {
				if m := asciiStops(word(s, i)); m != 0 {
					i += first(m)
					continue scan
				}
				i += 8
			}
			if i < len(s) && len(s) >= 8 {
				i += first(asciiStops(tail(word(s[len(s)-8:], 0), i, len(s))))
			}
			continue
		case c < 0xe0:
			if c >= 0xc2 && i+1 < len(s) && s[i+1]&0xc0 == 0x80 {
				i += 2
				continue
			}
		case c < 0xf0:
			// E0 and ED restrict the second byte (multiLen); U+2028
			// and U+2029 are E2 80 A8 and E2 80 A9.
			if c != 0xe0 && c != 0xed && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 &&
				(c != 0xe2 || !lineSeparators || s[i+1] != 0x80 || s[i+2]&0xfe != 0xa8) {
				i += 3
				continue
			}
		case c < 0xf4:
			// F0 restricts the second byte to 90-BF (not overlong).
			if i+3 < len(s) && s[i+1]&0xc0 == 0x80 && (c != 0xf0 || s[i+1] >= 0x90) &&
				s[i+2]&0xc0 == 0x80 && s[i+3]&0xc0 == 0x80 {
				i += 4
				continue
			}
		}
		n := multiLen(s[i:], lineSeparators)
		if n == 0 {
			return i
		}
		i += n
	}
	return i
}

// multiLen returns the length of s's prefix of valid UTF-8 characters of
// two bytes or more, and no U+2028 or U+2029 when lineSeparators: the
// checks of utf8.DecodeRune, inline. Text in the recordings has a run of
// non-ASCII bytes every 20 to 100 bytes, mostly one or two characters,
// each of which would otherwise cost a call.
func multiLen[T string | []byte](s T, lineSeparators bool) int {
	i := 0
	for i < len(s) {
		lo, hi := byte(0x80), byte(0xbf) // the second byte's range
		switch c := s[i]; {
		case c < 0xc2: // ASCII, a continuation byte or an overlong lead
			return i
		case c < 0xe0:
			if i+1 >= len(s) || s[i+1]&0xc0 != 0x80 {
				return i
			}
			i += 2
		case c < 0xf0:
			if i+2 >= len(s) {
				return i
			}
			switch c {
			case 0xe0:
				lo = 0xa0 // not overlong
			case 0xed:
				hi = 0x9f // not a surrogate
			}
			c1, c2 := s[i+1], s[i+2]
			if c1 < lo || c1 > hi || c2&0xc0 != 0x80 ||
				lineSeparators && c == 0xe2 && c1 == 0x80 && (c2 == 0xa8 || c2 == 0xa9) {
				return i
			}
			i += 3
		case c < 0xf5:
			if i+3 >= len(s) {
				return i
			}
			switch c {
			case 0xf0:
				lo = 0x90 // not overlong
			case 0xf4:
				hi = 0x8f // not beyond U+10FFFF
			}
			if c1 := s[i+1]; c1 < lo || c1 > hi || s[i+2]&0xc0 != 0x80 || s[i+3]&0xc0 != 0x80 {
				return i
			}
			i += 4
		default:
			return i
		}
	}
	return i
}
