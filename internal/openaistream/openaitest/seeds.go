package openaitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Payloads returns the data of every SSE message of the .sse files of
// dir, one a payload (the recordings hold one data: line a message), and
// extra.
func Payloads(t testing.TB, dir string, extra ...string) [][]byte {
	files, err := filepath.Glob(filepath.Join(dir, "*.sse"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings in %s: %v", dir, err)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok && strings.HasPrefix(data, "{") {
				out = append(out, []byte(data))
			}
		}
	}
	for _, s := range extra {
		out = append(out, []byte(s))
	}
	return out
}
