package xmlstream

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// validText reports utf8.Valid(b) for a short piece of text: a run of
// ASCII is crossed a word at a time and left at its first non-ASCII byte,
// found in the word, so text that mixes ASCII with other scripts costs
// per character outside ASCII, where utf8.Valid goes on byte by byte
// once it has met one. (A long run of ASCII goes faster through
// utf8.Valid, four words at a time: validDoc calls it for long pieces.)
func validText(b []byte) bool {
	const highs = 0x8080808080808080
	i := 0
	for {
		for i+8 <= len(b) {
			if m := binary.LittleEndian.Uint64(b[i:]) & highs; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto multi
			}
			i += 8
		}
		for ; i < len(b); i++ {
			if b[i] >= utf8.RuneSelf {
				goto multi
			}
		}
		return true
	multi:
		// b[i] starts a sequence of two to four bytes, with
		// utf8.DecodeRune's rules (no overlong form, no surrogate,
		// nothing past U+10FFFF), or is invalid.
		c, rest := b[i], b[i+1:]
		lo, hi := byte(0x80), byte(0xBF) // the range of the second byte
		switch {
		case c < 0xC2:
			return false
		case c < 0xE0:
			if len(rest) < 1 || rest[0]&0xC0 != 0x80 {
				return false
			}
			i += 2
		case c < 0xF0:
			if c == 0xE0 {
				lo = 0xA0
			} else if c == 0xED {
				hi = 0x9F
			}
			if len(rest) < 2 || rest[0] < lo || hi < rest[0] || rest[1]&0xC0 != 0x80 {
				return false
			}
			i += 3
		case c < 0xF5:
			if c == 0xF0 {
				lo = 0x90
			} else if c == 0xF4 {
				hi = 0x8F
			}
			if len(rest) < 3 || rest[0] < lo || hi < rest[0] || rest[1]&0xC0 != 0x80 || rest[2]&0xC0 != 0x80 {
				return false
			}
			i += 4
		default:
			return false
		}
	}
}
