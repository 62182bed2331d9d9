package gemini

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
	// The unexported text of type and timestamp is the reader's alone.
	ignore := cmpopts.IgnoreUnexported(Init{}, Message{}, ToolUse{}, ToolResult{}, Error{}, Result{}, StreamStats{}, ModelStats{})
	if diff := cmp.Diff(want, got, ignore); diff != "" {
		t.Errorf("%s: (-json.Unmarshal +reader):\n%s", data, diff)
	}
	return true
}

func compareAll(t *testing.T, data []byte) int {
	n := 0
	for _, ok := range []bool{
		compare(t, data, ReadProbe), compare(t, data, ReadInit), compare(t, data, ReadToolResult), compare(t, data, ReadError), compare(t, data, ReadResult), compare(t, data, ReadStreamStats),
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
	wiretest.ReadsEveryField(t, ReadInit)
	wiretest.ReadsEveryField(t, ReadMessage)
	wiretest.ReadsEveryField(t, ReadToolUse)
	wiretest.ReadsEveryField(t, ReadToolResult)
	wiretest.ReadsEveryField(t, ReadError)
	wiretest.ReadsEveryField(t, ReadResult)
	wiretest.ReadsEveryField(t, ReadRecord)
	wiretest.ReadsEveryField(t, ReadSessionMetrics)
}

func FuzzGeneratedReaders(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareAll(t, data) })
}

// TestWritten: a line struct's reader keeps its last type and timestamp
// as written (nil when absent), which a decoder compares with the type it
// took from the line's first member.
func TestWritten(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want Written
	}{
		{`{"type":"message","timestamp":"t"}`, Written{json.RawMessage(`"message"`), json.RawMessage(`"t"`)}},
		{`{"type":"message","role":"user"}`, Written{Type: json.RawMessage(`"message"`)}},
		{`{"type":"message","timestamp":null,"type":null}`, Written{json.RawMessage(`null`), json.RawMessage(`null`)}},
		{`{"type":"message","type":"init"}`, Written{Type: json.RawMessage(`"init"`)}},
	}
	for _, tt := range tests {
		var r jsontext.Reader
		var m Message
		r.Reset([]byte(tt.line))
		if !ReadMessage(&r, &m) || !r.End() {
			t.Fatalf("%s: not read", tt.line)
		}
		if diff := cmp.Diff(tt.want, m.Written()); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.line, diff)
		}
	}
}
