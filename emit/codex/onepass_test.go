package codex

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentstream/agentstream/internal/wire/wiretest"
	"github.com/google/go-cmp/cmp"
)

// jsonSeeds are JSON values, tool inputs among them, odd ones included,
// and the corpus's lines.
func jsonSeeds(t testing.TB) [][]byte {
	return wiretest.JSONLines(t, samples(t, "*.jsonl"),
		`{"command":"ls"}`, `{"command":["ls","-l"],"timeout":5}`, `{"command":null}`, `{"command":1,"command":"x"}`,
		`{"query":"q","action":{"type":"search"},"id":"ws"}`, `{"query":"q","other":1}`, `{"Query":"q"}`, `{"qu\u0065ry":"q"}`,
		`{"a":1,"a":2,"b":3,"a":4}`, `{}`, `[]`, `null`, `"s"`, `1.5e3`, `{"a":1,}`, `{"a":1}x`, `{"a" : [ 1 , 2 ] ,"b": "x y" }`,
		"{\"a\":\t\"\\\" \\\\ \"\n}", `{"é":1}`, "{\"a\":\"\xff\"}", `{"a":01}`, `{"a":-}`, `{"a":"\u12"}`, ` {"a":true} `,
		`{"todos":[{"content":"x","status":"completed"}]}`, `{"receiver_thread_ids":["a"],"prompt":"p","sender_thread_id":"s"}`,
	)
}

// TestCompact: compact's one pass writes what compactSlow does.
func TestCompact(t *testing.T) {
	t.Parallel()
	e := NewEncoder(nil, nil)
	for _, s := range jsonSeeds(t) {
		if diff := cmp.Diff(string(compactSlow(s)), string(e.compact(s))); diff != "" {
			t.Errorf("%s (-slow +one pass):\n%s", s, diff)
		}
	}
}

// TestInput: input reads what json.Unmarshal reads into a
// map[string]json.RawMessage.
func TestInput(t *testing.T) {
	t.Parallel()
	var in input
	for _, s := range jsonSeeds(t) {
		checkInput(t, &in, s)
	}
}

func checkInput(t *testing.T, in *input, s []byte) {
	t.Helper()
	var m map[string]json.RawMessage
	json.Unmarshal(s, &m)
	in.read(s)
	got := map[string]string{}
	for _, mem := range in.members {
		got[string(mem.key)] = string(in.get(string(mem.key)))
	}
	want := map[string]string{}
	for k, v := range m {
		want[k] = string(v)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-map +input):\n%s", s, diff)
	}
	if in.len() != len(m) {
		t.Errorf("%s: len %d, the map has %d", s, in.len(), len(m))
	}
	if in.get("absent") != nil {
		t.Errorf("%s: absent key has a value", s)
	}
}

func FuzzOnePass(f *testing.F) {
	for _, s := range jsonSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		e := NewEncoder(nil, nil)
		if got, want := e.compact(s), compactSlow(s); !bytes.Equal(got, want) {
			t.Errorf("compact(%q) = %q, compactSlow gives %q", s, got, want)
		}
		var in input
		checkInput(t, &in, s)
	})
}
