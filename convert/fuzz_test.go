package convert_test

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
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

type detected struct {
	Format  string
	Guessed bool
	Err     string
}

func detect(t *testing.T, in string, n int) detected {
	br := bufio.NewReaderSize(&chunkReader{s: in, n: n}, 64<<10)
	f, guessed, err := convert.Detect(br)
	d := detected{Format: f.Name, Guessed: guessed}
	if err != nil {
		d.Err = err.Error()
	}
	rest, rerr := io.ReadAll(br)
	if rerr != nil || string(rest) != in {
		t.Fatalf("read size %d: Detect consumed input: %d bytes left of %d (%v)", n, len(rest), len(in), rerr)
	}
	return d
}

// FuzzDetect: Detect never panics, never consumes the input, and tells
// the same format at any read size.
func FuzzDetect(f *testing.F) {
	files, _ := filepath.Glob("../testdata/*/*")
	for _, name := range files {
		if strings.HasSuffix(name, ".md") {
			continue
		}
		if b, err := os.ReadFile(name); err == nil {
			f.Add(string(b[:min(len(b), 4096)]))
		}
	}
	f.Add("")
	f.Add("\xef\xbb\xbf\r\n: c\r\rdata: {\"type\":\"text\"}\r")
	f.Fuzz(func(t *testing.T, in string) {
		want := detect(t, in, 1<<20)
		for _, n := range []int{1, 2, 7, 4096} {
			if diff := cmp.Diff(want, detect(t, in, n)); diff != "" {
				t.Fatalf("read size %d (-whole +got):\n%s", n, diff)
			}
		}
	})
}
