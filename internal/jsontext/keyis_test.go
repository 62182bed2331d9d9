package jsontext

import (
	"encoding/binary"
	"testing"
)

// KeyIs, the test's oracle for Follows, reports whether the next member of the object being read has the
// key of q, q being that key quoted and followed by a colon (`"type":`),
// written as compact JSON writes it (the key's quote right after the '{'
// or the ','), and if so reads the key and the ':', leaving the Reader
// where Key would have. Otherwise it reads nothing: the caller goes on
// with Key. The key must be one Key returns as it is (ASCII, no capital,
// nothing a JSON string escapes).
//
// A decoder that knows the order in which a producer writes its keys
// asks for each in turn, one comparison where Key scans the key and the
// caller's switch compares it again; a key out of that order, or written
// otherwise, is read by the decoder's general loop, as before. KeyIs is
// small enough to be inlined, so that the comparison is with a constant.
func (r *Reader) KeyIs(q string) bool {
	i := r.i
	if !r.first {
		i++ // past the ','
	}
	if r.bad || len(r.b)-i < len(q) || string(r.b[i:i+len(q)]) != q || !r.first && r.b[i-1] != ',' {
		return false
	}
	r.i, r.first = i+len(q), false
	return true
}

var keyIsSeeds = []string{
	`{"type":"item.completed","item":{"id":"x","type":"agent_message","text":"hi"}}`,
	`{"type" :1}`, `{ "type":1}`, `{"typ":1}`, `{"types":1}`, `{"Type":1}`, `{"ty\u0070e":1}`,
	`{"a":1,"type":2}`, `{"a":1, "type":2}`, `{}`, `{"type"`, `{"type":`, `{"type"}`, `[1]`, `{"":1}`,
}

// checkKeyIs: at each member of the first object of data, KeyIs(k) for
// each key k in the seeds takes the member exactly when Key returns k,
// leaving the Reader where Key leaves it, and reads nothing otherwise.
func checkKeyIs(t *testing.T, data []byte) {
	t.Helper()
	keys := []string{"type", "item", "id", "text", "typ", "types", "a", ""}
	var r Reader
	r.Reset(data)
	if !r.Object() {
		return
	}
	for range 8 {
		for _, k := range keys {
			before := r
			got := r.KeyIs(`"` + k + `":`)
			after := r
			r = before
			q := `"` + k + `":`
			if !r.first {
				q = "," + q
			}
			for n := range len(q) + 1 { // Follows(a, b) reads a+b, wherever it is split
				if r.Follows(q[:n], q[n:]) != got || r.i != after.i || r.first != after.first || r.bad != after.bad || r.depth != after.depth {
					t.Fatalf("%q: Follows(%q, %q) differs from KeyIs", data, q[:n], q[n:])
				}
				r = before
			}
			key, ok := r.Key()
			want := ok && string(key) == k
			switch {
			case got && !want:
				t.Fatalf("%q: KeyIs(%q) took a member Key reads as %q, %v", data, k, key, ok)
			case got && (after.i != r.i || after.first != r.first || after.bad != r.bad || after.depth != r.depth):
				t.Fatalf("%q: KeyIs(%q) left the Reader at %d, Key at %d", data, k, after.i, r.i)
			case !got && (after.i != before.i || after.first != before.first || after.bad != before.bad):
				t.Fatalf("%q: KeyIs(%q) said no but read on", data, k)
			}
			r = before
		}
		if _, ok := r.Key(); !ok {
			return
		}
		r.Skip()
	}
}

func TestKeyIs(t *testing.T) {
	t.Parallel()
	for _, s := range keyIsSeeds {
		checkKeyIs(t, []byte(s))
	}
	// The producer's compact keys are taken.
	var r Reader
	r.Reset([]byte(`{"type":"x","item":{}}`))
	if !r.Object() || !r.KeyIs(`"type":`) || r.String() != "x" || !r.KeyIs(`"item":`) {
		t.Fatal("KeyIs did not take compact keys in order")
	}
}

func FuzzKeyIs(f *testing.F) {
	for _, s := range keyIsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkKeyIs(t, data) })
}

