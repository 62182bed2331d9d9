package render_test

import (
	"io"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert/converttest"
	"github.com/agentstream/agentstream/render"
)

// BenchmarkAssembleJSON assembles a recording's events and writes the
// blocks as `assemble -o json` does; the bytes counted are the
// recording's.
func BenchmarkAssembleJSON(b *testing.B) {
	for _, name := range []string{"claude/partial-long-text.jsonl", "claude/partial-multi-tool.jsonl", "codex/multi-shell.jsonl"} {
		b.Run(name, func(b *testing.B) {
			data, evs := converttest.Recording(b, "../testdata/"+name)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				asm := assemble.New(0)
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
