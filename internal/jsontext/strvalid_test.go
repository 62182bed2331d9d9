package jsontext

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var strSeeds = []string{
	`"plain"`, `"Ünïcödé — 测试 🦊"`, `"a\nb\u00e9\"\\ 测试"`, `"é\ud83e\udd8a"`, `"\ud800x"`, ` "ws" `,
	`""`, `"unterminated`, "\"ctl\x01\"", `"\q"`, `1`, `null`,
	`"\u4F60\u597d\u0800\uFFFF\u07ff\u0080\u007f x"`, `"\u12g4"`, `"\u12"`, `"\uD83E\uDD8A\uDC00\uD800\u0041"`,
	`"a\u4f60b\u597d"`, `"\u00e9\"\u2028"`,
	// Short runs between escapes (one look at a word, one store), \u
	// escapes of one to four UTF-8 bytes in a row, runs of a word and
	// more, and non-ASCII inside the first word of a run.
	`"{\"k\":\"v\",\"long_key_name\":[1,\"x\"]}\\n\\\"\\u00e9"`,
	`"\u00dcn\u00efc\u00f6d\u00e9 stays intact \u2014 \u6d4b\u8bd5 12 \ud83e\udd8a.\n002. Paragraph"`,
	`"\u0000\u0041\u007f\u0080\u07ff\u0800\ud7ff\ue000\uffff\udbff\udfff\ud800\udc00"`,
	`"abc\`, `"\`, `"0123456789abcdef\n0123456`, `"0123456789abcdef\n0123456"`, `"\u00e9\"0123456789abcdefghijklmno\\p"`,
	`"\ud83e\udd8a\ud83e\udd8a\ud83e\udd8a\ud83e"`, `"\uD800\uDBFF\uDFFF"`,
	"\"a\\nb\xc3\xa9cdefghij\\tk\xe2\x80\x94lmnopqrstu\\u00e9\xf0\x9f\xa6\x8a\"", "\"\\n1234567\\t\"",
	// A string in the input's last eight bytes, and one that ends in its
	// second word or after it.
	`      "short"`, `     "ab\ncd"`, "      \"a\x01\"", `    "abc`, `"0123456789ab"`, `"01234567\n9"`, `"0123456789abcdef0"`,
}

// TestStrMatchesJSON: Str and StrValid read each seed as encoding/json
// does (the escapes, \u ones of one, two and three UTF-8 bytes and
// surrogates among them), and fail where it fails.
func TestStrMatchesJSON(t *testing.T) {
	t.Parallel()
	for _, s := range strSeeds {
		if s == "null" {
			continue // Str reads strings only; json.Unmarshal leaves the string alone
		}
		var want string
		werr := json.Unmarshal([]byte(s), &want)
		for _, valid := range []bool{false, true} {
			var r Reader
			var got []byte
			if valid {
				r.ResetValid([]byte(s))
			} else {
				r.Reset([]byte(s))
			}
			got = r.Str()
			if r.Failed() != (werr != nil) || (werr == nil && string(got) != want) {
				t.Errorf("%s (valid %v): Str = %q, failed %v; json.Unmarshal = %q, %v", s, valid, got, r.Failed(), want, werr)
			}
		}
	}
}

// TestStrReuse: one Reader reads the seeds one after the other, longest
// first and shortest first, as encoding/json does: unescapeValid's
// scratch space, sized for the rest of the input, is reused or grown.
func TestStrReuse(t *testing.T) {
	t.Parallel()
	seeds := slices.Clone(strSeeds)
	for range 2 {
		var r Reader
		for _, s := range seeds {
			if s == "null" {
				continue
			}
			var want string
			werr := json.Unmarshal([]byte(s), &want)
			r.ResetValid([]byte(s))
			got := r.Str()
			if r.Failed() != (werr != nil) || (werr == nil && string(got) != want) {
				t.Errorf("%s: Str = %q, failed %v; json.Unmarshal = %q, %v", s, got, r.Failed(), want, werr)
			}
		}
		slices.SortFunc(seeds, func(a, b string) int { return len(b) - len(a) })
	}
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

// TestASCIIPlainLen: asciiPlainLen stops at the first quote, backslash,
// control or non-ASCII byte, whichever of the eight places in a word it
// takes.
func TestASCIIPlainLen(t *testing.T) {
	t.Parallel()
	for n := range 20 {
		for _, c := range []byte{'"', '\\', 0, 0x1f, '\n', 0x80, 0xc3, 0xff} {
			b := bytes.Repeat([]byte("plain/ascii\x7f~ "), 2)[:20]
			b[n] = c
			if got := asciiPlainLen(string(b)); got != n {
				t.Errorf("asciiPlainLen(%q) = %d, want %d", b, got, n)
			}
		}
	}
}

// FuzzAppendMarshalString: AppendMarshalString writes what encoding/json
// writes without HTML escaping, and AppendString the same apart from
// U+2028 and U+2029, which it leaves as they are.
func FuzzAppendMarshalString(f *testing.F) {
	for _, s := range []string{
		"plain", "q\"b\\n\n\r\t\b\f\x01\x1f", "<>&/\u2028é🦊 and a longer plain run", "bad\xffbyte", "real \ufffd",
		// The edges of appendEscaped's inline character checks.
		"a\xe0\xa0\x80b\xe0\x80\x80c\xed\x9f\xbfd\xed\xa0\x80e\xe2\x80\xa8f\xe2\x80\xa9g\xe2\x80\xaah\xef\xbf\xbfi\xc2", "\xc1\x80 \xc2\x80 \xdf\xbf \xe1\x80", "é\xe2\x80",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := string(AppendMarshalString(nil, s)); got+"\n" != want.String() {
			t.Fatalf("AppendMarshalString(%q) = %s, encoding/json %s", s, got, want.String())
		}
		plain := strings.NewReplacer(`\u2028`, "\u2028", `\u2029`, "\u2029").Replace(strings.TrimSuffix(want.String(), "\n"))
		if got := string(AppendString(nil, s)); got != plain && !strings.Contains(s, `\u202`) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, plain)
		}
	})
}

// TestUTF8RunAppend: utf8Run's prefix is what AppendString writes as it
// is, and the character after it is not.
func TestUTF8RunAppend(t *testing.T) {
	t.Parallel()
	asIs := func(s string) bool { return string(AppendString(nil, s)) == `"`+s+`"` }
	for _, s := range []string{
		"", "plain", "Ünïcödé — 测试 🦊 and \u2028", "tab\there", `quote" after`, "bad \xff byte", "cut \xe6\xb5",
		"\xed\xa0\x80 surrogate", "a longer plain ASCII run, then é", "ctl \x01",
	} {
		k := utf8Run(s)
		if !asIs(s[:k]) {
			t.Errorf("utf8Run(%q) = %d: AppendString changes %q", s, k, s[:k])
		}
		if k < len(s) {
			_, w := utf8.DecodeRuneInString(s[k:])
			if asIs(s[k : k+w]) {
				t.Errorf("utf8Run(%q) = %d: stops before %q, which AppendString writes as it is", s, k, s[k:k+w])
			}
		}
	}
}
