package convert

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wireFormats are the seven wire formats, each read and written.
var wireFormats = []string{"claude", "codex", "anthropic", "xml", "jsonenv", "openai-responses", "openai-chat"}

// tinyCopies is how many times codexRuns repeats the recordings, so that
// the cost of a pipe's setup is spread over many runs.
const tinyCopies = 50

// codexRuns returns the real Codex recordings (testdata/codex, not the
// hand-written ones) concatenated tinyCopies times, each copy with its
// thread ids renumbered, and how many runs that is: one run a file, a few
// hundred bytes each, as `codex exec --json` writes them.
func codexRuns(b *testing.B) ([]byte, int) {
	files, err := filepath.Glob("../testdata/codex/*.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var in []byte
	runs := 0
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "hand-") {
			continue
		}
		t, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		in = append(in, t...)
		runs++
	}
	if runs == 0 {
		b.Fatal("no codex recordings in ../testdata/codex")
	}
	var all []byte
	for i := range tinyCopies {
		all = append(all, strings.ReplaceAll(string(in), `"thread_id":"`, fmt.Sprintf(`"thread_id":"%04x`, i))...)
	}
	return all, runs * tinyCopies
}

// BenchmarkTinyRuns converts the real Codex runs, one stream of many tiny
// runs, to every wire format and reports the cost per run (ns/run): with
// runs this small, what an encoder or decoder does once per run (a run's
// start and end, its metadata) weighs as much as what it does per byte,
// which BenchmarkPipe's one long recording does not show.
func BenchmarkTinyRuns(b *testing.B) {
	in, runs := codexRuns(b)
	for _, to := range wireFormats {
		b.Run("codex-"+to, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				runPipe(b, "codex", to, in, io.Discard)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(runs), "ns/run")
		})
	}
}
