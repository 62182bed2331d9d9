package source_test

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/source"
)

// TestLive: only a regular file, named or as standard input, holds all
// its data; a pipe, a FIFO, a URL and a reader that is no file may wait.
func TestLive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(file, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	tests := []struct {
		name  string
		stdin any
		want  bool
	}{
		{file, nil, false},
		{fifo, nil, true},
		{filepath.Join(dir, "missing"), nil, true},
		{"http://127.0.0.1:1/run", nil, true},
		{"-", f, false},
		{"-", pr, true},
		{"-", bytes.NewReader(nil), true},
	}
	for _, tt := range tests {
		var got bool
		switch in := tt.stdin.(type) {
		case nil:
			got = source.Live(tt.name, pr) // stdin is not read for a name
		case *os.File:
			got = source.Live(tt.name, in)
		case *bytes.Reader:
			got = source.Live(tt.name, in)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Live(%q, %T) (-want +got):\n%s", tt.name, tt.stdin, diff)
		}
	}
}
