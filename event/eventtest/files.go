package eventtest

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// GoldenFile compares got with the golden file path, or writes it there
// (making its directory) when update is set.
func GoldenFile(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the test wrote (run go test -update and review the diff); -want +got:\n%s", path, cmp.Diff(string(want), string(got)))
	}
}

// SameReads checks that decode gives the events of whole reads when data
// comes one byte, half a buffer, or with its last bytes and io.EOF
// together, and that their text is valid UTF-8.
func SameReads(t testing.TB, data []byte, decode func(io.Reader) []Item) {
	t.Helper()
	want := decode(bytes.NewReader(data))
	CheckUTF8(t, want)
	for name, r := range map[string]io.Reader{
		"OneByteReader": iotest.OneByteReader(bytes.NewReader(data)),
		"HalfReader":    iotest.HalfReader(bytes.NewReader(data)),
		"DataErrReader": iotest.DataErrReader(bytes.NewReader(data)),
	} {
		if diff := cmp.Diff(want, decode(r)); diff != "" {
			t.Errorf("%s gives other events (-whole +%s):\n%s", name, name, diff)
		}
	}
}

// Drain reads dec to its end, for benchmarks.
func Drain(dec event.Decoder) {
	for range 1 << 30 {
		if _, err := dec.Next(); err == io.EOF {
			return
		}
	}
}
