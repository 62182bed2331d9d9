package openairesp

import (
	"bytes"
	"testing"

	"github.com/agentstream/agentstream/internal/openai"
	wire "github.com/agentstream/agentstream/internal/openai/respwire"
)

// TestFastDeltas: the delta events, which the encoder writes without
// encoding/json, are the bytes encoding/json writes for textDelta,
// summaryDelta and argsDelta.
func TestFastDeltas(t *testing.T) {
	t.Parallel()
	tricky := []string{
		`plain`, `"q" \ / <a href="x">&amp;</a>`, "\x00\x01\b\f\n\r\t\x1f\x7f", "line\u2028sep\u2029", "bad \xff\xfe utf8 \xc3",
		"é日👩‍💻 " + string(bytes.Repeat([]byte("€"), 30)),
	}
	for _, s := range tricky {
		for idx, id := range []string{"msg_1", "é\"<"} {
			fast, slow := NewEncoder(new(bytes.Buffer), nil), NewEncoder(new(bytes.Buffer), nil)
			fast.deltas(wire.EvTextDelta, id, idx, `"content_index":0,`, s, `,"logprobs":[]`)
			fast.deltas(wire.EvSummaryDelta, id, idx, `"summary_index":0,`, s, "")
			fast.argDeltas(wire.EvArgsDelta, id, idx, s)
			for rest := s; rest != ""; {
				var p string
				p, rest = openai.Cut(rest)
				slow.event(wire.EvTextDelta, textDelta{Type: wire.EvTextDelta, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, Delta: p, Logprobs: []any{}})
			}
			for rest := s; rest != ""; {
				var p string
				p, rest = openai.Cut(rest)
				slow.event(wire.EvSummaryDelta, summaryDelta{Type: wire.EvSummaryDelta, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, Delta: p})
			}
			for rest := s; rest != ""; {
				var p string
				p, rest = openai.Cut(rest)
				slow.event(wire.EvArgsDelta, argsDelta{Type: wire.EvArgsDelta, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, Delta: p})
			}
			got, want := fast.b.W.(*bytes.Buffer).String(), slow.b.W.(*bytes.Buffer).String()
			if got != want {
				t.Errorf("%q: fast events\n%s\nencoding/json\n%s", s, got, want)
			}
		}
	}
}
