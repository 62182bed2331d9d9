package eventtest

import (
	"bytes"
	"path/filepath"
	"testing"
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

// JSONSeeds returns the JSON objects of the files matching pattern, one a
// line (JSONLines, an SSE "data: " prefix cut), then extra: seeds for a
// one-pass reader of SSE or NDJSON units against encoding/json.
func JSONSeeds(t testing.TB, pattern string, extra ...string) [][]byte {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	var seeds [][]byte
	for _, line := range JSONLines(t, files) {
		line, _ = bytes.CutPrefix(line, []byte("data: "))
		if bytes.HasPrefix(line, []byte("{")) {
			seeds = append(seeds, line)
		}
	}
	for _, s := range extra {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}
