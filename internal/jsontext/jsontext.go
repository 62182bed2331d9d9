// Package jsontext writes JSON strings the way the producers agentstream
// imitates write them (Python's json.dumps with ensure_ascii=False, Rust's
// serde_json): UTF-8 as is, no HTML escaping, and only the quote, the
// backslash and control characters escaped; or as Go's encoding/json does
// (AppendMarshalString). Its Reader reads JSON in one pass for the
// decoders' hot paths, leaving anything it does not decode exactly as
// encoding/json to encoding/json.
package jsontext

import (
	"strconv"
	"unicode/utf8"
)

// AppendOptInt appends *n, or null when n is nil (a count the source did
// not give, in the unknown form of a field the format requires).
func AppendOptInt(b []byte, n *int64) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return AppendInt(b, *n)
}

// AppendOptString appends *s as a JSON string (as AppendMarshalString),
// or null when s is nil.
func AppendOptString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return AppendMarshalString(b, *s)
}

// AppendInt appends n in base 10 as strconv.AppendInt does, a single
// digit (most counts and indexes written) without its call.
func AppendInt(b []byte, n int64) []byte {
	if uint64(n) < 10 {
		return append(b, byte('0'+n))
	}
	return strconv.AppendInt(b, n, 10)
}

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
	return appendEscaped(b, s, 0, true)
}

func appendString(b []byte, s string, lineSeparators bool) []byte {
	// Most strings written (ids, names) are plain ASCII: copied with the
	// quotes, without appendEscaped's loop. In the others, appendEscaped
	// goes on from the ASCII prefix and copies it with the run after it.
	n := asciiPlainLen(s)
	if n < len(s) {
		return append(appendEscaped(append(b, '"'), s, n, lineSeparators), '"')
	}
	b = append(append(b, '"'), s...)
	return append(b, '"')
}

// appendEscaped appends s escaped, without quotes. Its first i bytes
// are known to be written as they are.
func appendEscaped(b []byte, s string, i int, lineSeparators bool) []byte {
	const hex = "0123456789abcdef"
	start := 0
	// Runs of bytes written as they are (plain ASCII and valid
	// characters) are measured by runLen and copied whole; what ends
	// one is escaped here.
	for {
		if i += runLen(s[i:], lineSeparators); i >= len(s) {
			break
		}
		b = append(b, s[start:i]...)
		switch c := s[i]; c {
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
			if c < utf8.RuneSelf {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
				break
			}
			// An invalid byte, or U+2028 or U+2029 (lineSeparators),
			// read by utf8.DecodeRuneInString, a call, where it stops.
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			}
			i += n - 1
		}
		i++
		start = i
	}
	return append(b, s[start:]...)
}
