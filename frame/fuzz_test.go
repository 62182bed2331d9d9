package frame_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/frame"
)

// chunkReader returns its input n bytes per Read.
type chunkReader struct {
	s string
	n int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	k := min(len(p), r.n, len(r.s))
	copy(p, r.s[:k])
	r.s = r.s[k:]
	return k, nil
}

// readSizes are the read sizes every framing must give the same result at.
var readSizes = []int{1, 2, 3, 5, 7, 64, 1 << 20}

// sseResults reads every message and problem of in, at read size n.
func sseResults(in string, max, n int) []string {
	s := frame.NewSSE(&chunkReader{s: in, n: n}, "in", max)
	var out []string
	for {
		m, err := s.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			var perr *event.ParseError
			out = append(out, "problem "+err.Error())
			if !errors.As(err, &perr) {
				return out
			}
			continue
		}
		out = append(out, fmt.Sprintf("message %+v", m))
	}
}

// sameAtReadSizes checks that results gives the same for in at every read
// size, with a cap from 1 to 64 bytes made of max.
func sameAtReadSizes(t *testing.T, in string, max int, results func(in string, max, n int) []string) {
	max = max%64 + 1
	if max < 1 {
		max += 64
	}
	want := results(in, max, 1<<20)
	for _, n := range readSizes {
		if diff := cmp.Diff(want, results(in, max, n)); diff != "" {
			t.Fatalf("read size %d (-whole +got):\n%s", n, diff)
		}
	}
}

func seeds(f *testing.F, glob string) {
	files, _ := filepath.Glob(glob)
	for _, name := range files {
		// The first 4 KiB: every exec reads its input at eight read
		// sizes, one byte at a time among them; whole recordings made
		// the fuzzer crawl (and stall minimising what it found).
		b, err := os.ReadFile(name)
		if err == nil {
			f.Add(string(b[:min(len(b), 4<<10)]), 0)
		}
	}
}

// FuzzSSE: frame.SSE gives the same messages and problems at any read size.
func FuzzSSE(f *testing.F) {
	f.Add("00000000000000000\n\r\n\rdata:0\r\r", 9)
	f.Add("data: 0123456789\r\rdata: 1\r\r", 8)
	f.Add("\xef\xbb\xbfid: 1\nevent: e\ndata: a\ndata: b\r\n\r\n: c\n\ndata", 0)
	seeds(f, "../testdata/*/*.sse")
	f.Fuzz(func(t *testing.T, in string, max int) { sameAtReadSizes(t, in, max, sseResults) })
}

func linesResults(in string, max, n int) []string {
	l := frame.NewLines(&chunkReader{s: in, n: n}, "in", max)
	var out []string
	for {
		b, num, off, err := l.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out = append(out, "problem "+err.Error())
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				return out
			}
			continue
		}
		out = append(out, fmt.Sprintf("%q %d %d", b, num, off))
	}
}

// FuzzLines: frame.Lines gives the same lines and problems at any read size.
func FuzzLines(f *testing.F) {
	f.Add("\xef\xbb\xbf{\"a\":1}\r\n\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nlast", 20)
	seeds(f, "../testdata/*/*.jsonl")
	f.Fuzz(func(t *testing.T, in string, max int) { sameAtReadSizes(t, in, max, linesResults) })
}

// TestSSEReadSizesCorpus: every SSE recording, whole, frames the same one
// byte per read (line by line) as in one read (where SSE.NextData takes most
// messages).
func TestSSEReadSizesCorpus(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/*/*.sse")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings: %v", err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want := sseResults(string(b), 0, 1)
		if diff := cmp.Diff(want, sseResults(string(b), 0, 1<<20)); diff != "" {
			t.Errorf("%s (-one byte per read +whole):\n%s", name, diff)
		}
	}
}
