package xml_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/emit/xml"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/xmlstream"
)

func BenchmarkEncode(b *testing.B) {
	in, err := os.ReadFile("../../testdata/xml/long-text.sse")
	if err != nil {
		b.Fatal(err)
	}
	evs, _ := eventtest.EventsAndProblems(b, xmlstream.NewDecoder(bytes.NewReader(in), nil))
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		enc := xml.NewEncoder(io.Discard, nil)
		for _, ev := range evs {
			enc.Encode(ev)
		}
		enc.Close()
	}
}

// BenchmarkEncodeLargeBlock: one text block of 16 MiB in 600-byte deltas
// with escapes, then a tool call and a 1 MiB tool result: the shape of a
// long single-block recording.
func BenchmarkEncodeLargeBlock(b *testing.B) {
	chunk := strings.Repeat(`a < b & "c" \ d`+"\n", 40)[:600]
	var evs []event.Event
	n := 0
	evs = append(evs, &event.BlockStart{Kind: event.Text})
	for n < 16<<20 {
		evs = append(evs, &event.Delta{Kind: event.Text, Text: chunk})
		n += len(chunk)
	}
	evs = append(evs, &event.BlockEnd{Kind: event.Text},
		&event.ToolCall{ID: "t", Name: "Bash", Input: json.RawMessage(`{"command":"` + strings.Repeat("ls ", 1000) + `"}`)},
		&event.ToolResult{ID: "t", Content: []event.Part{{Type: "text", Text: strings.Repeat("out ]]> é\n", 100_000)}}})
	n += 1 << 20
	b.ReportAllocs()
	b.SetBytes(int64(n))
	for b.Loop() {
		enc := xml.NewEncoder(io.Discard, nil)
		for _, ev := range evs {
			enc.Encode(ev)
		}
		enc.Close()
	}
}
