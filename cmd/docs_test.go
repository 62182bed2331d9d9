package cmd

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	checkGenerated(t, dir, "../docs/cli", "*.md")
}

// manDate is the date the man pages carry: fixed, so that they are
// regenerated only when a command changes.
var manDate = time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)

// TestManPages keeps docs/man, the man pages, in step with the commands
// (make docs).
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	root := newRootCmd(&IOStreams{Getenv: func(string) string { return "" }})
	root.DisableAutoGenTag = true
	header := &doc.GenManHeader{Title: "AGENTSTREAM", Section: "1", Source: "agentstream", Manual: "agentstream manual", Date: &manDate}
	if err := doc.GenManTree(root, header, dir); err != nil {
		t.Fatal(err)
	}
	checkGenerated(t, dir, "../docs/man", "*.1")
}

// checkGenerated compares the files matching glob that a generator wrote
// in dir with those in want, or replaces want's with them under -update.
func checkGenerated(t *testing.T, dir, want, glob string) {
	t.Helper()
	if *update {
		os.RemoveAll(want)
		if err := os.MkdirAll(want, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, glob))
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
		// A checkout on Windows may have turned line ends into CRLF.
		old = bytes.ReplaceAll(old, []byte("\r\n"), []byte("\n"))
		if diff := cmp.Diff(string(old), string(got)); diff != "" {
			t.Errorf("%s is stale: run make docs (-old +new):\n%s", path, diff)
		}
	}
	existing, _ := filepath.Glob(filepath.Join(want, glob))
	if len(existing) != len(files) {
		t.Errorf("%s has %d files, the commands make %d: run make docs", want, len(existing), len(files))
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
