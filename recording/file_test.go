package recording

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// files returns the names and contents of the files in dir.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(filepath.Join(dir, e.Name()))
			got[e.Name()] = "-> " + target
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		got[e.Name()] = string(b)
	}
	return got
}

func write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFile checks where a recording goes, in every state of the
// directory it is saved in.
func TestFile(t *testing.T) {
	t.Parallel()
	type step int
	const (
		commit     step = iota // the recording is saved
		abort                  // it failed after writing
		abortEmpty             // it failed before writing anything
	)
	tests := []struct {
		name   string
		before map[string]string
		timing bool // the recording writes a sidecar
		end    step
		want   map[string]string
	}{
		{"new", nil, false, commit, map[string]string{"run": "new"}},
		{"new, with timing", nil, true, commit, map[string]string{"run": "new", "run.timing": "t"}},
		{"replaces, and the earlier sidecar", map[string]string{"run": "old", "run.timing": "old t"}, false, commit, map[string]string{"run": "new"}},
		{"replaces both", map[string]string{"run": "old", "run.timing": "old t"}, true, commit, map[string]string{"run": "new", "run.timing": "t"}},
		{
			"failed: kept beside",
			map[string]string{"run": "old", "run.timing": "old t"},
			true, abort,
			map[string]string{"run": "old", "run.timing": "old t", "run.partial": "new", "run.partial.timing": "t"},
		},
		{"failed with nothing written: nothing kept", map[string]string{"run": "old"}, false, abortEmpty, map[string]string{"run": "old"}},
		{
			"past a killed recording's files",
			map[string]string{"run": "old", "run.partial": "killed", "run.partial-2.timing": "orphan"},
			false, abort,
			map[string]string{"run": "old", "run.partial": "killed", "run.partial-2.timing": "orphan", "run.partial-3": "new"},
		},
		{
			"past a killed recording's files, saved",
			map[string]string{"run.partial": "killed"},
			true, commit,
			map[string]string{"run.partial": "killed", "run": "new", "run.timing": "t"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, text := range tt.before {
				write(t, filepath.Join(dir, name), text)
			}
			f, err := CreateFile(filepath.Join(dir, "run"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.end != abortEmpty {
				io.WriteString(f, "new")
				if tt.timing {
					side, err := f.Timing()
					if err != nil {
						t.Fatal(err)
					}
					io.WriteString(side, "t")
				}
			}
			if tt.end == commit {
				if err := f.Commit(); err != nil {
					t.Fatal(err)
				}
			} else {
				kept, err := f.Abort()
				if err != nil {
					t.Fatal(err)
				}
				if tt.end == abortEmpty && len(kept) > 0 {
					t.Errorf("kept %q of an empty recording", kept)
				}
			}
			if diff := cmp.Diff(tt.want, files(t, dir)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}
