package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzAppendQuoted checks that a quoted line is a JSON string that
// decodes to the line (invalid UTF-8 as U+FFFD, as encoding/json reads it).
func FuzzAppendQuoted(f *testing.F) {
	for _, s := range []string{"", `data: <x a="1">`, "tab\there\r", `back\slash "q"`, "é 😀 \u2028", "bad \xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := appendQuoted(nil, []byte(s))
		var got string
		if err := json.Unmarshal(q, &got); err != nil {
			t.Fatalf("%q quoted as %s: %v", s, q, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); got != want && utf8.ValidString(s) {
			t.Errorf("%q quoted as %s decodes to %q", s, q, got)
		}
	})
}
