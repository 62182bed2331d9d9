package jsontext

import (
	"encoding/json"
	"testing"
)

// TestPlainASCII checks the table of bytes a string's unescaping copies in
// runs.
func TestPlainASCII(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
		if got := plainASCII[c] == 1; got != want {
			t.Errorf("plainASCII[%#x] = %v, want %v", c, got, want)
		}
	}
}

// TestStrRuns: strings mixing plain runs with escapes and non-ASCII read
// as encoding/json reads them.
func TestStrRuns(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`"plain run \u00dcn\u00efc\u00f6d\u00e9 \ud83e\udd8a tail"`, `"é then a long plain run \n and more"`,
		`"\\\"\/\b\f\n\r\t x"`, "\"caf\xc3\xa9 \xff bad\"", `"\ud800 lone"`, `"end\\"`,
		"\"a\\nb\xc3\xa9cdefghij\\t\xffk\xe2\x80\x94lmnopqrstu\\u00e9\xf0\x9f\xa6\x8a\"", "\"ab\\n\xffcd\\t\xc3\"",
	} {
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var r Reader
		r.Reset([]byte(in))
		if got := r.String(); got != want || !r.End() {
			t.Errorf("String(%s) = %q (end %v), want %q", in, got, r.End(), want)
		}
	}
}
