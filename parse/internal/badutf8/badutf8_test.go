package badutf8

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestFix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		i        int
		warn     bool
	}{
		{"valid é 🦊", "valid é 🦊", 0, false},
		{"a\xffb", "a\uFFFDb", 1, true},
		{"cut \xe6\xb5", "cut \uFFFD\uFFFD", 4, true},
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD", 0, true},
	}
	for _, tt := range tests {
		var o Once
		out, i, warn := o.Fix([]byte(tt.in))
		type result struct {
			Out  string
			I    int
			Warn bool
		}
		if diff := cmp.Diff(result{tt.want, tt.i, tt.warn}, result{string(out), i, warn}); diff != "" {
			t.Errorf("Fix(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// FuzzFix: what Fix returns is valid UTF-8 (the precondition of
// jsontext.Reader.ResetValid, which the decoders use on it) and is the
// input itself when that was valid.
func FuzzFix(f *testing.F) {
	for _, s := range []string{"plain", "a\xffb", "cut \xe6\xb5", "\xed\xa0\x80", "🦊"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var o Once
		out, _, warn := o.Fix(b)
		if !utf8.Valid(out) {
			t.Fatalf("Fix(%q) = %q, not valid UTF-8", b, out)
		}
		if valid := utf8.Valid(b); valid == warn || (valid && !bytes.Equal(out, b)) {
			t.Fatalf("Fix(%q) = %q, warn %v", b, out, warn)
		}
	})
}
