package badutf8

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestValid: Valid answers as utf8.Valid on every prefix and suffix of
// sequences of each length at each offset of four words, valid and
// broken, and on the testdata and corpus files, whole and in pieces of
// 61 bytes.
func TestValid(t *testing.T) {
	t.Parallel()
	seqs := []string{
		"é", "—", "测", "🦊", "\u0080", "\u07ff", "\u0800", "\uffff", "\U00010000", "\U0010ffff", "\ufffd",
		"\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf",
		"\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\x80", "\xbf",
		"\xc3", "\xe6\xb5", "\xf0\x9f\xa6", "\xc3\x28", "\xe6\x28\xb5", "\xf0\x9f\x28\x8a",
	}
	for _, s := range seqs {
		for pad := range 41 {
			b := []byte(strings.Repeat("a", pad) + s + "ab" + s + "xyz")
			for i := range len(b) + 1 {
				checkValid(t, b[:i])
				checkValid(t, b[i:])
			}
		}
	}
	files, _ := filepath.Glob("../../../testdata/*/*")
	corpus, _ := filepath.Glob("../../../../shared/corpus/*/*")
	if len(files) == 0 || len(corpus) == 0 {
		t.Fatal("no testdata or corpus files")
	}
	for _, f := range append(files, corpus...) {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a directory
		}
		checkValid(t, b)
		for i := 0; i < len(b); i += 61 {
			checkValid(t, b[i:min(i+61, len(b))])
		}
	}
}

func checkValid(t *testing.T, b []byte) {
	t.Helper()
	if got, want := Valid(b), utf8.Valid(b); got != want {
		t.Errorf("Valid(%q) = %v, utf8.Valid says %v", b, got, want)
	}
}

func FuzzValid(f *testing.F) {
	f.Add([]byte("Ünïcödé stays intact — 测试 1 🦊."))
	f.Add([]byte("abcdefgh\xed\xa0\x80ijklmnop\xf4\x90\x80\x80"))
	f.Add([]byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ïcödé — 测试 1 🦊.\n"}}`))
	f.Fuzz(func(t *testing.T, b []byte) { checkValid(t, b) })
}
