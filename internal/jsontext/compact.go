package jsontext

import (
	"bytes"
	"encoding/json"
)

// Compacted returns raw as json.Compact writes it, and whether raw is
// valid JSON (as json.Valid has it), read in one pass by r (reset to
// raw) where it can, encoding/json the judge of what r refuses. A value
// r read with no white space outside its strings (Spaced) is compact
// already: raw itself, not scanned again by CompactValid. On false the
// bytes returned are nil.
func Compacted(r *Reader, raw []byte) ([]byte, bool) {
	r.Reset(raw)
	r.Skip()
	switch {
	case r.End():
		if !r.Spaced() {
			return raw, true
		}
	case !json.Valid(raw):
		return nil, false
	}
	return CompactValid(raw), true
}

// CompactValid returns raw, valid JSON, without insignificant white
// space as json.Compact writes it: raw itself when it has none (the
// lines Claude Code writes), which saves json.Compact's copy and its
// byte-by-byte scan (moved here from emit/claude, for messages.Streamer's
// tool blocks).
func CompactValid(raw []byte) []byte {
	var out []byte // nil until the first white space
	start := 0     // of the bytes not yet copied to out
	for i := 0; i < len(raw); {
		switch raw[i] {
		case '"':
			i = stringEnd(raw, i)
		case ' ', '\t', '\n', '\r':
			if out == nil {
				out = make([]byte, 0, len(raw))
			}
			out = append(out, raw[start:i]...)
			i++
			start = i
		default:
			i++
		}
	}
	if out == nil {
		return raw
	}
	return append(out, raw[start:]...)
}

// stringEnd returns the offset after the string of valid JSON b that
// starts at i.
func stringEnd(b []byte, i int) int {
	for i++; ; {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return len(b) // not valid JSON: cannot happen
		}
		i += q
		n := 0 // backslashes before the quote
		for n < i && b[i-1-n] == '\\' {
			n++
		}
		i++
		if n%2 == 0 {
			return i
		}
	}
}
