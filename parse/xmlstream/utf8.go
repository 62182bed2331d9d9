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
	all := b
	for {
		// (b is moved on, not indexed: the compiler then drops the
		// bounds checks of the loads.)
		for len(b) >= 8 {
			if m := binary.LittleEndian.Uint64(b) & highs; m != 0 {
				b = b[bits.TrailingZeros64(m)>>3:]
				goto multi
			}
			b = b[8:]
		}
		if len(b) == 0 {
			return true
		}
		if len(all) >= 8 {
			// The last bytes, in the word that ends all, shifted down
			// past the bytes before them (checked already).
			w := binary.LittleEndian.Uint64(all[len(all)-8:]) >> (64 - 8*len(b))
			m := w & highs
			if m == 0 {
				return true
			}
			b = b[bits.TrailingZeros64(m)>>3:]
		} else {
			for len(b) > 0 && b[0] < utf8.RuneSelf {
				b = b[1:]
			}
			if len(b) == 0 {
				return true
			}
		}
	multi:
		// b[0] starts a sequence of two to four bytes, with
		// utf8.DecodeRune's rules (no overlong form, no surrogate,
		// nothing past U+10FFFF), or is invalid.
		lo, hi := byte(0x80), byte(0xBF) // the range of the second byte
		switch c := b[0]; {
		case c < 0xC2:
			return false
		case c < 0xE0:
			if len(b) < 2 || b[1]&0xC0 != 0x80 {
				return false
			}
			b = b[2:]
		case c < 0xF0:
			if c == 0xE0 {
				lo = 0xA0
			} else if c == 0xED {
				hi = 0x9F
			}
			if len(b) < 3 || b[1] < lo || hi < b[1] || b[2]&0xC0 != 0x80 {
				return false
			}
			b = b[3:]
		case c < 0xF5:
			if c == 0xF0 {
				lo = 0x90
			} else if c == 0xF4 {
				hi = 0x8F
			}
			if len(b) < 4 || b[1] < lo || hi < b[1] || b[2]&0xC0 != 0x80 || b[3]&0xC0 != 0x80 {
				return false
			}
			b = b[4:]
		default:
			return false
		}
	}
}
