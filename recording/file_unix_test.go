//go:build unix

package recording

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFileSymlinkAndMode: a recording saved over a symbolic link is saved
// where it points, and takes the permissions of the file it replaces.
func TestFileSymlinkAndMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "target"), "old")
	if err := os.Chmod(filepath.Join(dir, "target"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", filepath.Join(dir, "run")); err != nil {
		t.Fatal(err)
	}
	f, err := CreateFile(filepath.Join(dir, "run"), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "new")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"run": "-> target", "target": "new"}
	if diff := cmp.Diff(want, files(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	st, err := os.Stat(filepath.Join(dir, "target"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want the replaced file's -rw-------", st.Mode(), err)
	}
}
