package jsontext

import (
	"math/bits"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// checkAppendStringPrefix checks that AppendStringPrefix cuts s at the longest
// prefix, at a rune boundary, whose escaped form fits the budget, and
// writes that prefix as AppendString does.
func checkAppendStringPrefix(t *testing.T, s string, budget int) {
	t.Helper()
	escaped := func(s string) string { b := AppendString(nil, s); return string(b[1 : len(b)-1]) }
	for _, valid := range []bool{false, utf8.ValidString(s)} {
		b, n := AppendStringPrefix([]byte("x"), s, budget, valid)
		if n < len(s) && !utf8.RuneStart(s[n]) && utf8.ValidString(s) {
			t.Fatalf("AppendStringPrefix(%q, %d, %v) = %d, inside a character", s, budget, valid, n)
		}
		if diff := cmp.Diff("x"+escaped(s[:n]), string(b)); diff != "" {
			t.Fatalf("AppendStringPrefix(%q, %d, %v) (-want +got):\n%s", s, budget, valid, diff)
		}
		if len(b)-1 > budget {
			t.Fatalf("AppendStringPrefix(%q, %d, %v) = %d: %d bytes escaped", s, budget, valid, n, len(b)-1)
		}
		if n < len(s) {
			_, w := utf8.DecodeRuneInString(s[n:])
			if len(escaped(s[:n+w])) <= budget {
				t.Fatalf("AppendStringPrefix(%q, %d, %v) = %d, one more character fits", s, budget, valid, n)
			}
		}
	}
}

func TestAppendStringPrefix(t *testing.T) {
	t.Parallel()
	texts := []string{
		strings.Repeat("plain ascii ", 40),
		strings.Repeat("Ünïcödé — 测试 🦊 ", 30),
		strings.Repeat("q\"b\\n\n\t\x01\u2028/<>&\xff", 40),
		"ab\x80\x80cd\xe6\xb5", "short",
	}
	for _, s := range texts {
		for budget := 6; budget < 600; budget += 7 {
			checkAppendStringPrefix(t, s, budget)
		}
	}
}

func FuzzAppendStringPrefix(f *testing.F) {
	f.Add("Ünïcödé — 测试 🦊 \"q\" \\ \n\x01\xff", 9)
	f.Fuzz(func(t *testing.T, s string, budget int) {
		if budget < 0 {
			budget = -(budget + 1)
		}
		checkAppendStringPrefix(t, s, budget%600+6)
	})
}

// TestPrefixStops: the masks escapeRun scans with (stops and the
// non-ASCII bytes, stops alone when valid) mark a byte of every value at every place exactly
// when plainASCIITable (plainValidTable) does not mark it plain, plain
// bytes around it.
func TestPrefixStops(t *testing.T) {
	t.Parallel()
	for _, valid := range []bool{false, true} {
		plain := &plainASCIITable
		if valid {
			plain = &plainValidTable
		}
		for c := range 256 {
			for p := range 8 {
				w := []byte("abcdefgh")
				w[p] = byte(c)
				var nonASCII uint64 = highs
				if valid {
					nonASCII = 0
				}
				m := stops(word(w, 0)) | word(w, 0)&nonASCII
				got := -1
				if m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				want := -1
				if plain[c] == 0 {
					want = p
				}
				if got != want {
					t.Errorf("stops(%q, valid %v) mark byte %d first, want %d", w, valid, got, want)
				}
			}
		}
	}
}
