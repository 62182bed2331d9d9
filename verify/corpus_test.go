package verify

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
)

// readAs decodes and assembles a file through the format table.
func readAs(t *testing.T, path string) Side {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	br := bufio.NewReader(fh)
	f, _, err := convert.Detect(br)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	dec := f.NewDecoder(br, &convert.Options{Source: path})
	asm := assemble.New(0)
	s := Side{Name: path, Format: f.Name, Lacks: f.Lacks}
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if errors.As(err, &perr) {
				t.Errorf("%v", err)
				continue
			}
			t.Fatal(err)
		}
		bs, err := asm.Add(ev)
		if err != nil {
			t.Fatal(err)
		}
		s.Blocks = append(s.Blocks, bs...)
	}
	s.Blocks = append(s.Blocks, asm.Flush()...)
	return s
}

// TestCorpusPairs is the acceptance: the same run as the legacy XML stream
// and as the JSON envelope, both written by the reference producer,
// verifies equal.
func TestCorpusPairs(t *testing.T) {
	t.Parallel()
	if _, ok := convert.Lookup("xml"); !ok {
		t.Skip("no xml format yet")
	}
	files, err := filepath.Glob("../testdata/xml/*.sse")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range files {
		name := filepath.Base(x)
		env := filepath.Join("../testdata/jsonenv", name)
		if strings.Count(name, ".") > 1 {
			continue // older producer generations: no meta_init, lossy escaping
		}
		if _, err := os.Stat(env); err != nil {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := Compare(readAs(t, x), readAs(t, env), nil)
			if !r.Equal {
				t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
			}
		})
	}
	if n == 0 {
		t.Error("no pairs")
	}
}
