package wiretest

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestWireLayerImportsNothingAbove: a package under internal/wire depends
// (directly or through another) on no package of this module but event,
// internal/jsontext and internal/wire's own: the wire layer is below
// every format, the assembler and the commands.
func TestWireLayerImportsNothingAbove(t *testing.T) {
	t.Parallel()
	const module = "github.com/agentstream/agentstream/"
	root := filepath.Join("..", "..", "..") // the module's directory
	below := func(path string) bool {
		rel := strings.TrimPrefix(path, module)
		return rel == "event" || rel == "internal/jsontext" || strings.HasPrefix(rel, "internal/wire/")
	}
	checked := map[string]bool{}
	var check func(path, from string)
	check = func(path, from string) {
		if checked[path] {
			return
		}
		checked[path] = true
		pkg, err := build.ImportDir(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(path, module))), 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, module) {
				continue // the standard library, or another module
			}
			if !below(imp) {
				t.Errorf("%s imports %s (reached from %s), a package above the wire layer", path, imp, from)
				continue
			}
			check(imp, from)
		}
	}
	n := 0
	err := filepath.WalkDir("..", func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if _, err := build.ImportDir(dir, 0); err != nil {
			return nil // no Go files (but tests)
		}
		n++
		rel, err := filepath.Rel("..", dir)
		if err != nil {
			return err
		}
		path := module + "internal/wire/" + filepath.ToSlash(rel)
		check(path, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Fatalf("found %d wire packages: not looking in internal/wire", n)
	}
}
