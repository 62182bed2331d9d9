package render_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/render"
)

// BenchmarkAssembleJSON assembles a recording's events and writes the
// blocks as `assemble -o json` does; the bytes counted are the
// recording's. The events are the decoder's, deltas as they come (not
// merged, as converttest.Recording merges them), so that what the
// assembler spends per delta is measured.
func BenchmarkAssembleJSON(b *testing.B) {
	for _, name := range []string{
		"claude/partial-long-text.jsonl", "claude/partial-multi-tool.jsonl", "codex/multi-shell.jsonl",
		"gemini/read-file.jsonl", "xml/tooluse.sse", "aisdk/ai-7.0.173-tool-call.sse",
	} {
		b.Run(name, func(b *testing.B) {
			data, evs := decoded(b, "../testdata/"+name)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				asm := assemble.New(0)
				asm.Reuse = true // as assemble -o json
				j := render.NewJSON(io.Discard)
				for _, ev := range evs {
					blocks, err := asm.Add(ev)
					if err != nil {
						b.Fatal(err)
					}
					for _, bl := range blocks {
						if err := j.Block(bl); err != nil {
							b.Fatal(err)
						}
					}
				}
				for _, bl := range asm.Flush() {
					if err := j.Block(bl); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// decoded returns the recording at path and its events, as its decoder
// yields them.
func decoded(b *testing.B, path string) ([]byte, []event.Event) {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	f, _, err := convert.Detect(bufio.NewReader(bytes.NewReader(data)))
	if err != nil {
		b.Fatal(err)
	}
	dec := f.NewDecoder(bytes.NewReader(data), &format.Options{Source: path})
	var evs []event.Event
	for {
		ev, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return data, evs
		}
		if err != nil {
			b.Fatal(err)
		}
		evs = append(evs, ev)
	}
}
