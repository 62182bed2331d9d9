package eventtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// JSONLines returns the lines of files, then extra: seeds for the tests
// and fuzz targets that compare a one-pass line reader with
// encoding/json.
func JSONLines(t testing.TB, files []string, extra ...string) [][]byte {
	t.Helper()
	var lines [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines = append(lines, bytes.Clone(sc.Bytes()))
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	for _, s := range extra {
		lines = append(lines, []byte(s))
	}
	return lines
}

// ReadsEveryField checks that the one-pass reader in the source file src
// has a case for the JSON name of every field of the structs vs: one it
// does not know it would skip, where encoding/json decodes it.
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

// OnePass checks that read, a one-pass reader of data into a T, decodes
// what json.Unmarshal does, and reports whether it read data (false: it
// leaves data to encoding/json). check, when not nil, compares what
// json.Unmarshal does not fill (the reader's unexported extras) and
// clears it in got; the rest, unexported fields included, must be equal.
func OnePass[T any](t *testing.T, data []byte, read func(*jsontext.Reader, *T) bool, check func(got, want *T)) bool {
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
	if check != nil {
		check(&got, &want)
	}
	if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
		t.Errorf("%s: differs (-json +one pass):\n%s", data, diff)
	}
	return true
}

// OnePassSeeds runs compare (OnePass, say) on each seed, and fails when
// fewer than least of them were read in one pass: the fast path must
// stay the common one.
func OnePassSeeds(t *testing.T, seeds [][]byte, least int, compare func(*testing.T, []byte) bool) {
	t.Helper()
	fast := 0
	for _, s := range seeds {
		if compare(t, s) {
			fast++
		}
	}
	if fast < least {
		t.Errorf("only %d of %d lines read in one pass, want %d", fast, len(seeds), least)
	}
}

// FuzzOnePass is a fuzz target comparing a one-pass reader with
// encoding/json (compare, OnePass say) from seeds.
func FuzzOnePass(f *testing.F, seeds [][]byte, compare func(*testing.T, []byte) bool) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compare(t, data) })
}
