package jsontext

import "math/bits"

// The scans below look at eight bytes at a time (the bit tricks of "Bit
// Twiddling Hacks"). Each mask has the high bit set in the bytes that end
// a run; past the first such byte it may have false ones (a borrow runs
// on), but the first, the lowest byte since the load is little-endian, is
// always right, so the run ends at TrailingZeros64(mask)/8, with no byte
// loop over the word (measured: the byte loop after a word with a stop
// took a fifth of plainLen's time on the corpus).

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

// stops returns the mask of the bytes of w that a JSON string does not
// hold as they are: '"', '\\' and control bytes.
func stops(w uint64) uint64 {
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return ((q-ones)&^q | (bs-ones)&^bs | (w-ones*0x20)&^w) & highs
}

// capitals returns the mask of the bytes of w that are ASCII capitals
// (exact in every byte: the sums never carry out of a byte).
func capitals(w uint64) uint64 {
	x := w & (ones * 0x7f)
	return (ones*(127+'Z'+1) - x) & (x + ones*(127-('A'-1))) &^ w & highs
}

// first returns the index of the first byte marked in a non-zero mask.
func first(mask uint64) int { return bits.TrailingZeros64(mask) >> 3 }

// plainLen returns the length of b's prefix with no '"', '\\' or control
// byte.
func plainLen(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if m := stops(word(b, i)); m != 0 {
			return i + first(m)
		}
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
	for ; i+8 <= len(s); i += 8 {
		w := word(s, i)
		if m := stops(w) | w&highs; m != 0 {
			return i + first(m)
		}
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
	for ; i+8 <= len(b); i += 8 {
		w := word(b, i)
		m := stops(w) | w&highs
		if !caps {
			m |= capitals(w)
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
