package serve

import (
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzLastUserMessage: any request body is read without a panic, and a
// message found is one the body holds somewhere.
func FuzzLastUserMessage(f *testing.F) {
	for _, s := range []string{
		`{"messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`,
		`{"messages":[{"role":"user","parts":[{"type":"text","text":"hi"}]}]}`,
		`{"input":"hi"}`,
		`{"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}]}`,
		`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
		`{"prompt":"hi"}`,
		``, `null`, `[]`, `{"messages":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msg, ok := LastUserMessage(body)
		if !ok && msg != "" {
			t.Errorf("no message, but text %q", msg)
		}
	})
}

// FuzzParse: any fixtures file is parsed or rejected without a panic, and
// one that parses can be matched against.
func FuzzParse(f *testing.F) {
	// the fixtures files of the CLI script, good and bad
	ar, err := txtar.ParseFile("../testdata/script/replay-serve.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range ar.Files {
		if strings.HasSuffix(file.Name, ".json") {
			f.Add(file.Data)
		}
	}
	f.Add([]byte(`{"fixtures":[{"match":{"method":"POST","path":"/a","userMessage":"x","userMessageRegexp":"^y","call":2},"recording":"r","to":"jsonenv","framing":"sse","timing":"none"}]}`))
	f.Add([]byte(`{"fixtures":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Parse("f.json", b)
		if err != nil {
			return
		}
		m := NewMatcher(file.Fixtures)
		m.Match(Request{Method: "POST", Path: "/a", UserMessage: "xy", HasUserMessage: true})
		m.Match(Request{Method: "GET", Path: "/"})
	})
}
