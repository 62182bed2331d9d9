package cmd

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra/doc"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files and docs/cli")

// TestCLIDocs keeps docs/cli, the generated CLI reference, in step with
// the commands: run `make docs` (go test ./cmd -run TestCLIDocs -update)
// after changing a command or flag.
func TestCLIDocs(t *testing.T) {
	dir := t.TempDir()
	root := newRootCmd(&IOStreams{Getenv: func(string) string { return "" }})
	root.DisableAutoGenTag = true
	if err := doc.GenMarkdownTree(root, dir); err != nil {
		t.Fatal(err)
	}
	want := "../docs/cli"
	if *update {
		os.RemoveAll(want)
		if err := os.MkdirAll(want, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	for _, f := range files {
		got, _ := os.ReadFile(f)
		path := filepath.Join(want, filepath.Base(f))
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s is missing: run make docs", path)
			continue
		}
		if diff := cmp.Diff(string(old), string(got)); diff != "" {
			t.Errorf("%s is stale: run make docs (-old +new):\n%s", path, diff)
		}
	}
	existing, _ := filepath.Glob(filepath.Join(want, "*.md"))
	if len(existing) != len(files) {
		t.Errorf("docs/cli has %d files, the commands make %d: run make docs", len(existing), len(files))
	}
}

// TestREADMECommands runs the shell commands of the README's first code
// block from the repository root and checks they succeed.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```sh\n")
	if !ok {
		t.Fatal("README has no sh code block")
	}
	block, _, _ := strings.Cut(rest, "```")
	first := strings.TrimSpace(strings.SplitN(block, "#", 2)[0])
	if !strings.HasPrefix(first, "go run . assemble ") {
		t.Fatalf("README's first command is %q, want the sample assemble", first)
	}
	args := strings.Fields(first)
	cmd := exec.Command("go", args[1:]...)
	cmd.Dir = ".."
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", first, err, out.String())
	}
	if !strings.Contains(out.String(), "→ Bash") {
		t.Errorf("%s printed no tool call:\n%s", first, out.String())
	}
}
