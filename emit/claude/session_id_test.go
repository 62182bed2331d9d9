package claude

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestNamesSession: namesSession answers as json.Unmarshal into a struct
// with a *string session_id field would, on lines its Reader reads and on
// those it leaves to encoding/json (only lines that hold "session_id"
// somewhere are looked at).
func TestNamesSession(t *testing.T) {
	t.Parallel()
	want := func(raw string) bool {
		var line struct {
			SessionID *string `json:"session_id"`
		}
		return strings.Contains(raw, `"session_id"`) && json.Unmarshal([]byte(raw), &line) == nil && line.SessionID != nil
	}
	lines := []string{
		`{"type":"system","subtype":"x","session_id":"s1"}`,
		`{"type":"system","session_id":""}`,
		`{"session_id":null}`,
		`{"session_id":"a","session_id":null}`,
		`{"session_id":null,"session_id":"a"}`,
		`{"session_id":1}`,
		`{"session_id":"a","session_id":true}`,
		`{"session_id":{"x":1}}`,
		`{"nested":{"session_id":"a"}}`,
		`{"nested":{"session_id":"a"},"Session_ID":"b"}`,
		`{"SESSION_ID":"b","x":{"session_id":1}}`,
		`{"session_id":"a","SESSION_ID":null}`,
		`{"session\u005fid":"a","x":["session_id"]}`,
		`{"ſession_id":"a","session_id":null}`,
		`{"ſession_id":"a","y":{"session_id":null}}`,
		`{ "session_id" : "a" , "b" : [ 1 , 2 ] }`,
		`{"session_id":"a"} x`,
		`{"session_id":"a"`,
		`{"session_id":"a",}`,
		`["session_id"]`,
		`"session_id"`,
		`{"session_id":"a\u0000b\ud800"}`,
		"{\"session_id\":\"a\x01\"}",
		"{\"session_id\":\"\xff\"}",
		`{"session_id":"a","big":1e400}`,
		`{"session_id":"a","n":-0.5e-3,"t":true,"f":false,"z":null}`,
		`{"session_id":"a","x":{"y": [1]}}`,
		`{"session_id":"a","x":{"y":[1, 2]},"z":"a b"}`,
		`{}`,
		``,
	}
	var e Encoder
	for _, raw := range lines {
		got, compact := e.namesSession([]byte(raw))
		if w := want(raw); got != w {
			t.Errorf("namesSession(%s) = %v, want %v", raw, got, w)
		}
		checkNamedCompact(t, raw, got, compact)
	}
}

// FuzzNamesSession: namesSession agrees with encoding/json on any line.
func FuzzNamesSession(f *testing.F) {
	f.Add(`{"type":"system","session_id":"s"}`)
	f.Add(`{"Session_Id":null,"x":{"session_id":1}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var line struct {
			SessionID *string `json:"session_id"`
		}
		want := strings.Contains(raw, `"session_id"`) && json.Unmarshal([]byte(raw), &line) == nil && line.SessionID != nil
		var e Encoder
		got, compact := e.namesSession([]byte(raw))
		if got != want {
			t.Fatalf("namesSession(%q) = %v, want %v", raw, got, want)
		}
		checkNamedCompact(t, raw, got, compact)
	})
}

// checkNamedCompact checks namesSession's compact: only for a line it
// names, and then only when json.Compact gives the line back unchanged.
func checkNamedCompact(t *testing.T, raw string, named, compact bool) {
	t.Helper()
	var c bytes.Buffer
	if compact && (!named || json.Compact(&c, []byte(raw)) != nil || c.String() != raw) {
		t.Errorf("namesSession(%q): compact, but named %v, json.Compact %q", raw, named, c.String())
	}
}
