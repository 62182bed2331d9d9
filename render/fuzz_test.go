package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
)

// FuzzTranscript drives a transcript with event sequences decoded from the
// fuzzer's bytes (agents, blocks left open or ended twice, results without
// calls, subagents of unknown parents, ...) in every mode. Whatever the
// order, it must not panic, every line must end, and the text of every
// text delta must be in the piped text output.
func FuzzTranscript(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b"))
	f.Add([]byte("\x09\x12\x05\x0a\x10\x06\x18\x0a\x02\x22\x04\x0b"))
	f.Add([]byte("\x05\x15\x09\x19\x01\x11\x01\x02\x06\x16"))
	f.Fuzz(func(t *testing.T, data []byte) {
		agents := []string{"main", "sub", "sub2", ""}
		var evs []event.Event
		var texts []string
		for i, b := range data {
			a := agents[int(b>>4)%len(agents)]
			id := string(rune('a' + int(b>>4)%3))
			kind := event.Text
			if b&0x20 != 0 {
				kind = event.Thinking
			}
			switch b & 0x0f {
			case 0:
				evs = append(evs, &event.SessionStart{Agent: a, Model: "m", Prompt: "p"})
			case 1:
				parent := agents[(int(b>>4)+1)%len(agents)]
				evs = append(evs, &event.SessionStart{Agent: a, ParentAgent: parent, ParentToolID: id, Name: "n"})
			case 2:
				evs = append(evs, &event.BlockStart{Agent: a, Kind: kind})
			case 3, 4:
				txt := strings.Repeat("w", i%5) + "\n"[:i%2] + "x" + string(rune('0'+i%10))
				if kind == event.Text {
					texts = append(texts, strings.TrimSpace(txt))
				}
				evs = append(evs, &event.Delta{Agent: a, Kind: kind, Text: txt})
			case 5:
				evs = append(evs, &event.BlockEnd{Agent: a, Kind: kind})
			case 6:
				evs = append(evs, &event.ToolCall{Agent: a, ID: id, Name: "Bash", Input: json.RawMessage(`{"command":"ls\nx"}`)})
			case 7:
				evs = append(evs, &event.ToolResult{Agent: a, ID: id, Content: []event.Part{{Type: "text", Text: "out\nput"}}})
			case 8:
				evs = append(evs, &event.Citations{Agent: a, Items: []event.Citation{{Type: "char_location", CitedText: "c"}}})
			case 9:
				evs = append(evs, &event.Notice{Agent: a, Kind: "status", Message: "m"})
			case 10:
				evs = append(evs, &event.TurnEnd{Agent: a, MessageID: id, Usage: &event.Usage{InputTokens: 1, Has: event.HasInput}})
			case 11:
				evs = append(evs, &event.RunEnd{Agent: a, StopReason: "end_turn"})
			case 12:
				evs = append(evs, &event.Error{Agent: a, Message: "e"})
			case 13:
				evs = append(evs, &event.TodoList{Agent: a, Items: []event.TodoItem{{Text: "t", Status: "completed"}}})
			case 14:
				evs = append(evs, &event.Notice{Agent: a, Kind: "hook", Message: "h"})
			default:
				// The raw line keeps the input byte: invalid UTF-8 too.
				evs = append(evs, &event.Unknown{Agent: a, Format: "f", Raw: []byte{'{', b, '}'}})
			}
		}
		for _, o := range []Options{
			{Full: true},
			{Live: true},
			{Markdown: true},
			{Live: true, Markdown: true, NoThinking: true},
			{Agent: "main"},
			{Agent: "sub", Live: true},
			{Styles: NewStyles(true), Width: 30},
		} {
			var out bytes.Buffer
			tr := NewTranscript(&out, o)
			for _, ev := range evs {
				if err := tr.Event(ev); err != nil {
					t.Fatal(err)
				}
			}
			tr.Close()
			got := out.String()
			if !utf8.ValidString(got) {
				t.Fatalf("%+v: output is not valid UTF-8: %q", o, got)
			}
			if got != "" && !strings.HasSuffix(got, "\n") {
				t.Fatalf("%+v: output does not end its last line: %q", o, got)
			}
			if o.Full && !o.Live && !o.Markdown && o.Agent == "" {
				for _, txt := range texts {
					for _, l := range strings.Split(txt, "\n") {
						if !strings.Contains(got, l) {
							t.Fatalf("text %q missing from:\n%s", l, got)
						}
					}
				}
			}
		}
	})
}
