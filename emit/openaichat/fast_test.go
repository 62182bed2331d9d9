package openaichat

import (
	"bytes"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/chatwire"
)

// tricky are texts whose JSON escaping differs between writers: quotes,
// control characters, HTML, U+2028, invalid UTF-8, a character cut at
// 64 bytes.
var tricky = []string{
	`plain`, `"q" \ / <a href="x">&amp;</a>`, "\x00\x01\b\f\n\r\t\x1f\x7f", "line\u2028sep\u2029", "bad \xff\xfe utf8 \xc3",
	"é日👩‍💻 " + string(bytes.Repeat([]byte("€"), 30)),
}

// TestFastChunks: the chunks of text, thinking and tool arguments, which
// the encoder writes without encoding/json, are the bytes encoding/json
// writes for the same wire.Chunk.
func TestFastChunks(t *testing.T) {
	t.Parallel()
	for _, s := range tricky {
		for cur, id := range []string{"c1", "é\"<"} {
			fast, slow := NewEncoder(new(bytes.Buffer), nil), NewEncoder(new(bytes.Buffer), nil)
			for _, e := range []*Encoder{fast, slow} {
				e.b.ID, e.b.Model, e.cur = id, "m<>\u2028", cur
			}
			fast.text(&event.Delta{Kind: event.Text, Text: s})
			fast.text(&event.Delta{Kind: event.Thinking, Text: s})
			fast.args(3, s)
			for _, field := range []int{0, 1} {
				for rest := s; rest != ""; {
					var p string
					p, rest = openai.Cut(rest)
					d := wire.Delta{Content: &p}
					if field == 1 {
						d = wire.Delta{ReasoningContent: &p}
					}
					slow.delta(d, nil)
				}
			}
			for rest := s; rest != ""; {
				var p string
				p, rest = openai.Cut(rest)
				slow.chunk([]wire.Choice{{Index: cur, Delta: wire.Delta{ToolCalls: []wire.ToolCallDelta{{Index: 3, Function: wire.Function{Arguments: p}}}}}}, nil)
			}
			got, want := fast.b.W.(*bytes.Buffer).String(), slow.b.W.(*bytes.Buffer).String()
			if got != want {
				t.Errorf("%q: fast chunks\n%s\nencoding/json\n%s", s, got, want)
			}
		}
	}
}
