package xml

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// appendMetaOnePass is appendMetaData in one pass over raw for the
// payloads the producers write: valid JSON with no line break between
// tokens and valid UTF-8 in its strings. It checks raw's grammar as it
// escapes it, where appendMetaDataPasses checks it first (validJSON, a
// second whole pass over the payload). It reports false for any other raw, with b's bytes past len(b)
// undefined: appendMetaData's passes then write it.
func appendMetaOnePass(b, raw []byte) ([]byte, bool) {
	// Open containers, a bit each, 1 for an object; deeper nesting is
	// left to appendMetaData.
	var stack [8]uint64
	depth := 0
	i, start := 0, 0 // raw[start:i] is plain, not written yet
	st := stValue
	for {
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t') {
			i++
		}
		if i == len(raw) {
			return append(b, raw[start:]...), st == stAfter && depth == 0
		}
		c := raw[i]
		switch st {
		case stColon:
			if c != ':' {
				return b, false
			}
			i++
			st = stValue
			continue
		case stAfter:
			if depth == 0 {
				return b, false
			}
			obj := stack[(depth-1)>>6]>>((depth-1)&63)&1 == 1
			switch {
			case c == ',' && obj:
				st = stKey
			case c == ',':
				st = stValue
			case c == '}' && obj, c == ']' && !obj:
				depth--
			default:
				return b, false
			}
			i++
			continue
		case stKey, stKeyOrClose:
			if c == '}' && st == stKeyOrClose {
				depth--
				i++
				st = stAfter
				continue
			}
			if c != '"' {
				return b, false
			}
			st = stColon
		case stValueOrClose:
			if c == ']' {
				depth--
				i++
				st = stAfter
				continue
			}
			st = stValue
		}
		// A value (st is stValue) or a key (stColon).
		if st == stValue {
			st = stAfter
		}
		switch {
		case c == '"':
			b = append(append(b, raw[start:i]...), "&quot;"...)
			var ok bool
			b, i, ok = appendMetaString(b, raw, i+1)
			if !ok {
				return b, false
			}
			start = i
		case c == '{' || c == '[':
			if depth == len(stack)*64 {
				return b, false
			}
			w, bit := depth>>6, uint(depth&63)
			if c == '{' {
				stack[w] |= 1 << bit
				st = stKeyOrClose
			} else {
				stack[w] &^= 1 << bit
				st = stValueOrClose
			}
			depth++
			i++
		case c == '-' || c >= '0' && c <= '9':
			if i = jsontext.NumberEnd(raw, i); i < 0 {
				return b, false
			}
		case c == 't' && hasPrefix(raw[i:], "true"):
			i += 4
		case c == 'f' && hasPrefix(raw[i:], "false"):
			i += 5
		case c == 'n' && hasPrefix(raw[i:], "null"):
			i += 4
		default:
			return b, false
		}
	}
}

// The states of appendMetaOnePass: what comes next.
const (
	stValue        = iota // a value
	stValueOrClose        // a value or ']', after '['
	stKey                 // a key, after ',' in an object
	stKeyOrClose          // a key or '}', after '{'
	stColon               // ':' after a key
	stAfter               // ',', '}' or ']' after a value, or the end at the top
)

func hasPrefix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[:len(s)]) == s
}

