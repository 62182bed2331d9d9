package htmlview_test

import (
	"bytes"
	"testing"

	"github.com/agentstream/agentstream/convert/converttest"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/render/htmlview"
)

// FuzzEscaping puts arbitrary text in the fields of a run: the page never
// holds markup the writer does not make.
func FuzzEscaping(f *testing.F) {
	f.Add(evil, "javascript:alert(1)", `{"command":"<b>"}`)
	f.Add("a < b && c", "https://example.com/\"", `"x"`)
	f.Add("\x00\xff</section>", "data:image/png;base64,\"><script>", `{"todos":[{"content":"</li>","status":"completed"}]}`)
	f.Fuzz(func(t *testing.T, text, url, input string) {
		in := event.JSONText(input)
		evs := []event.Event{
			&event.SessionStart{Agent: text, Model: text, Prompt: text},
			&event.Delta{Agent: text, Kind: event.Text, Text: text},
			&event.BlockEnd{Agent: text, Kind: event.Text},
			&event.Citations{Agent: text, Items: []event.Citation{{Type: text, CitedText: text, URL: &url, Title: &text}}},
			&event.ToolCall{Agent: text, ID: text, Name: "Bash", Input: in},
			&event.ToolCall{Agent: text, ID: "x", Name: text, Input: in},
			&event.ToolCall{Agent: text, ID: "y", Name: "TodoWrite", Input: in},
			&event.ToolResult{Agent: text, ID: text, Name: text, Content: []event.Part{{Type: "text", Text: text}, {Type: "image", Source: url, MediaType: text}}},
			&event.Notice{Agent: text, Kind: text, Message: text},
			&event.Unknown{Agent: text, Format: text, Type: text, Raw: []byte(text)},
			&event.RunEnd{Agent: text, StopReason: text, Errors: []string{text}},
		}
		checkMarkup(t, page(t, evs, htmlview.Options{Title: text}))
	})
}

// BenchmarkPage writes the page of the largest recording.
func BenchmarkPage(b *testing.B) {
	name := "../../testdata/claude/partial-long-text.jsonl"
	data, evs := converttest.Recording(b, name)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		w := htmlview.New(&bytes.Buffer{}, htmlview.Options{Title: name})
		for _, ev := range evs {
			w.Event(ev)
		}
		w.Close()
	}
}