// checkObjectEnd: ObjectEnd takes the closing brace exactly when Key
// would end the object there without reading white space first, leaving
// the Reader as Key does, and reads nothing otherwise.
func checkObjectEnd(t *testing.T, data []byte) {
	t.Helper()
	var r Reader
	r.Reset(data)
	if !r.Object() {
		return
	}
	for range 8 {
		before := r
		got := r.ObjectEnd()
		after := r
		r = before
		_, ok := r.Key()
		switch {
		case got && (ok || after.i != r.i || after.depth != r.depth || after.first != r.first || after.bad != r.bad):
			t.Fatalf("%q: ObjectEnd took what Key reads otherwise", data)
		case !got && (after.i != before.i || after.depth != before.depth || after.first != before.first):
			t.Fatalf("%q: ObjectEnd said no but read on", data)
		case !got && !ok && !r.bad && before.i < len(data) && data[before.i] == '}':
			t.Fatalf("%q: ObjectEnd left a closing brace at %d", data, before.i)
		}
		if !ok {
			return
		}
		r.Skip()
	}
}

// checkStringIs: StringIs(q) takes the next value exactly when it is a
// string Str reads as q's text, written as q, and reads nothing
// otherwise.
func checkStringIs(t *testing.T, data []byte) {
	t.Helper()
	for _, q := range []string{`"item.completed"`, `"a"`, `""`} {
		var r Reader
		r.Reset(data)
		got := r.StringIs(q)
		end := r.i
		r.Reset(data)
		s := r.Str()
		want := !r.bad && string(s) == q[1:len(q)-1] && string(data[:r.i]) == q
		if got != want || got && end != r.i || !got && end != 0 {
			t.Fatalf("StringIs(%s) on %q = %v (read to %d), want %v", q, data, got, end, want)
		}
	}
}

func TestObjectEndStringIs(t *testing.T) {
	t.Parallel()
	for _, s := range append(keyIsSeeds, `{"a":1 }`, `{ }`, `{"a":{}}`, `"item.completed",`, `"item.complete"`, `"a\u0041"`, `"a`, `""`) {
		checkObjectEnd(t, []byte(s))
		checkStringIs(t, []byte(s))
	}
}

func FuzzObjectEndStringIs(f *testing.F) {
	for _, s := range keyIsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkObjectEnd(t, data)
		checkStringIs(t, data)
	})
}

func TestIsASCII(t *testing.T) {
	t.Parallel()
	for n := range 100 { // the 32-byte blocks and the last 32, overlapping or not
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a'
		}
		if !IsASCII(b) {
			t.Fatalf("IsASCII(%q) = false", b)
		}
		for i := range b {
			c := b[i]
			b[i] = 0x80 + byte(i)
			if IsASCII(b) {
				t.Fatalf("IsASCII(%q) = true", b)
			}
			b[i] = c
		}
	}
}

func FuzzIsASCII(f *testing.F) {
	f.Add([]byte("plain ascii line"))
	f.Add([]byte("We’re"))
	f.Fuzz(func(t *testing.T, b []byte) {
		want := true
		for _, c := range b {
			if c >= 0x80 {
				want = false
			}
		}
		if got := IsASCII(b); got != want {
			t.Fatalf("IsASCII(%q) = %v", b, got)
		}
	})
}

func TestWord(t *testing.T) {
	t.Parallel()
	const in = `{"type":"text"}`
	var r Reader
	r.Reset([]byte(in))
	r.Object()
	for k := range len(in) - r.i + 1 {
		want := uint64(0)
		if r.i+k+8 <= len(in) {
			want = binary.LittleEndian.Uint64([]byte(in[r.i+k:]))
		}
		if got := r.Word(k); got != want {
			t.Errorf("Word(%d) at %d = %#x, want %#x", k, r.i, got, want)
		}
	}
	r.Advance(len(`"type":`))
	if !r.Follows(`"text"}`, ``) || !r.End() {
		t.Errorf("after Advance the reader is at %d, want the value", r.i)
	}
	r.Reset([]byte(in))
	r.Fail()
	if got := r.Word(0); got != 0 {
		t.Errorf("Word(0) after Fail = %#x, want 0", got)
	}
}
