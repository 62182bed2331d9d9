package jsontext

import "testing"

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
