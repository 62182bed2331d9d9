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
// emit/jsonenv cuts long payloads into envelopes with it.
func AppendStringPrefix(b []byte, s string, budget int, valid bool) ([]byte, int) {
	plain := &plainASCIITable
	var nonASCII uint64 = highs // the bytes escapeRun stops at beside stops'
	if valid {
		plain, nonASCII = &plainValidTable, 0
	}
	o := len(b)
	limit := o + budget // o when the budget is spent
	// Room for a word stored at limit: out's bytes past o are scratch.
	out := slices.Grow(b, budget+8)[:o+budget+8]
	i := 0
	for i < len(s) {
		o, i = escapeRun(out, s, o, i, limit, nonASCII)
		// The last bytes, fewer than eight, and what escapeRun leaves:
		// a character to escape, or one that does not fit.
		for i < len(s) && o < limit && plain[s[i]] == 1 {
			out[o] = s[i]
			o, i = o+1, i+1
		}
		if i == len(s) || plain[s[i]] == 1 {
			break // s or the budget is spent
		}
		w := 1
		if s[i] >= utf8.RuneSelf {
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

// escapeRun writes s from i into out from o as AppendStringPrefix does,
// while eight bytes of s are left, up to limit (out has eight bytes of
// room past it): the bytes written as they are, and the quotes and
// backslashes, the common escapes in a payload of JSON text. It stops at
// any other byte stops marks, or nonASCII (highs or none) does, and
// returns where it stopped, limit when the budget is spent. A whole word
// is stored and as much of it kept as is plain. It has no call, so its
// values stay in registers (with the calls of the rarer escapes in the
// same loop, the compiler kept them on the stack); the budget is tested
// once a word while there is room for a run and an escape.
func escapeRun(out []byte, s string, o, i, limit int, nonASCII uint64) (int, int) {
	// t is s from i, and d out from o up to limit and the word past it
	// (limit-o is len(d)-8), both resliced as they are read and written:
	// with their lengths tested in the loop, the loads and stores need
	// no bounds checks.
	t, d := s[i:], out[o:limit+8]
	for len(t) >= 8 && len(d) >= 8 {
		w := word(t, 0)
		binary.LittleEndian.PutUint64(d, w)
		m := stops(w) | w&nonASCII
		if m == 0 {
			if len(d) < 16 { // the budget ends in the word
				return limit, len(s) - len(t) + len(d) - 8
			}
			t, d = t[8:], d[8:]
			continue
		}
		k := first(m)
		if k > len(d)-8 { // the budget ends in the run
			return limit, len(s) - len(t) + len(d) - 8
		}
		t, d = t[k:], d[k:]
		// An escape fits, with the word stored past it, while there is
		// room for one more run and an escape; the budget is tested
		// only in its last bytes.
		if c := t[0]; (c == '"' || c == '\\') && len(d) >= 10 {
			d[0], d[1] = '\\', c
			t, d = t[1:], d[2:]
			continue
		}
		break
	}
	return limit + 8 - len(d), len(s) - len(t)
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
