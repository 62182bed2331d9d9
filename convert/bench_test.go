package convert

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/agentstream/agentstream/format"
)

// pipeFormats are the five wire formats every pair of which converts.
var pipeFormats = []string{"jsonenv", "xml", "claude", "anthropic", "codex"}

// pipeInputs returns a long recording in each wire format: the Claude
// partial-long-text recording, and its conversion to the other formats.
func pipeInputs(b *testing.B) map[string][]byte {
	claude, err := os.ReadFile("../testdata/claude/partial-long-text.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	inputs := map[string][]byte{"claude": claude}
	for _, to := range pipeFormats {
		if to == "claude" {
			continue
		}
		var out bytes.Buffer
		runPipe(b, "claude", to, claude, &out)
		inputs[to] = out.Bytes()
	}
	return inputs
}

// runPipe converts in from one format to another as the convert command
// does: buffered output, flushed when the input has nothing buffered.
func runPipe(b *testing.B, from, to string, in []byte, out io.Writer) {
	f, _ := Lookup(from)
	t, _ := Lookup(to)
	w := bufio.NewWriterSize(out, 64<<10)
	enc := t.NewEncoder(w, &format.Options{})
	dec := f.NewDecoder(bufio.NewReaderSize(FlushOnIdle(bytes.NewReader(in), w.Flush), 64<<10), &format.Options{})
	if err := Pipe(dec, enc, &PipeOptions{Problem: func(error) bool { return true }}); err != nil {
		b.Fatal(err)
	}
	enc.Close()
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPipe converts a long recording between every pair of wire
// formats; compare runs with benchstat.
func BenchmarkPipe(b *testing.B) {
	inputs := pipeInputs(b)
	for _, from := range pipeFormats {
		for _, to := range pipeFormats {
			in := inputs[from]
			b.Run(from+"-"+to, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					runPipe(b, from, to, in, io.Discard)
				}
			})
		}
	}
}
