package jsontext

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

var strSeeds = []string{
	`"plain"`, `"Ünïcödé — 测试 🦊"`, `"a\nb\u00e9\"\\ 测试"`, `"é\ud83e\udd8a"`, `"\ud800x"`, ` "ws" `,
	`""`, `"unterminated`, "\"ctl\x01\"", `"\q"`, `1`, `null`,
}

// checkStrValid: on valid UTF-8, StrValid reads a string value exactly
// as Str does, and fails where Str fails.
func checkStrValid(t *testing.T, data []byte) {
	if !utf8.Valid(data) {
		return
	}
	var a, b Reader
	a.Reset(data)
	b.Reset(data)
	want, got := a.Str(), b.StrValid()
	if a.Failed() != b.Failed() || !bytes.Equal(want, got) || a.Offset() != b.Offset() {
		t.Fatalf("%q: StrValid gives %q (failed %v, at %d), Str %q (failed %v, at %d)",
			data, got, b.Failed(), b.Offset(), want, a.Failed(), a.Offset())
	}
}

func TestStrValid(t *testing.T) {
	t.Parallel()
	for _, s := range strSeeds {
		checkStrValid(t, []byte(s))
	}
}

func FuzzStrValid(f *testing.F) {
	for _, s := range strSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkStrValid)
}

// TestPlainLen: plainLen stops at the first quote, backslash or control
// byte, whichever of the eight places in a word it takes.
func TestPlainLen(t *testing.T) {
	t.Parallel()
	for n := range 20 {
		for _, c := range []byte{'"', '\\', 0, 0x1f, '\n'} {
			b := bytes.Repeat([]byte("aé\x7f\xff"), 6)[:20]
			b[n] = c
			if got := plainLen(b); got != n {
				t.Errorf("plainLen(%q) = %d, want %d", b, got, n)
			}
		}
	}
	if got := plainLen([]byte("plain text, all of it, é")); got != len("plain text, all of it, é") {
		t.Errorf("plainLen of a plain text = %d", got)
	}
}
