package eventtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// Problems returns the problems of items, their texts in order.
func Problems(items []Item) []string {
	var out []string
	for _, it := range items {
		if it.Err != "" {
			out = append(out, it.Err)
		}
	}
	return out
}

// JSONSeeds returns the JSON objects of the files matching pattern, one
// per line (after an SSE "data: " prefix), then extra: seeds for a test of
// a one-pass reader against encoding/json.
func JSONSeeds(t testing.TB, pattern string, extra ...string) [][]byte {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	var seeds [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line, _ := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
			if bytes.HasPrefix(line, []byte("{")) {
				seeds = append(seeds, bytes.Clone(line))
			}
		}
	}
	for _, s := range extra {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// OnePass checks that read, a one-pass reader of data into a T, decodes
// what json.Unmarshal gives, and reports whether it decoded data (it may
// leave odd input to encoding/json).
func OnePass[T any](t *testing.T, data []byte, read func(*jsontext.Reader, *T) bool, opts ...cmp.Option) bool {
	t.Helper()
	var r jsontext.Reader
	var got T
	r.Reset(data)
	if !read(&r, &got) || !r.End() {
		return false
	}
	var want T
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: one pass decodes what json.Unmarshal refuses: %v", data, err)
	}
	if diff := cmp.Diff(want, got, opts...); diff != "" {
		t.Errorf("%s: differs (-json +one pass):\n%s", data, diff)
	}
	return true
}

// OnePassSeeds runs compare (OnePass for one reader) on each seed, and
// fails when fewer than min of them were decoded in one pass: the fast
// path must be the one the recordings take.
func OnePassSeeds(t *testing.T, seeds [][]byte, min int, compare func(*testing.T, []byte) bool) {
	t.Helper()
	fast := 0
	for _, s := range seeds {
		if compare(t, s) {
			fast++
		}
	}
	if fast < min {
		t.Errorf("only %d of %d seeds decoded in one pass, want %d", fast, len(seeds), min)
	}
}

// ReadsEveryField checks that the source file src has a case for the JSON
// name of every field of each struct of vs: a field added to a wire struct
// must be read by its one-pass reader too, which would otherwise skip it.
func ReadsEveryField(t *testing.T, src string, vs ...any) {
	t.Helper()
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		for _, name := range jsontext.FieldNames(v) {
			if !bytes.Contains(text, []byte(`case "`+name+`"`)) {
				t.Errorf("%T field %q is not read by %s", v, name, src)
			}
		}
	}
}
