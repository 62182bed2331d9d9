package xml

import (
	"encoding/json"
	"strings"
	"testing"
)

// htmlInputs are strings with and without what html.escape escapes.
var htmlInputs = []string{
	"", "plain", `a < b && "c" > 'd'`, "&amp;already", "<<>>", "é ü \x00 \xff", `'`, "x&",
}

func TestHTMLEscape(t *testing.T) {
	t.Parallel()
	python := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")
	for _, s := range htmlInputs {
		if got, want := htmlEscape(s), python.Replace(s); got != want {
			t.Errorf("htmlEscape(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestValidJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		`{}`, `{"a": [1, -2.5e3, true, null, "\u00e9"]}`, ` "s" `, `[`, `{"a" 1}`, `01`, `"\x"`, "\"\x01\"",
		strings.Repeat("[", 300) + strings.Repeat("]", 300), `{"a":1} {}`, ``, `nul`,
	} {
		if got, want := validJSON([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzHTMLEscape(f *testing.F) {
	for _, s := range htmlInputs {
		f.Add(s)
	}
	python := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := htmlEscape(s), python.Replace(s); got != want {
			t.Errorf("htmlEscape(%q) = %q, want %q", s, got, want)
		}
		if got, want := validJSON([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%q) = %v, want %v", s, got, want)
		}
	})
}

func TestByteSets(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		if got, want := htmlSpecial[c] == 1, strings.IndexByte(`&<>"'`, byte(c)) >= 0; got != want {
			t.Errorf("htmlSpecial[%#x] = %v, want %v", c, got, want)
		}
		if got, want := formatterSpecial[c] == 1, strings.IndexByte("\\\n\r", byte(c)) >= 0; got != want {
			t.Errorf("formatterSpecial[%#x] = %v, want %v", c, got, want)
		}
	}
}

func TestASCIIOneLine(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "abc", "0123456789abcdef", "0123456789abcdé", "é", "a\nb", "abcdefgh\r", "abcdefghi\x80"} {
		want := true
		for _, c := range []byte(s) {
			if c >= 0x80 || c == '\n' || c == '\r' {
				want = false
			}
		}
		if got := asciiOneLine([]byte(s)); got != want {
			t.Errorf("asciiOneLine(%q) = %v, want %v", s, got, want)
		}
	}
}
