package xml

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	wire "github.com/agentstream/agentstream/parse/xmlstream"
)

// onePassStrings are strings whose bytes appendPy treats apart placed
// where its word-at-a-time scan meets them: first, last and past the
// first eight bytes.
var onePassStrings = append([]string{
	"abcdefgh\x7fijklmnop", "abcdefghijklmno\\", "12345678\"", "1234567\n", "\x7f", "abcdefg\x7f",
	"abcdefgh<ijklmnop>&'", "]]>abcdefgh]]>", "abcdefghijklmnopqrstuvwxyz\xe9", "text]]", ">",
}, pyStrings...)

// refPyJSON is pyJSON as it was, a string at a time through
// json.Unmarshal (refAppendPyString).
func refPyJSON(raw []byte) []byte {
	if !json.Valid(raw) {
		raw, _ = json.Marshal(string(raw))
	}
	var out []byte
	for i := 0; i < len(raw); {
		switch c := raw[i]; c {
		case ' ', '\t', '\n', '\r':
			i++
		case ',':
			out = append(out, ", "...)
			i++
		case ':':
			out = append(out, ": "...)
			i++
		case '"':
			end := stringEnd(raw, i)
			out = refAppendPyString(out, raw[i:end])
			i = end
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// formatted is formatter's escaping of s (the reference of the one-pass
// writers below).
func formatted(s []byte) []byte { return appendFormatted(nil, s) }

func encodeOne(t *testing.T, ev event.Event) string {
	t.Helper()
	var buf bytes.Buffer
	e := NewEncoder(&buf, nil)
	e.started = true // no scope, no meta_init before ev
	if err := e.Encode(ev); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// checkToolCall checks the tool call element, written in one pass,
// against its parts escaped one after the other.
func checkToolCall(t *testing.T, id, name, input string, server bool) {
	t.Helper()
	tag := wire.TagToolCall
	if server {
		tag = wire.TagServerToolCall
	}
	elem := `<` + tag + ` id="` + htmlEscape(id) + `" name="` + htmlEscape(name) + `" arguments="` +
		htmlEscape(string(refPyJSON(inputJSON(json.RawMessage(input))))) + `"></` + tag + `>`
	want := "data: " + string(formatted([]byte(elem))) + "\n\n"
	got := encodeOne(t, &event.ToolCall{ID: id, Name: name, Input: json.RawMessage(input), Server: server})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("tool call (%q, %q, %q) (-passes +one pass):\n%s", id, name, input, diff)
	}
}

// checkErrorObject checks errorObject against errorBlock of
// appendErrorJSON, through a turn's error and an error event.
func checkErrorObject(t *testing.T, typ, msg string) {
	t.Helper()
	var want bytes.Buffer
	ref := NewEncoder(&want, nil)
	ref.errorBlock(appendErrorJSON(nil, typ, msg))
	got := encodeOne(t, &event.Error{Type: typ, Message: msg})
	if diff := cmp.Diff(want.String(), got); diff != "" {
		t.Fatalf("error (%q, %q) (-passes +one pass):\n%s", typ, msg, diff)
	}
	if typ == "turn_failed" && msg != "" { // (an empty error is no error)
		got = encodeOne(t, &event.TurnEnd{Error: msg})
		if diff := cmp.Diff(want.String(), got); diff != "" {
			t.Fatalf("turn error %q (-passes +one pass):\n%s", msg, diff)
		}
	}
}

// checkSpellings checks each pySpell against appendPyQuoted's output
// escaped after it.
func checkSpellings(t *testing.T, s string) {
	t.Helper()
	py := appendPyQuoted(nil, s)
	for _, c := range []struct {
		sp   *pySpell
		want string
	}{
		{&pyHTML, htmlEscape(string(py))},
		{&pyFormatted, string(formatted(py))},
		{&pyHTMLFormatted, string(formatted([]byte(htmlEscape(string(py)))))},
	} {
		if diff := cmp.Diff(c.want, string(appendPy(nil, s, c.sp))); diff != "" {
			t.Fatalf("appendPy(%q, %+v) (-passes +one pass):\n%s", s, *c.sp, diff)
		}
	}
}

func TestPyJSON(t *testing.T) {
	t.Parallel()
	for _, s := range append(append([]string{}, onePassStrings...), chunkStrings...) {
		in, _ := json.Marshal(map[string]any{"k": s, s: []string{s, "plain", s + "x"}})
		for _, raw := range []string{s, string(in)} {
			if diff := cmp.Diff(string(refPyJSON([]byte(raw))), string(pyJSON([]byte(raw)))); diff != "" {
				t.Fatalf("pyJSON(%q) (-passes +one pass):\n%s", raw, diff)
			}
		}
	}
}

func TestOnePassWriters(t *testing.T) {
	t.Parallel()
	inputs := append(append([]string{}, onePassStrings...), chunkStrings...)
	for i, s := range inputs {
		o := inputs[(i+1)%len(inputs)]
		checkSpellings(t, s)
		checkToolCall(t, s, o, s, i%2 == 0)
		in, _ := json.Marshal(map[string]string{s: o, "k": s})
		checkToolCall(t, o, s, string(in), false)
		checkErrorObject(t, s, o)
		checkErrorObject(t, "turn_failed", s)
	}
}

func FuzzOnePassWriters(f *testing.F) {
	for i, s := range onePassStrings {
		f.Add(s, onePassStrings[(i+3)%len(onePassStrings)], chunkStrings[i%len(chunkStrings)])
	}
	f.Fuzz(func(t *testing.T, a, b, input string) {
		if diff := cmp.Diff(string(refPyJSON([]byte(input))), string(pyJSON([]byte(input)))); diff != "" {
			t.Fatalf("pyJSON(%q) (-passes +one pass):\n%s", input, diff)
		}
		checkSpellings(t, a)
		checkToolCall(t, a, b, input, strings.HasPrefix(b, "s"))
		checkErrorObject(t, a, b)
		checkErrorObject(t, "turn_failed", b)
	})
}
