package xml

import (
	"strings"
	"testing"
)

// refResultLines is appendResultLines through strings: CRLF and CR made
// LF, then LF written as \n.
func refResultLines(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	return strings.ReplaceAll(s, "\n", `\n`)
}

func FuzzResultLines(f *testing.F) {
	for _, s := range []string{"", "a", "\n", "one\n", "a\r\nb\rc\n\nd", "\r", "\r\r\n\n", `\n`, "é\n测"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendResultLines([]byte("x"), []byte(s))), "x"+refResultLines(s); got != want {
			t.Fatalf("appendResultLines(%q) = %q, want %q", s, got, want)
		}
	})
}
