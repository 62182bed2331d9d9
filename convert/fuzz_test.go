package convert_test

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
)

type detected struct {
	Format  string
	Guessed bool
	Err     string
}

func detect(t *testing.T, in string, how string, r io.Reader) detected {
	br := bufio.NewReaderSize(r, 64<<10)
	f, guessed, err := convert.Detect(br)
	d := detected{Format: f.Name, Guessed: guessed}
	if err != nil {
		d.Err = err.Error()
	}
	rest, rerr := io.ReadAll(br)
	if rerr != nil || string(rest) != in {
		t.Fatalf("%s: Detect consumed input: %d bytes left of %d (%v)", how, len(rest), len(in), rerr)
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
		want := detect(t, in, "whole", strings.NewReader(in))
		for how, r := range map[string]io.Reader{
			"one byte": iotest.OneByteReader(strings.NewReader(in)),
			"half":     iotest.HalfReader(strings.NewReader(in)),
		} {
			if diff := cmp.Diff(want, detect(t, in, how, r)); diff != "" {
				t.Fatalf("%s reads (-whole +got):\n%s", how, diff)
			}
		}
	})
}
