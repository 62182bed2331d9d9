package foreign

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

func TestKind(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"type":"text","agent":"a","final":false,"delta":"x"}`, Envelope},
		{`{"type":"future","agent":"a","final":true,"delta":""}`, Envelope},
		{`{"type":"thread.started","thread_id":"t"}`, Dotted},
		{`{"type":"item.completed","item":{"id":"i","type":"agent_message","text":"x"}}`, Dotted},
		{`{"type":"system","subtype":"init","session_id":"s","model":"m"}`, Session},
		{`{"type":"assistant","message":{"id":"m","type":"message","content":[]},"session_id":"s"}`, Session},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`, Messages},
		{`{"type":"message_start","message":{"id":"m","type":"message","content":[]}}`, Messages},
		{`{"type":"whatever"}`, ""},
		{`[1]`, ""},
		{`not json`, ""},
	}
	for _, tt := range tests {
		if got := Kind([]byte(tt.in)); got != tt.want {
			t.Errorf("Kind(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// kindSeeds are the lines of every JSON line format's corpus (SSE data
// lines without their field name) and odd objects.
func kindSeeds(t testing.TB) [][]byte {
	var files []string
	for _, pat := range []string{"*/*.jsonl", "*/*.sse"} {
		m, _ := filepath.Glob(filepath.Join("../../../testdata", pat))
		files = append(files, m...)
	}
	lines := wiretest.JSONLines(t, files,
		`{"type":"a.b","type":null}`, `{"type":"a.b","type":1}`, `{"type":"a\u002eb"}`, `{"Type":"a.b"}`,
		`{"ty\u0070e":"a.b"}`, `{"type":"x","message":{"TYPE":"message"}}`, `{"message":{"type":"message","type":null}}`,
		`{"message":{"type":"message","type":7}}`, `{"message":{"type":"message"},"message":null}`,
		`{"message":"message"}`, `{"message":{"Type":"x","type":"message"}}`, `{"message":{"tyPe":"message","x":[{}]}}`,
		`{"index":0,"content_block":{}}`, `{"index":0}`, `{"uuid":null}`, `{"session_id":1,"message":{"type":"message"}}`,
		`{"agent":1,"final":2}`, `{"agent":1}`, ` { "final" : true , "agent" : "a" } `, `{"type":"a.b"} x`,
		`{"type":"a.b",}`, `{"a":1e400}`, `null`, `{}`, `{"message":{"type":"message"}`,
	)
	for i, l := range lines {
		lines[i] = bytes.TrimPrefix(l, []byte("data: "))
	}
	return lines
}

// TestKindOnePass: Kind's one pass gives what kindSlow does, and reads
// the corpus's lines in one pass.
func TestKindOnePass(t *testing.T) {
	t.Parallel()
	var r jsontext.Reader
	fast := 0
	for _, l := range kindSeeds(t) {
		if got, want := KindReader(&r, l), kindSlow(l); got != want {
			t.Errorf("Kind(%s) = %q, encoding/json gives %q", l, got, want)
		}
		r.Reset(l)
		if _, ok := readShape(&r); ok && r.End() {
			fast++
		}
	}
	if fast < 100 {
		t.Errorf("only %d lines read in one pass, want 100", fast)
	}
}

func FuzzKind(f *testing.F) {
	for _, l := range kindSeeds(f) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r jsontext.Reader
		if got, want := KindReader(&r, b), kindSlow(b); got != want {
			t.Errorf("Kind(%q) = %q, encoding/json gives %q", b, got, want)
		}
	})
}
