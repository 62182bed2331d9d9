package jsontext

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusFiles are the recordings of the repository's testdata whose
// JSON texts corpusLines returns.
var corpusFiles = []string{
	"claude/partial-long-text.jsonl", "claude/partial-multi-tool.jsonl", "claude/partial-unicode.jsonl",
	"codex/multi-shell.jsonl", "codex/unicode.jsonl", "jsonenv/long-text.sse",
}

// corpusLines returns the JSON texts of corpusFiles: the lines of the
// .jsonl files and the data of the .sse files.
func corpusLines(tb testing.TB) [][]byte {
	var files []string
	for _, f := range corpusFiles {
		files = append(files, filepath.Join("..", "..", "testdata", f))
	}
	var lines [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for line := range bytes.Lines(b) {
			line = bytes.TrimSpace(line)
			if strings.HasSuffix(f, ".sse") {
				var ok bool
				if line, ok = bytes.CutPrefix(line, []byte("data: ")); !ok || string(line) == "[DONE]" {
					continue
				}
			}
			if len(line) > 0 {
				lines = append(lines, line)
			}
		}
	}
	return lines
}

// visit reads any value as the decoders do, keeping nothing: keys with
// KeyFold, strings with Str, numbers with Float.
func visit(r *Reader) {
	switch r.Peek() {
	case '{':
		r.Object()
		for _, ok := r.KeyFold(); ok; _, ok = r.KeyFold() {
			visit(r)
		}
	case '[':
		r.Array()
		for r.More() {
			visit(r)
		}
	case '"':
		r.Str()
	case 'n':
		r.Null()
	case 't', 'f':
		r.Bool()
	default:
		r.Float()
	}
}

// TestCorpusRead: the corpus the benchmarks read is read whole, with no
// failure, by Reset and ResetValid alike, and Skip takes each line whole.
func TestCorpusRead(t *testing.T) {
	t.Parallel()
	for _, line := range corpusLines(t) {
		want := read(line, false)
		if !want.End || want.Failed {
			t.Fatalf("%s: not read whole: %+v", line, want)
		}
		checkSkip(t, line)
	}
}

func benchLines(b *testing.B, f func(r *Reader, line []byte)) {
	lines := corpusLines(b)
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	var r Reader
	for b.Loop() {
		for _, l := range lines {
			f(&r, l)
		}
	}
}

func BenchmarkReader(b *testing.B) {
	b.Run("Read", func(b *testing.B) {
		benchLines(b, func(r *Reader, line []byte) {
			r.Reset(line)
			visit(r)
			if !r.End() {
				b.Fatalf("%s: failed", line)
			}
		})
	})
	b.Run("ReadValid", func(b *testing.B) {
		benchLines(b, func(r *Reader, line []byte) {
			r.ResetValid(line)
			visit(r)
			if !r.End() {
				b.Fatalf("%s: failed", line)
			}
		})
	})
	b.Run("Skip", func(b *testing.B) {
		benchLines(b, func(r *Reader, line []byte) {
			r.Reset(line)
			r.Skip()
			if !r.End() {
				b.Fatalf("%s: failed", line)
			}
		})
	})
}

// BenchmarkAppendString writes every string of the corpus, as the
// encoders do.
func BenchmarkAppendString(b *testing.B) {
	strs, n := corpusStrings(b, func(string) bool { return true })
	b.SetBytes(int64(n))
	b.ReportAllocs()
	buf := make([]byte, 0, 1<<16)
	for b.Loop() {
		for _, s := range strs {
			buf = AppendString(buf[:0], s)
		}
	}
}

// BenchmarkAppendMarshalStringDense writes the strings of the corpus
// that are at least a quarter non-ASCII bytes (codex's and the unicode
// recordings' texts, where ASCII and other characters alternate), as the
// Streamer-based encoders do.
func BenchmarkAppendMarshalStringDense(b *testing.B) {
	strs, n := corpusStrings(b, func(s string) bool { return len(s) > 16 && 4*(len(s)-asciiLen(s)) >= len(s) })
	if n == 0 {
		b.Fatal("no string dense in non-ASCII in the corpus")
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	buf := make([]byte, 0, 1<<16)
	for b.Loop() {
		for _, s := range strs {
			buf = AppendMarshalString(buf[:0], s)
		}
	}
}

// corpusStrings returns the strings of the corpus that keep accepts, and
// their total length.
func corpusStrings(b *testing.B, keep func(string) bool) (strs []string, n int) {
	var collect func(r *Reader)
	collect = func(r *Reader) {
		switch r.Peek() {
		case '{':
			r.Object()
			for _, ok := r.KeyFold(); ok; _, ok = r.KeyFold() {
				collect(r)
			}
		case '[':
			r.Array()
			for r.More() {
				collect(r)
			}
		case '"':
			if s := r.String(); keep(s) {
				strs = append(strs, s)
				n += len(s)
			}
		default:
			r.Skip()
		}
	}
	var r Reader
	for _, line := range corpusLines(b) {
		r.Reset(line)
		collect(&r)
	}
	return strs, n
}

// asciiLen returns how many bytes of s are ASCII.
func asciiLen(s string) int {
	n := 0
	for i := range len(s) {
		if s[i] < 0x80 {
			n++
		}
	}
	return n
}
