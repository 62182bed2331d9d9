package gemini

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// compare checks that the generated reader of T decodes data as
// json.Unmarshal does (here through the hand-written UnmarshalJSON of
// Models and MetricsModels, which the generated wire:members readers
// must agree with), and reports whether it read data in one pass.
func compare[T any](t *testing.T, data []byte, read func(*jsontext.Reader, *T) bool) bool {
	t.Helper()
	var r jsontext.Reader
	var got T
	r.Reset(data)
	if !read(&r, &got) || !r.End() {
		return false
	}
	var want T
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: the reader decodes what json.Unmarshal refuses: %v", data, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: (-json.Unmarshal +reader):\n%s", data, diff)
	}
	return true
}

func compareAll(t *testing.T, data []byte) int {
	n := 0
	for _, ok := range []bool{
		compare(t, data, ReadProbe), compare(t, data, ReadLine), compare(t, data, ReadResult), compare(t, data, ReadStreamStats),
		compare(t, data, ReadMessage), compare(t, data, ReadToolUse), compare(t, data, ReadRecord),
	} {
		if ok {
			n++
		}
	}
	return n
}

func seeds(t testing.TB) [][]byte {
	files, err := filepath.Glob("../../../testdata/gemini*/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no seeds: %v", err)
	}
	lines := wiretest.JSONLines(t, files,
		`{"models":{"a":{"total_tokens":1},"b":null,"a":{"input":2}},"models":{"c":{}}}`,
		`{"models":{"A-Big.1":{"cached":1}}}`, `{"models":{"\u0061":{}}}`, `{"models":{"é":{}}}`,
		`{"models":[1]}`, `{"models":{"a":1}}`, `{"models":{"a":{"cached":"1"}}}`, `{"models":null}`, `{"models":{}}`,
		`{"type":"result","status":"success","stats":{"total_tokens":3,"models":{"m":{"input":1}}}}`,
		`{"type":"message","role":"assistant","content":"x","delta":true,"Role":"user"}`,
	)
	return lines
}

// TestGeneratedReaders: the recordings' lines and odd ones decode as
// json.Unmarshal decodes them, most in one pass.
func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	lines := seeds(t)
	fast := 0
	for _, l := range lines {
		if compareAll(t, l) > 0 {
			fast++
		}
	}
	if fast < len(lines)*3/4 {
		t.Errorf("%d of %d lines read in one pass", fast, len(lines))
	}
}

// TestReadsEveryField: each field of the line structs, set alone, is
// read.
func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadResult)
	wiretest.ReadsEveryField(t, ReadLine)
	wiretest.ReadsEveryField(t, ReadRecord)
	wiretest.ReadsEveryField(t, ReadSessionMetrics)
}

func FuzzGeneratedReaders(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareAll(t, data) })
}
