package verify

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/parse/jsonenv"
)

// fuzzBlocks assembles what the envelope decoder makes of in, skipping
// problems.
func fuzzBlocks(in string) []*assemble.Block {
	dec := jsonenv.NewDecoder(strings.NewReader(in), nil)
	asm := assemble.New(0)
	var out []*assemble.Block
	for i := 0; i < 1<<16; i++ {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			continue
		}
		bs, _ := asm.Add(ev)
		out = append(out, bs...)
	}
	return append(out, asm.Flush()...)
}

// FuzzCompare: a stream equals itself, and comparing two never panics.
func FuzzCompare(f *testing.F) {
	files, _ := filepath.Glob("../testdata/jsonenv/hand-*.sse")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), string(b[:len(b)/2]))
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		sa := Side{Format: "jsonenv", Blocks: fuzzBlocks(a)}
		sb := Side{Format: "jsonenv", Blocks: fuzzBlocks(b)}
		if r := Compare(sa, sa, nil); !r.Equal {
			t.Fatalf("a stream differs from itself:\n%s", strings.Join(lines(r), "\n"))
		}
		Compare(sa, sb, &Options{Ignore: []string{IgnoreWhitespace}, Usage: true})
	})
}
