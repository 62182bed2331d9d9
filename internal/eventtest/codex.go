package eventtest

import (
	"bufio"
	"bytes"
	"os"
	"testing"

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
