package xml

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
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
		if got, want := indexFormatter(s), indexIn(s, formatterSpecial); got != want {
			t.Errorf("indexFormatter(%q) = %d, want %d", s, got, want)
		}
	})
}

// placements calls f with every string of up to 19 bytes made of filler
// (bytes near the special ones) with one of specials, or none, at each
// place: the eight-bytes-at-a-time searches must agree with a byte loop
// at every offset.
func placements(specials, filler string, f func(b []byte)) {
	for _, c := range []byte(specials) {
		for n := range 20 {
			for at := range n + 1 {
				b := bytes.Repeat([]byte(filler), n)[:n]
				if at < n {
					b[at] = c
				}
				f(b)
			}
		}
	}
}

func TestMetaPlainLen(t *testing.T) {
	t.Parallel()
	placements("&<>\"'\x80\xff", "a%;=?~\x7f", func(b []byte) {
		want := 0
		for want < len(b) && metaPlain[b[want]] == 0 {
			want++
		}
		if got := metaPlainLen(b); got != want {
			t.Errorf("metaPlainLen(%q) = %d, want %d", b, got, want)
		}
	})
}

func TestIndexFormatter(t *testing.T) {
	t.Parallel()
	placements("\\\n\r", "aé\x80\x0b[", func(b []byte) {
		s := string(b)
		if got, want := indexFormatter(s), indexIn(s, formatterSpecial); got != want {
			t.Errorf("indexFormatter(%q) = %d, want %d", s, got, want)
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
		if got, want := metaPlain[c] == 0, c < utf8.RuneSelf && strings.IndexByte(`&<>"'`, byte(c)) < 0; got != want {
			t.Errorf("metaPlain[%#x] = %v, want %v", c, got, want)
		}
	}
}

// metaDataInputs are meta payloads: ASCII, non-ASCII (two, three and
// four bytes), invalid UTF-8, line breaks between tokens, HTML specials,
// and text that is not JSON.
var metaDataInputs = []string{
	``, `{}`, `{"a": "b"}`, `{"result": "Ünïcödé — 测试 🦊 <&>'\""}`, "{\n\"a\":\r\n[1, 2]}",
	"{\"a\": \"\xff\xfe\"}", `not json <&>`, "é\n", `{"a": "\u00e9\ud83e\udd8a"}`, "\"\u2028\"",
}

// metaDataOf is what appendMetaData writes, the slow way: the payload made
// ASCII one character at a time, then HTML-escaped.
func metaDataOf(raw []byte) string {
	if !validJSON(raw) {
		s, _ := json.Marshal(string(raw))
		raw = s
	}
	if bytes.ContainsAny(raw, "\r\n") {
		var buf bytes.Buffer
		json.Compact(&buf, raw)
		raw = buf.Bytes()
	}
	var out []byte
	for _, r := range string(raw) {
		if r < utf8.RuneSelf {
			out = append(out, byte(r))
			continue
		}
		q := appendPyQuoted(nil, string(r))
		out = append(out, q[1:len(q)-1]...)
	}
	return htmlEscape(string(out))
}

func TestAppendMetaData(t *testing.T) {
	t.Parallel()
	for _, s := range metaDataInputs {
		if diff := cmp.Diff(metaDataOf([]byte(s)), string(appendMetaData([]byte("x"), []byte(s)))[1:]); diff != "" {
			t.Errorf("appendMetaData(%q) (-want +got):\n%s", s, diff)
		}
	}
}

func FuzzAppendMetaData(f *testing.F) {
	for _, s := range metaDataInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if diff := cmp.Diff(metaDataOf([]byte(s)), string(appendMetaData(nil, []byte(s)))); diff != "" {
			t.Errorf("appendMetaData(%q) (-want +got):\n%s", s, diff)
		}
	})
}
