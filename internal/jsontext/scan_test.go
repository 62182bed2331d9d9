package jsontext

import (
	"testing"
	"unicode/utf8"
)

// TestScanTails: plainLen, asciiPlainLen and runLen end where a byte or
// rune at a time scan does, for strings of every length up to three
// words, with two pieces of every kind (stops, characters of two to four
// bytes, line separators, invalid bytes) at every pair of places: their
// last, partial word is read by tail, whose shift must leave out the
// bytes before the scan (a quote's borrow there would mark a false stop).
func TestScanTails(t *testing.T) {
	t.Parallel()
	pieces := []string{
		`"`, `\`, "\n", "\x00", "\x1f", "\x7f", "é", "—", "测", "🦊", "\u2028", "\u2029", "\xff", "\xe6\xb5", "\xed\xa0\x80",
		"\xe0\xa0\x80", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xc1\x80",
	}
	naivePlain := func(s string, ascii bool) int {
		for i := range len(s) {
			if c := s[i]; c == '"' || c == '\\' || c < 0x20 || (ascii && c >= 0x80) {
				return i
			}
		}
		return len(s)
	}
	naiveRun := func(s string, lineSeparators bool) int {
		i := 0
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r < 0x20 || r == '"' || r == '\\' || (r == utf8.RuneError && n == 1) ||
				(lineSeparators && (r == '\u2028' || r == '\u2029')) {
				break
			}
			i += n
		}
		return i
	}
	for n := range 25 {
		for _, a := range pieces {
			for _, b := range pieces {
				for p := 0; p <= n; p++ {
					for q := p; q <= n; q++ {
						s := fill(p) + a + fill(q-p) + b + fill(n-q)
						if got, want := plainLen([]byte(s)), naivePlain(s, false); got != want {
							t.Fatalf("plainLen(%q) = %d, want %d", s, got, want)
						}
						if got, want := asciiPlainLen(s), naivePlain(s, true); got != want {
							t.Fatalf("asciiPlainLen(%q) = %d, want %d", s, got, want)
						}
						for _, ls := range []bool{false, true} {
							if got, want := runLen(s, ls), naiveRun(s, ls); got != want {
								t.Fatalf("runLen(%q, %v) = %d, want %d", s, ls, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// fill returns n plain ASCII bytes.
func fill(n int) string { return "abcdefghijklmnopqrstuvwxyz"[:n] }

// FuzzKey: key, whose common case skips keySlow, reads every object's
// keys exactly as keySlow does (the key, its result, the offset after
// it, the failure and the state), capitals allowed or not.
func FuzzKey(f *testing.F) {
	for _, s := range []string{
		`{"type":"text","agent":"a","final":false,"delta":"x"}`, `{"a":1, "b" :2,"Caps":3,"long_key_name_here":4}`,
		`{"k\u0041":5,"é":6}`, `{}`, `{"":1}`, `{"a"`, `{"abcdefgh":1}`, `{"abcdefg":1,"abcdefghi":2}`, `{"a":1,"b"}`,
		`{ "a": 1 , "b":2}`, `{"a":{"b":[1,{"c":2}]},"d":3}`, `{"a":1,"`, `{"a":1,"bcdefghijk`,
		`{"id": "x", "object": "chunk", "choices": [{"index": 0, "delta": {}}]}`, `{"a":1,  "b":2,	"c":3, }`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, caps := range []bool{false, true} {
			var a, b Reader
			a.Reset(data)
			b.Reset(data)
			if !a.Object() || !b.Object() {
				continue
			}
			for range 64 {
				ka, oka := a.key(caps)
				kb, okb := b.keySlow(caps)
				if string(ka) != string(kb) || oka != okb || a.i != b.i || a.bad != b.bad || a.first != b.first || a.depth != b.depth {
					t.Fatalf("%q (capitals %v): key = %q, %v at %d (failed %v); keySlow = %q, %v at %d (failed %v)",
						data, caps, ka, oka, a.i, a.bad, kb, okb, b.i, b.bad)
				}
				if !oka {
					break
				}
				a.Skip()
				b.Skip()
			}
		}
	})
}
