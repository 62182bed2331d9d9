package jsontext

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

var skipSeeds = []string{
	`{"a":[1,-2.5e+3,true,false,null,"x\u00e9\n\"",{"B":{}}],"é":{"\\u0041":[]}}`,
	` [ ] `, "{ \"a\\\\\" : [ 1 ,\t\"b\\\" \" ] }\n", `"str"`, `0`, `-0.0E-1`, `01`, `1.`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `"\x"`, "\"\x01\"",
	`{"a":"\ud800"}`, `nul`, `{"a":1}{"b":2}`, `[[[[]]]]`, "\"\xff\"",
	`{"a":{"b":[1,{"c":null}],"":false},"d":"e"}`, `[{},[],"",-1e2,[{"x":[]}]]`, `{"a":1]`, `[1}`, `{"a":tru}`, `[1,2`, `{"a":1,"b"}`,
	`{"a":1,"b":2`, `[,1]`, `{,}`, `{"a"::1}`, `[01]`, `["a\q"]`, `[nulll]`, `[1 ]`, `{"a": 1}`,
	strings.Repeat("[", 64) + strings.Repeat("]", 64), strings.Repeat("[", 65) + strings.Repeat("]", 65), strings.Repeat(`{"a":`, 70) + "1" + strings.Repeat("}", 70),
}

// checkSkip: Skip accepts exactly what encoding/json accepts as one
// value (nesting deeper than maxDepth aside), and returns its text.
func checkSkip(t *testing.T, data []byte) {
	var r Reader
	r.Reset(data)
	raw := r.Skip()
	ok := r.End()
	valid := json.Valid(data)
	// skipLoop reads what skipWalk reads, nested up to 64 deep.
	var fast, walk Reader
	fast.Reset(data)
	walk.Reset(data)
	if c := fast.Peek(); c == '{' || c == '[' {
		start := fast.i
		read := fast.skipLoop()
		walk.skipWalk(walk.Peek())
		if read && (walk.bad || fast.i != walk.i || fast.depth != walk.depth || fast.first) {
			t.Fatalf("%q: skipLoop reads to %d, skipWalk to %d (failed %v)", data, fast.i, walk.i, walk.bad)
		}
		if !read && fast.i != start {
			t.Fatalf("%q: skipLoop gives up at %d, not where it began", data, fast.i)
		}
		if !read && valid && !deeper(data, 64) {
			t.Fatalf("%q: skipLoop gives valid JSON up", data)
		}
	}
	if ok && !valid {
		t.Fatalf("%q: Skip accepts what json.Valid refuses", data)
	}
	if valid && !ok && r.depth < maxDepth {
		t.Fatalf("%q: Skip refuses valid JSON", data)
	}
	if valid {
		var want bytes.Buffer
		json.Compact(&want, data)
		if got := CompactValid(data); string(got) != want.String() {
			t.Fatalf("%q: CompactValid = %q, json.Compact %q", data, got, want.Bytes())
		}
	}
	if ok {
		var want json.RawMessage
		json.Unmarshal(data, &want)
		if string(raw) != string(want) {
			t.Fatalf("%q: Skip returns %q, json %q", data, raw, want)
		}
	}
}

// deeper reports whether JSON text data nests more than n deep.
func deeper(data []byte, n int) bool {
	d := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			i = StringEnd(data, i) - 1
			if i < 0 {
				return false
			}
		case '{', '[':
			if d++; d > n {
				return true
			}
		case '}', ']':
			d--
		}
	}
	return false
}

func TestSkip(t *testing.T) {
	t.Parallel()
	for _, s := range skipSeeds {
		checkSkip(t, []byte(s))
	}
}

func FuzzSkip(f *testing.F) {
	for _, s := range skipSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkSkip)
}

