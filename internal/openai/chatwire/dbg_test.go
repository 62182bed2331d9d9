package chatwire

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDbg(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/openai-chat/*.sse")
	var cr Reader
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, l := range strings.Split(string(b), "\n") {
			d, ok := strings.CutPrefix(l, "data: ")
			if !ok || d == "[DONE]" {
				continue
			}
			var c Chunk
			cr.data = []byte(d)
			cr.jr.Reset(cr.data)
			if !cr.read(&c) || !cr.jr.End() {
				t.Logf("%s: %.200s", filepath.Base(f), d)
			}
		}
	}
}
