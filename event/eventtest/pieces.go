package eventtest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// FuzzPieces adds each file to f's corpus in pieces of at most size
// bytes, cut after a unit separator sep (an SSE message's "\n\n", a
// JSON line's "\n"), so that the whole of every recording seeds the
// fuzzer in small inputs. The fuzzer minimises every input that finds
// new coverage by trying to remove each span of its bytes, quadratic in
// its length: seeds of a few KiB keep a worker minimising for the whole
// of a short run. A unit longer than size is cut at size. The fuzz
// function's other arguments, if any, are args, for every piece.
func FuzzPieces(f *testing.F, files []string, sep string, size int, args ...any) {
	f.Helper()
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range Pieces(data, sep, size) {
			f.Add(append([]any{p}, args...)...)
		}
	}
}

// Pieces cuts data into pieces of at most size bytes, each ending after
// sep where data has one within size bytes.
func Pieces(data []byte, sep string, size int) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		n := min(len(data), size)
		if n < len(data) {
			if i := bytes.LastIndex(data[:n], []byte(sep)); i > 0 {
				n = i + len(sep)
			}
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// DumpFiles is GoldenFiles for the Messages API decoders (anthropic,
// claude): each file's items as All gives them (deltas as they came),
// rendered by Dump, against testdata/<name>.golden (the name without its
// extension).
func DumpFiles(t *testing.T, files []string, update bool, newDec func(r io.Reader, source string) event.Decoder) {
	goldenFiles(t, files, "", update, func(r io.Reader, name string) []byte {
		return Dump(All(newDec(r, name)))
	})
}

// AllReads checks each file with SameReads, its items as All gives them
// (deltas as they came, not merged).
func AllReads(t *testing.T, files []string, newDec func(r io.Reader) event.Decoder) {
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			SameReads(t, data, func(r io.Reader) []Item { return All(newDec(r)) })
		})
	}
}

// RoundTrip is the body of an encoder's fuzz target: the events in
// reads from data (its problems skipped) are encoded by enc, which writes
// to out, and what it wrote must read back with back without a problem,
// but for the truncation Close reported (a block left open).
func RoundTrip(t *testing.T, data []byte, in, back func(r io.Reader) event.Decoder, enc event.Encoder, out *bytes.Buffer) {
	t.Helper()
	d := in(bytes.NewReader(data))
	for range 1 << 30 {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			continue
		}
		if err := enc.Encode(ev); err != nil {
			t.Fatalf("Encode(%T): %v", ev, err)
		}
	}
	truncated := errors.Is(enc.Close(), event.ErrTruncated)
	r := back(bytes.NewReader(out.Bytes()))
	for range 1 << 30 {
		_, err := r.Next()
		if err == io.EOF {
			return
		}
		if err != nil && !(truncated && errors.Is(err, event.ErrTruncated)) {
			t.Fatalf("reading our output: %v\ninput:\n%q\noutput:\n%s", err, data, out.Bytes())
		}
	}
}

// Lines returns the lines of the files matching pattern that start with
// prefix, prefix cut off: the data of an SSE recording's messages
// ("data: "), or every line of a JSON-lines recording (""). They seed
// the fuzz targets of one-pass readers.
func Lines(t testing.TB, pattern, prefix string) [][]byte {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings match %s: %v", pattern, err)
	}
	var lines [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range bytes.Lines(b) {
			line = bytes.TrimRight(line, "\r\n")
			if rest, ok := bytes.CutPrefix(line, []byte(prefix)); ok {
				lines = append(lines, rest)
			}
		}
	}
	return lines
}