// TestStops: the 8-byte test agrees with the byte-by-byte one, for
// every byte value at every place among plain bytes and among others.
func TestStops(t *testing.T) {
	t.Parallel()
	special := func(c byte) bool { return c < 0x20 || c == '"' || c == '\\' }
	for _, fill := range []byte{'a', 0x80, 0xff, 0x20, '~'} {
		for c := range 256 {
			for p := range 8 {
				var b [8]byte
				for i := range b {
					b[i] = fill
				}
				b[p] = byte(c)
				want := special(byte(c))
				if got := stops(binary.LittleEndian.Uint64(b[:])) != 0; got != want {
					t.Fatalf("stops(% x) = %v, want %v", b, got, want)
				}
				run := 8
				if want {
					run = p
				}
				if got := plainLen(b[:]); got != run {
					t.Fatalf("plainLen(% x) = %d, want %d", b, got, run)
				}
			}
		}
	}
}

// TestUTF8Run: utf8Run ends where a rune-by-rune scan does: at a quote,
// a backslash, a control character or invalid UTF-8.
func TestUTF8Run(t *testing.T) {
	t.Parallel()
	naive := func(b []byte) int {
		i := 0
		for i < len(b) {
			r, size := utf8.DecodeRune(b[i:])
			if r < 0x20 || r == '"' || r == '\\' || (r == utf8.RuneError && size == 1) {
				break
			}
			i += size
		}
		return i
	}
	for _, s := range []string{
		"", "plain ascii text, long enough for words", "Ünïcödé — 测试 🦊 and more text", "a\"b", "ab\\n",
		"ok \xff bad", "cut \xe6\xb5", "\xe6\xb5\x8b\xe8\xaf\x95\"", "tab\there", "\xed\xa0\x80 surrogate", "x\x00y",
	} {
		if got, want := utf8Run([]byte(s)), naive([]byte(s)); got != want {
			t.Errorf("utf8Run(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestKeyLen: keyLen stops where a byte-by-byte scan does, for every byte
// value at every place of a key long enough for two words and a tail,
// with capitals allowed or not.
func TestKeyLen(t *testing.T) {
	t.Parallel()
	naive := func(b []byte, caps bool) int {
		for i, c := range b {
			if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 || (!caps && 'A' <= c && c <= 'Z') {
				return i
			}
		}
		return len(b)
	}
	for c := range 256 {
		for p := range 19 {
			b := []byte("key_name-9@[`{~z/a ")
			b[p] = byte(c)
			for _, caps := range []bool{false, true} {
				if got, want := keyLen(b, caps), naive(b, caps); got != want {
					t.Fatalf("keyLen(%q, %v) = %d, want %d", b, caps, got, want)
				}
				if got, want := asciiPlainLen(b), naive(b, true); got != want {
					t.Fatalf("asciiPlainLen(%q) = %d, want %d", b, got, want)
				}
			}
		}
	}
}

// TestMultiLen: multiLen ends where a rune-by-rune scan with
// utf8.DecodeRune does, for every first and second byte, with third and
// fourth bytes at the edges of the continuation range and of U+2028.
func TestMultiLen(t *testing.T) {
	t.Parallel()
	naive := func(b []byte, ls bool) int {
		i := 0
		for i < len(b) {
			r, size := utf8.DecodeRune(b[i:])
			if r < utf8.RuneSelf || (r == utf8.RuneError && size == 1) || (ls && (r == '\u2028' || r == '\u2029')) {
				break
			}
			i += size
		}
		return i
	}
	edges := []byte{'A', 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xa8, 0xa9, 0xbf, 0xc0, 0xff}
	b := make([]byte, 4)
	for c0 := range 256 {
		for c1 := range 256 {
			for _, c2 := range edges {
				for _, c3 := range edges {
					if c0 < 0xf0 && c3 != 'A' {
						continue // only a 4-byte character looks at b[3]
					}
					b[0], b[1], b[2], b[3] = byte(c0), byte(c1), c2, c3
					for n := 1; n <= 4; n++ {
						for _, ls := range []bool{false, true} {
							if got, want := multiLen(b[:n], ls), naive(b[:n], ls); got != want {
								t.Fatalf("multiLen(% x, %v) = %d, want %d", b[:n], ls, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestKey: Key and KeyFold read a key of any length up to where its text
// ends, or fail at a byte they leave to encoding/json, wherever it is in
// the key, with the text ending right after the object or going on.
func TestKey(t *testing.T) {
	t.Parallel()
	for n := range 20 {
		for p := range n + 1 {
			for _, c := range []byte{'a', '_', '@', '[', 'A', 'Z', '\\', 0x01, 0x1f, 0x80, 0xc3, 0xff} {
				key := []byte("abcdefghijklmnopqrst"[:n])
				if p < n {
					key[p] = c
				}
				for _, tail := range []string{"", `,"pad":"a longer value than a word"`} {
					in := []byte(`{"` + string(key) + `":1` + tail + `}`)
					for _, fold := range []bool{false, true} {
						ok := bytes.IndexFunc(key, func(r rune) bool {
							return r < 0x20 || r == '\\' || r >= utf8.RuneSelf || (!fold && 'A' <= r && r <= 'Z')
						}) < 0
						var r Reader
						r.Reset(in)
						r.Object()
						read := r.Key
						if fold {
							read = r.KeyFold
						}
						got, gotOK := read()
						if gotOK != ok || (ok && string(got) != string(key)) || r.Failed() == ok {
							t.Fatalf("%q (fold %v): key %q, %v (failed %v), want %q, %v", in, fold, got, gotOK, r.Failed(), key, ok)
						}
					}
				}
			}
		}
	}
}

func TestNumberEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		i    int
		want int
	}{
		{"0", 0, 1},
		{"-0", 0, 2},
		{"12,", 0, 2},
		{"01", 0, 1}, // a number ends after a leading 0: the 1 is the caller's to reject
		{"1.5e+10}", 0, 7},
		{"1E3", 0, 3},
		{"x-2.25", 1, 6},
		{"-", 0, -1},
		{"1.", 0, -1},
		{"1.e3", 0, -1},
		{"1e", 0, -1},
		{"1e+", 0, -1},
		{".5", 0, -1},
		{"+1", 0, -1},
		{"", 0, -1},
	}
	for _, tt := range tests {
		if got := NumberEnd([]byte(tt.in), tt.i); got != tt.want {
			t.Errorf("NumberEnd(%q, %d) = %d, want %d", tt.in, tt.i, got, tt.want)
		}
	}
}

func TestValid(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000) // deeper than the Reader follows
	var r Reader
	for _, in := range []string{`{"a":[1,2.5e3,"x\u00e9"]}`, ` null `, deep, ``, `{"a":}`, `[1,]`, `"\x01"`, `1 2`, "{\"a\":\"\xff\"}"} {
		if got, want := Valid(&r, []byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("Valid(%.40q) = %v, json.Valid %v", in, got, want)
		}
	}
}

func TestStringEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		i    int
		want int
	}{
		{`"abc"`, 0, 5},
		{`x"a\"b",`, 1, 7},
		{`"\u00dcn\u00ef\ud83e\udd8a and a longer plain run"`, 0, 50},
		{`"\\\/\b\f\n\r\t"`, 0, 16},
		{"\"bad \xff byte\"", 0, 12}, // invalid UTF-8 passes, as encoding/json's scanner lets it
		// One byte between two escapes: a character, the end, a control.
		{`"\u00e9c\u00e9d\n"`, 0, 18},
		{"\"\\u00e9\xc3\\n\"", 0, 11},
		{`"\n"\n"`, 0, 4},
		{"\"\\n\x01\\n\"", 0, -1},
		{`"\n\\n"`, 0, 7},
		{`"open`, 0, -1},
		{`"\x"`, 0, -1},
		{`"\u12g4"`, 0, -1},
		{`"\u12`, 0, -1},
		{"\"ctl \x01\"", 0, -1},
		{`"ends in \`, 0, -1},
		{`abc`, 0, -1},
		{``, 0, -1},
	}
	for _, tt := range tests {
		if got := StringEnd([]byte(tt.in), tt.i); got != tt.want {
			t.Errorf("StringEnd(%q, %d) = %d, want %d", tt.in, tt.i, got, tt.want)
		}
	}
}
