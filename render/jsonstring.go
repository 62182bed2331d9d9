package render

import (
	"unicode/utf8"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// appendText appends s as jsontext.AppendMarshalString does (a JSON
// string as encoding/json writes it without HTML escaping), faster on long
// text: what is written as it is (plain ASCII, copied eight bytes at a
// time, and valid UTF-8 but U+2028 and U+2029) is copied in runs, and
// jsontext escapes only what lies between them. Escaping goes rune by
// rune as utf8.DecodeRuneInString decodes s, and no rune decoded across a
// run's first byte (ASCII, or the first byte of a valid sequence, never a
// continuation byte) nor is an invalid byte's decoding changed by where
// the piece ends, so escaping the pieces apart writes the same bytes.
func appendText(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		j := i
		for {
			for j+8 <= len(s) && !notPlain8(load64(s, j)) {
				j += 8
			}
			n := asIs(s, j)
			if n == 0 {
				break
			}
			j += n
		}
		dst = append(dst, s[i:j]...)
		if j == len(s) {
			break
		}
		k := j + 1
		for k < len(s) && asIs(s, k) == 0 {
			k++
		}
		// jsontext writes s[j:k] between quotes: keep what is between.
		n := len(dst)
		dst = jsontext.AppendMarshalString(dst, s[j:k])
		dst = append(dst[:n], dst[n+1:len(dst)-1]...)
		i = k
	}
	return append(dst, '"')
}

// asIs returns the length of the rune at s[i] if a JSON string holds it
// as it is, else 0 (also at the end of s).
func asIs(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		if plain(c) {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n == 1 || r == '\u2028' || r == '\u2029' {
		return 0
	}
	return n
}

// plain reports whether a JSON string holds c as it is: ASCII, neither a
// control character, the quote nor the backslash.
func plain(c byte) bool {
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
}

// notPlain8 reports whether one of the eight bytes of x is not plain.
func notPlain8(x uint64) bool {
	return x&0x8080808080808080 != 0 || special8(x)
}

// load64 returns the eight bytes of s at i as a little-endian word (one
// load: the compiler combines the shifts).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
