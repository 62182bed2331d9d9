package xmlstream

import (
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/google/go-cmp/cmp"
)

var jsonTextCases = []string{
	"", "{}", " {} ", "[]", `{"a": 1}`, `{"command": "echo one && echo two >&2", "description": "x"}`,
	`{"a": [1, 2.5, -3e10, true, false, null, "s"]}`, `"just a string"`, "1", "01", "1.", "-", "1e", "1e+",
	"-0", "0.5E-3", "tru", "nul", `{"a" 1}`, `{"a": 1,}`, `[1,]`, `{"a": 1} x`, `{"a": "\u00e9\ud83e\udd8a"}`,
	`{"a": "\u12"}`, `{"a": "\x"}`, "{\"a\": \"\x01\"}", "{\"a\": \"\xff\"}", "\xef\xbb\xbf{}", `{"a":1}{}`,
	strings.Repeat("[", 300) + strings.Repeat("]", 300), strings.Repeat("[", 200) + strings.Repeat("]", 200),
}

// TestJSONText checks the decoder's jsonText against event.JSONText,
// which it must always equal.
func TestJSONText(t *testing.T) {
	t.Parallel()
	var d Decoder
	for _, s := range jsonTextCases {
		if diff := cmp.Diff(string(event.JSONText(s)), string(d.jsonText(s))); diff != "" {
			t.Errorf("jsonText(%q) (-event.JSONText +jsonText):\n%s", s, diff)
		}
	}
}

func FuzzJSONText(f *testing.F) {
	for _, s := range jsonTextCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var d Decoder
		if got, want := string(d.jsonText(s)), string(event.JSONText(s)); got != want {
			t.Errorf("jsonText(%q) = %q, want %q", s, got, want)
		}
	})
}
