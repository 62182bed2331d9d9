package jsontext

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// compactWant reports whether data, valid JSON, is compact: json.Compact
// gives it back unchanged.
func compactWant(t *testing.T, data []byte) bool {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		t.Fatalf("json.Compact(%q): %v", data, err)
	}
	return bytes.Equal(buf.Bytes(), data)
}

// checkSpaced reads data, valid JSON, each way the decoders read a value
// (member by member; skipped whole, in skipLoop's one loop or, nested
// deeper than it follows, in skipWalk's; through Decode), and fails t
// where a read that ends without failure has Spaced otherwise than
// json.Compact says.
func checkSpaced(t *testing.T, data []byte) {
	t.Helper()
	spaced := !compactWant(t, data)
	var r Reader
	reads := map[string]func(){
		"walk":       func() { walk(&r) },
		"Skip":       func() { r.Skip() },
		"skipWalk":   func() { r.skipWalk(r.Peek()) },
		"ResetValid": func() { r.ResetValid(data); walk(&r) },
	}
	for name, read := range reads {
		r.Reset(data)
		read()
		if !r.End() || r.Failed() {
			continue // read by encoding/json instead: Spaced is not asked
		}
		if r.Spaced() != spaced {
			t.Errorf("%s: %q: Spaced() = %v, want %v", name, data, r.Spaced(), spaced)
		}
	}
	// Decode: Spaced is exact where the Reader read the value, true
	// (not known) where encoding/json did (whether or not it could
	// decode the value: a number out of a float64's range).
	var v any
	readAny := func(r *Reader, v *any) bool { *v = walk(r); return !r.Failed() }
	_ = Decode(&r, data, &v, readAny)
	if r.Spaced() != spaced && !r.Failed() || r.Failed() && !r.Spaced() {
		t.Errorf("Decode: %q: Spaced() = %v, want %v (reader failed: %v)", data, r.Spaced(), spaced, r.Failed())
	}
}

// genJSON writes a random JSON value to b, nested at most depth deep,
// with white space (ws says how often) at every place JSON allows it.
func genJSON(b *strings.Builder, rnd *rand.Rand, depth int, ws float64) {
	space := func() {
		for rnd.Float64() < ws {
			b.WriteByte(" \t\n\r"[rnd.IntN(4)])
		}
	}
	space()
	switch k := rnd.IntN(8); {
	case k == 0 && depth > 0:
		b.WriteByte('{')
		n := rnd.IntN(4)
		for i := range n {
			if i > 0 {
				if rnd.IntN(2) == 0 {
					b.WriteString(", ") // as Python's json.dumps writes it
				} else {
					b.WriteByte(',')
				}
			}
			space()
			b.WriteString(strconv.Quote([]string{"a", "type", "Key", "a longer key than a word", "k\\n \"x\""}[rnd.IntN(5)]))
			space()
			b.WriteByte(':')
			genJSON(b, rnd, depth-1, ws)
		}
		space()
		b.WriteByte('}')
	case k == 1 && depth > 0:
		b.WriteByte('[')
		n := rnd.IntN(4)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			genJSON(b, rnd, depth-1, ws)
		}
		space()
		b.WriteByte(']')
	case k == 2:
		b.WriteString([]string{`"plain"`, `" spaced\ttext\n"`, `"\" , : { ["`, `""`, `"é 🦊"`}[rnd.IntN(5)])
	case k == 3:
		b.WriteString([]string{"true", "false", "null"}[rnd.IntN(3)])
	case k == 4:
		b.WriteString([]string{"0", "-12", "3.5e-2", "1E9"}[rnd.IntN(4)])
	default:
		// Nesting past skipLoop's 64 levels, now and then.
		if depth > 0 && rnd.IntN(40) == 0 {
			n := 60 + rnd.IntN(10)
			b.WriteString(strings.Repeat("[", n))
			genJSON(b, rnd, 0, ws)
			for range n {
				space()
				b.WriteByte(']')
			}
			return
		}
		b.WriteString(`"x"`)
	}
	space()
}

// TestSpaced: over generated JSON, compact and with white space here and
// there, and over the seeds, Spaced is true exactly when the text has
// white space outside its strings.
func TestSpaced(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var b strings.Builder
		ws := []float64{0, 0, 0.02, 0.2}[i%4] // half of them compact
		genJSON(&b, rnd, 5, ws)
		checkSpaced(t, []byte(b.String()))
	}
	for _, s := range spacedSeeds {
		checkSpaced(t, []byte(s))
	}
}

var spacedSeeds = []string{
	`{"a":1}`, `{"a":1 }`, `{ "a":1}`, `{"a" :1}`, `{"a": 1}`, `{"a":1, "b":2}`, `{"a":1 ,"b":2}`,
	`[1,2]`, `[ 1,2]`, `[1 ,2]`, `[1, 2]`, `[1,2 ]`, `{ }`, `[ ]`, `[{}, []]`, " 1", "1 ", "1\r", "\n1",
	`"a b"`, `{"a b":"c d"}`, `{"a":"\" "}`, `{"a":"\\", "b":1}`, `[` + strings.Repeat(`[`, 70) + ` ` + strings.Repeat(`]`, 71),
	`{"k":{"l":[1,{"m":null}]}}`,
}

// FuzzSpaced: on any valid JSON, Spaced agrees with json.Compact.
func FuzzSpaced(f *testing.F) {
	for _, s := range append(spacedSeeds, validSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		checkSpaced(t, data)
	})
}
