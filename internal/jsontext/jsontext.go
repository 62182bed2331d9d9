// Package jsontext writes JSON strings the way the producers agentstream
// imitates write them (Python's json.dumps with ensure_ascii=False, Rust's
// serde_json): UTF-8 as is, no HTML escaping, and only the quote, the
// backslash and control characters escaped; or as Go's encoding/json does
// (AppendMarshalString). Its Reader reads JSON in one pass for the
// decoders' hot paths, leaving anything it does not decode exactly as
// encoding/json to encoding/json.
package jsontext

import "unicode/utf8"

// AppendString appends s to b as a JSON string. Invalid UTF-8 is written as
// \ufffd, since JSON text cannot hold it.
func AppendString(b []byte, s string) []byte {
	return appendString(b, s, false)
}

// AppendMarshalString appends s to b as a JSON string exactly as Go's
// encoding/json writes it without HTML escaping: as AppendString does,
// and U+2028 and U+2029 escaped.
func AppendMarshalString(b []byte, s string) []byte {
	return appendString(b, s, true)
}

// AppendMarshalEscaped appends s to b escaped as AppendMarshalString
// escapes it, without the quotes: the text of a string being gathered
// from pieces, escaped where it is kept.
func AppendMarshalEscaped(b []byte, s string) []byte {
	return appendEscaped(b, s, true)
}

func appendString(b []byte, s string, lineSeparators bool) []byte {
	b = append(b, '"')
	return append(appendEscaped(b, s, lineSeparators), '"')
}

func appendEscaped(b []byte, s string, lineSeparators bool) []byte {
	const hex = "0123456789abcdef"
	start := 0
	// One pass, a character at a time, with fast paths: a plain ASCII
	// byte skips the plain ASCII after it eight bytes at a time, and
	// most valid characters are read inline. Text dense in non-ASCII
	// (accents, CJK, symbols) alternates short runs of each: scanning a
	// word after every character, then calling multiLen for each, cost
	// more (BenchmarkAppendMarshalStringDense: see docs/performance.md).
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				for i+8 <= len(s) {
					if m := asciiStops(word(s, i)); m != 0 {
						i += first(m)
						break
					}
					i += 8
				}
				continue
			}
		} else {
			// A valid character of two bytes, or of three with no
			// special case (E0 and ED restrict the second byte; U+2028
			// and U+2029 start E2 80), inline; others go to multiLen.
			if c >= 0xc2 && c < 0xe0 && i+1 < len(s) && s[i+1]&0xc0 == 0x80 {
				i += 2
				continue
			}
			if c > 0xe0 && c < 0xf0 && c != 0xed && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 &&
				(c != 0xe2 || !lineSeparators || s[i+1] != 0x80 || s[i+2]&0xfe != 0xa8) {
				i += 3
				continue
			}
			// Valid characters are written as they are, read by
			// multiLen inline; utf8.DecodeRuneInString (a call per
			// character) reads the invalid byte or line separator where
			// it stops.
			if n := multiLen(s[i:], lineSeparators); n > 0 {
				i += n
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			b = append(b, s[start:i]...)
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			}
			i += n
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	return append(b, s[start:]...)
}

// EscapedLen returns how many bytes AppendString writes for the rune r
// that takes width bytes of its input (an invalid byte, decoded as
// utf8.RuneError of width 1, is written as the 6 bytes \ufffd).
func EscapedLen(r rune, width int) int {
	switch {
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t' || r == '\b' || r == '\f':
		return 2
	case r < 0x20:
		return 6
	case r == utf8.RuneError && width == 1:
		return 6
	}
	return width
}