// appendMetaString appends the rest of the JSON string whose content
// starts at raw[i], closing quote included, as appendASCIIData writes
// it, and returns the index after it. It reports false where the string
// is not valid JSON or holds invalid UTF-8.
func appendMetaString(b, raw []byte, i int) ([]byte, int, bool) {
	start := i
	for {
		// The plain run up to the next byte to look at: eight bytes at
		// a time, inline rather than a call per run (a payload's strings
		// are short runs between backslashes).
		for i+8 <= len(raw) {
			if m := metaStrStops(binary.LittleEndian.Uint64(raw[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(raw) && metaStrSpecial[raw[i]] == 0 {
			i++
		}
		if i >= len(raw) {
			return b, i, false
		}
		switch c := raw[i]; {
		case c == '"':
			return append(append(b, raw[start:i]...), "&quot;"...), i + 1, true
		case c == '\\':
			// A run of escapes, and the plain byte or two between
			// them, read here: Python's ensure_ascii writes
			// "\u00dcn\u00efc" for text with accents, where a new
			// word at each escape cost more than the escape.
			for {
				if i+8 <= len(raw) {
					// A \uXXXX (most) and the two bytes after it read as
					// one word: the next escape right after it, or after
					// one plain byte, is read here, anything else by the
					// loop above.
					w := binary.LittleEndian.Uint64(raw[i:])
					if uint16(w) == '\\'|'u'<<8 && hex4(uint32(w>>16)) {
						switch b6, b7 := byte(w>>48), byte(w>>56); {
						case b6 == '\\':
							i += 6
							continue
						case b7 == '\\' && metaStrSpecial[b6] == 0:
							i += 7
							continue
						}
						i += 6
						break
					}
				}
				if i+1 >= len(raw) {
					return b, i, false
				}
				switch raw[i+1] {
				case '"':
					b = append(append(b, raw[start:i+1]...), "&quot;"...)
					i += 2
					start = i
				case '\\', '/', 'b', 'f', 'n', 'r', 't':
					i += 2
				case 'u':
					if i+6 > len(raw) || !hex4(binary.LittleEndian.Uint32(raw[i+2:])) {
						return b, i, false
					}
					i += 6
				default:
					return b, i, false
				}
				for k := 0; k < 2 && i < len(raw) && metaStrSpecial[raw[i]] == 0; k++ {
					i++
				}
				if i >= len(raw) || raw[i] != '\\' {
					break
				}
			}
		case c < 0x20:
			return b, i, false
		case c < utf8.RuneSelf:
			b = append(append(b, raw[start:i]...), htmlEntity(c)...)
			i++
			start = i
		default:
			var ok bool
			if b, i, ok = appendMetaNonASCII(append(b, raw[start:i]...), raw, i); !ok {
				return b, i, false
			}
			start = i
		}
	}
}

// appendMetaNonASCII appends the \u escapes of the characters outside
// ASCII from raw[i] on, with the plain byte between two of them as it is
// (accented words such as "Ünïcödé", CJK text: a new word at each
// character cost more than its escape), and returns the index of the
// next byte to look at. It reports false at invalid UTF-8. (A call of its
// own: inlined, its loop made appendMetaString's others slower.)
func appendMetaNonASCII(b, raw []byte, i int) ([]byte, int, bool) {
	for {
		var r rune
		var n int
		// Characters of two bytes, and of three with no special case
		// (E0 and ED restrict the second byte), are decoded inline, and
		// those below U+10000 escaped inline, without utf8.DecodeRune's
		// or appendU's call: most non-ASCII text in agent output is of
		// these.
		switch c := raw[i]; {
		case c >= 0xc2 && c < 0xe0 && i+1 < len(raw) && raw[i+1]&0xc0 == 0x80:
			r, n = rune(c&0x1f)<<6|rune(raw[i+1]&0x3f), 2
		case c > 0xe0 && c < 0xf0 && c != 0xed && i+2 < len(raw) && raw[i+1]&0xc0 == 0x80 && raw[i+2]&0xc0 == 0x80:
			r, n = rune(c&0x0f)<<12|rune(raw[i+1]&0x3f)<<6|rune(raw[i+2]&0x3f), 3
		default:
			r, n = utf8.DecodeRune(raw[i:])
		}
		if r == utf8.RuneError && n == 1 {
			return b, i, false
		}
		if r > 0xffff {
			b = appendU(b, r) // a surrogate pair
		} else {
			b = append(b, '\\', 'u', hexLower[r>>12], hexLower[r>>8&0xf], hexLower[r>>4&0xf], hexLower[r&0xf])
		}
		i += n
		if i+1 < len(raw) && metaStrSpecial[raw[i]] == 0 && raw[i+1] >= utf8.RuneSelf {
			b = append(b, raw[i])
			i++
		}
		if i >= len(raw) || raw[i] < utf8.RuneSelf {
			return b, i, true
		}
	}
}

// hex4 reports whether the four bytes of x are hexadecimal digits: of
// bytes under 0x80, no sum below carries out of its byte.
func hex4(x uint32) bool {
	const highs = 0x80808080
	lower := x | 0x20202020
	digit := (x + 0x50505050) &^ (x + 0x46464646)         // '0' to '9'
	alpha := (lower + 0x1f1f1f1f) &^ (lower + 0x19191919) // 'a' to 'f', any case
	return x&highs == 0 && (digit|alpha)&highs == highs
}

// metaStrStops marks the high bit of each byte of w, eight bytes of a
// JSON string, that a JSON string cannot hold as it is or that
// appendASCIIData does not copy as it is: '"', '\\', control bytes,
// what htmlEscape escapes and bytes outside ASCII; the lowest mark is
// exact, those above it may not be.
func metaStrStops(w uint64) uint64 {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	// A byte of x is zero where w has that special byte, and then
	// x-ones has its high bit set, as do the bytes below 0x20 in
	// w-ones*0x20 and those outside ASCII in w; other high bits are set
	// only above a byte so marked (borrows), never below. '&' and '\''
	// (0x26, 0x27) differ in the lowest bit only, '<' and '>' (0x3c,
	// 0x3e) in the next one only: one test each pair.
	q, bs := w^(ones*'"'), w^(ones*'\\')
	ampApos, ltGt := (w|ones)^(ones*'\''), (w|ones*2)^(ones*'>')
	return ((q - ones) | (bs - ones) | (ampApos - ones) | (ltGt - ones) | (w - ones*0x20) | w) & highs
}

const hexLower = "0123456789abcdef"

// metaStrSpecial marks the bytes metaStrStops marks.
var metaStrSpecial = func() (t [256]byte) {
	for c := range 256 {
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || htmlSpecial[c] == 1 {
			t[c] = 1
		}
	}
	return t
}()
