package jsontext

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
)

// AppendStringPrefix appends the longest prefix of s, cut at a rune
// boundary, whose JSON-escaped form (as AppendString writes it, without
// the quotes) fits in budget bytes, escaped; it returns the length of
// that prefix. valid says s is valid UTF-8: its non-ASCII bytes are then
// copied as they are, in the runs between the bytes that need escaping,
// instead of decoded one character at a time.
//
// A payload of JSON text has a quote or a backslash every few bytes: the
// runs between them are copied eight bytes at a time into room made
// once, a whole word stored and as much of it kept as is plain, with no
// call per run (a call to the run scanner, which checked UTF-8 again,
// and an append per run made this twice as long on xml -> jsonenv).
// emit/jsonenv cuts long payloads into envelopes with it.
func AppendStringPrefix(b []byte, s string, budget int, valid bool) ([]byte, int) {
	plain := &plainASCIITable
	if valid {
		plain = &plainValidTable
	}
	o := len(b)
	limit := o + budget // o when the budget is spent
	// Room for a word stored at limit: out's bytes past o are scratch.
	out := slices.Grow(b, budget+8)[:o+budget+8]
	i := 0
	for i < len(s) {
		// A run that is written as it is: a byte each, up to the budget.
		if i+8 <= len(s) {
			w := word(s, i)
			binary.LittleEndian.PutUint64(out[o:], w)
			k := 8
			m := asciiStops(w)
			if valid {
				m = stops(w)
			}
			if m != 0 {
				k = first(m)
			}
			k = min(k, limit-o)
			o, i = o+k, i+k
			if k == 8 {
				continue
			}
		} else {
			for i < len(s) && o < limit && plain[s[i]] == 1 {
				out[o] = s[i]
				o, i = o+1, i+1
			}
			if i == len(s) {
				break
			}
		}
		c := s[i]
		if plain[c] == 1 {
			break // the budget is spent
		}
		if c == '"' || c == '\\' {
			// The common case in a payload of JSON text, written here
			// as AppendString writes it, without a call per character.
			if o+2 > limit {
				break
			}
			out[o], out[o+1] = '\\', c
			o, i = o+2, i+1
			continue
		}
		w := 1
		if c >= utf8.RuneSelf {
			_, w = utf8.DecodeRuneInString(s[i:])
		}
		// The character as AppendString escapes it, quotes cut off.
		var tmp [8]byte
		esc := AppendString(tmp[:0], s[i:i+w])
		esc = esc[1 : len(esc)-1]
		if o+len(esc) > limit {
			break
		}
		o += copy(out[o:], esc)
		i += w
	}
	if valid && i < len(s) && !utf8.RuneStart(s[i]) {
		// The budget ends inside a character, whose bytes before i were
		// copied as they are: cut before it.
		for i > 0 && !utf8.RuneStart(s[i]) {
			o, i = o-1, i-1
		}
	}
	return out[:o], i
}

// plainASCIITable and plainValidTable mark the bytes a JSON string holds
// as they are: printable ASCII but '"' and '\\' (plainASCII), and in
// valid UTF-8 every byte of a character outside ASCII too.
var plainASCIITable, plainValidTable = func() (a, v [256]byte) {
	for c := range 256 {
		a[c] = plainASCII[c]
		v[c] = plainASCII[c]
		if c >= utf8.RuneSelf {
			v[c] = 1
		}
	}
	return a, v
}()
