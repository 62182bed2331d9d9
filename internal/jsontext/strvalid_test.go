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
