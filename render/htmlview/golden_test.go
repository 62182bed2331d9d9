package htmlview_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden pages")

// TestGolden keeps the pages of a few recordings under testdata/golden:
// a subagent, citations, images, an error. After a change to the view: go
// test ./render/htmlview -update, then review the diff.
func TestGolden(t *testing.T) {
	t.Parallel()
	all := recordings(t)
	for _, name := range []string{
		"claude/subagent.jsonl",
		"jsonenv/edge-citations.sse",
		"jsonenv/edge-multimodal.sse",
		"claude/tool-error.jsonl",
		"codex/shell-fail.jsonl",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := "../../testdata/" + name
			format, ok := all[path]
			if !ok {
				t.Fatalf("%s: not a recording", path)
			}
			got := renderFile(t, path, format)
			golden := filepath.Join("testdata", "golden", strings.ReplaceAll(name, "/", "-")+".html")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s (go test -update rewrites it; review the diff)", name, golden)
			}
		})
	}
}
