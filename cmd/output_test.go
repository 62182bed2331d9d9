package cmd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSizes records the size of each write it is given.
type writeSizes struct {
	sizes []int
	out   bytes.Buffer
}

func (w *writeSizes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.out.Write(p)
}

// repeatedFile writes a file of testdata file name repeated until it is
// larger than n bytes, and returns its path.
func repeatedFile(t *testing.T, name string, n int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	in := bytes.Repeat(b, n/len(b)+1)
	path := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(path, in, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFileOutputInFullBuffers runs each command that writes as it reads
// on a file of several buffers of input and checks that its output
// leaves in full buffers, the last alone shorter: a regular file never
// makes a command wait, so nothing is flushed before each read of it.
func TestFileOutputInFullBuffers(t *testing.T) {
	t.Parallel()
	in := repeatedFile(t, "codex/shell.jsonl", 4*64<<10)
	for _, tc := range []struct {
		args  []string
		short int // writes at the end that may be shorter
	}{
		{[]string{"convert", "--from", "codex", "--to", "claude", in}, 1},
		{[]string{"assemble", "-o", "json", "--from", "codex", in}, 1},
		// The run's end, then the page's.
		{[]string{"assemble", "-o", "html", "--from", "codex", in}, 2},
	} {
		t.Run(strings.Join(tc.args[:3], " "), func(t *testing.T) {
			t.Parallel()
			var out writeSizes
			if code := Run(t.Context(), tc.args, &IOStreams{Out: &out, Err: io.Discard}); code != 0 {
				t.Fatalf("exit %d", code)
			}
			if len(out.sizes) < 2+tc.short {
				t.Fatalf("%d writes, want the output to fill the buffer at least twice", len(out.sizes))
			}
			for i, n := range out.sizes[:len(out.sizes)-tc.short] {
				if n != 64<<10 {
					t.Errorf("write %d of %d: %d bytes, want a full buffer (%d)", i+1, len(out.sizes), n, 64<<10)
				}
			}
		})
	}
}

// snapshotReader is an empty stdin that keeps, at its first read, what
// the command had written to out by then.
type snapshotReader struct {
	out  *bytes.Buffer
	snap []byte
	read bool
}

func (r *snapshotReader) Read([]byte) (int, error) {
	if !r.read {
		r.read, r.snap = true, bytes.Clone(r.out.Bytes())
	}
	return 0, io.EOF
}

// TestFileThenLive converts a file and then stdin, a pipe: all of the
// file's output must have left before stdin is read, which waits.
func TestFileThenLive(t *testing.T) {
	t.Parallel()
	in := repeatedFile(t, "codex/shell.jsonl", 3*64<<10)
	var want bytes.Buffer
	if code := Run(t.Context(), []string{"convert", "--from", "codex", "--to", "claude", in}, &IOStreams{Out: &want, Err: io.Discard}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	// The result line of the file's run is written when the next input
	// starts a run (or at the end): all but it is what must come out.
	wantBefore := want.Bytes()[:bytes.LastIndexByte(want.Bytes()[:want.Len()-1], '\n')+1]

	var out bytes.Buffer
	stdin := &snapshotReader{out: &out}
	Run(t.Context(), []string{"convert", "--from", "codex", "--to", "claude", in, "-"}, &IOStreams{In: stdin, Out: &out, Err: io.Discard})
	if !stdin.read {
		t.Fatal("stdin was not read")
	}
	if !bytes.Equal(stdin.snap, wantBefore) {
		t.Errorf("before stdin was read, %d bytes of output had left, want the file's %d", len(stdin.snap), len(wantBefore))
	}
}
