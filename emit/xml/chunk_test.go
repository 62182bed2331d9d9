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

// refToolCall and refToolResult write the tool call and result elements
// the way the encoder did before it appended them into its buffers: by
// string concatenation, htmlEscape, pyJSON, strings.Join and ReplaceAll.
// toolCall and toolResult must write the same bytes.
func refToolCall(e *Encoder, ev *event.ToolCall) {
	tag := wire.TagToolCall
	if ev.Server {
		tag = wire.TagServerToolCall
	}
	e.formatter(`<` + tag + ` id="` + htmlEscape(ev.ID) + `" name="` + htmlEscape(ev.Name) +
		`" arguments="` + htmlEscape(string(pyJSON(inputJSON(ev.Input)))) + `"></` + tag + `>`)
}

func refToolResult(e *Encoder, ev *event.ToolResult) {
	var texts []string
	var images []event.Part
	for _, p := range ev.Content {
		if p.Type == "image" {
			images = append(images, p)
		} else {
			texts = append(texts, p.Text)
		}
	}
	text := strings.Join(texts, "\n")
	if ev.Server {
		tag := wire.TagServerToolResult
		e.formatter(`<` + tag + ` id="` + htmlEscape(ev.ID) + `" name="` + htmlEscape(ev.Name) + `"><![CDATA[` +
			cdata(text) + `]]></` + tag + `>`)
		return
	}
	tag := wire.TagToolResult
	var sb strings.Builder
	sb.WriteString(`<` + tag + ` id="` + htmlEscape(ev.ID) + `" name="` + htmlEscape(ev.Name) + `">`)
	if len(images) == 0 {
		sb.WriteString("<![CDATA[" + cdata(text) + "]]>")
	} else {
		sb.WriteString("<" + wire.TagResultText + "><![CDATA[" + cdata(text) + "]]></" + wire.TagResultText + ">")
		for _, img := range images {
			sb.WriteString(`<` + wire.TagResultImage + ` src="` + htmlEscape(img.Source) + `" media_type="` +
				htmlEscape(img.MediaType) + `" />`)
		}
	}
	sb.WriteString("</" + tag + ">")
	s := strings.ReplaceAll(sb.String(), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	e.message([]byte(strings.ReplaceAll(s, "\n", `\n`)))
}

// chunkStrings are texts around what the chunks escape: entities, CDATA
// ends, line ends, backslashes, JSON and not JSON.
var chunkStrings = []string{
	"", "plain", `a"b'c<d>e&f`, "]]>", "a]]>b]]]>", "]]", "\r\n", "x\ry\n\rz\r", `\n \\ \`, "é测🦊",
	`{"command": "ls -la", "n": 1.50, "ok": true}`, `{"a":"é\u00e9<>&'\""}`, "{not json", "  ", "\xff\xfe",
}

func checkChunks(t *testing.T, a, b, c string, server, image bool) {
	t.Helper()
	call := &event.ToolCall{ID: a, Name: b, Input: json.RawMessage(c), Server: server}
	content := []event.Part{{Type: "text", Text: c}, {Type: "text", Text: a}}
	if image {
		content = append(content, event.Part{Type: "image", Source: b, MediaType: a}, event.Part{Type: "text", Text: b})
	}
	result := &event.ToolResult{ID: b, Name: a, Content: content, Server: server}
	var got, want bytes.Buffer
	e := NewEncoder(&got, nil)
	e.toolCall("agent", call)
	e.toolResult(result)
	e.toolCall("agent", call) // the buffers reused
	r := NewEncoder(&want, nil)
	refToolCall(r, call)
	refToolResult(r, result)
	refToolCall(r, call)
	if diff := cmp.Diff(want.String(), got.String()); diff != "" {
		t.Fatalf("tool call and result of %q, %q, %q (-strings +append):\n%s", a, b, c, diff)
	}
}

func TestChunks(t *testing.T) {
	t.Parallel()
	for i, a := range chunkStrings {
		b := chunkStrings[(i+3)%len(chunkStrings)]
		for _, c := range chunkStrings {
			for _, server := range []bool{false, true} {
				checkChunks(t, a, b, c, server, false)
				checkChunks(t, a, b, c, server, true)
			}
		}
	}
}

func FuzzChunks(f *testing.F) {
	for i, s := range chunkStrings {
		f.Add(s, chunkStrings[(i+1)%len(chunkStrings)], chunkStrings[(i+5)%len(chunkStrings)], uint8(i))
	}
	f.Fuzz(func(t *testing.T, a, b, c string, mask uint8) {
		checkChunks(t, a, b, c, mask&1 != 0, mask&2 != 0)
	})
}

// refAppendPyString is appendPyString as it was, through json.Unmarshal.
func refAppendPyString(out, tok []byte) []byte {
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return append(out, tok...)
	}
	return appendPyQuoted(out, s)
}

var pyStringTokens = []string{
	`""`, `"plain"`, `"a\nb\t\"q\" \\ \/"`, `"\u00e9\u6d4b\ud83e\udd8a"`, `"\ud800 lone"`, `"\udc00"`, "\"raw é 测\"",
	"\"bad \xff\"", `"\x"`, `"\u12"`, `"ctl` + "\x01" + `"`, `"<&>'"`, `"\u0000\u001f\u007f"`,
}

func checkPyString(t *testing.T, tok []byte) {
	t.Helper()
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return // appendPyString is given string tokens only (stringEnd)
	}
	got := appendPyString([]byte("x"), tok, &pyJSONOnly)
	want := refAppendPyString([]byte("x"), tok)
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Fatalf("appendPyString(%q) (-json.Unmarshal +jsontext):\n%s", tok, diff)
	}
}

func TestAppendPyString(t *testing.T) {
	t.Parallel()
	for _, s := range pyStringTokens {
		checkPyString(t, []byte(s))
	}
}

func FuzzAppendPyString(f *testing.F) {
	for _, s := range pyStringTokens {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkPyString(t, b)
		tok, _ := json.Marshal(string(b))
		checkPyString(t, tok)
	})
}
