package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedWritersFresh regenerates every write_wire.go of the
// module (the sample package's is the golden output) and fails when one
// differs from the file checked in: run go generate ./... after changing
// a declaration or the generator.
func TestGeneratedWritersFresh(t *testing.T) {
	t.Parallel()
	n := 0
	err := filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "../../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != OutWrite {
			return nil
		}
		n++
		have, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		want, err := GenerateWrite(filepath.Dir(path))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		if !bytes.Equal(have, want) {
			t.Errorf("%s is stale: run go generate in its directory", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 4 {
		t.Fatalf("%d generated writers found, want the sample's and the formats'", n)
	}
}

// TestGenerateWriteRefuses: a declaration the generator cannot write
// exactly as encoding/json does is an error, not a writer that differs.
func TestGenerateWriteRefuses(t *testing.T) {
	t.Parallel()
	const mark = "//wire:write\n"
	for _, tt := range []struct{ name, src, want string }{
		{"float", mark + "type T struct { F float64 `json:\"f\"` }", "float64 is not written"},
		{"float pointer", mark + "type T struct { F *float64 `json:\"f\"` }", "float64 is not written"},
		{"own UnmarshalJSON", mark + "type T struct { U U `json:\"u\"` }\ntype U struct{}\nfunc (*U) UnmarshalJSON([]byte) error { return nil }", "U is not written"},
		{"map", mark + "type T struct { M map[string]string `json:\"m\"` }", "map[string]string is not read"},
		{"unmarked struct", mark + "type T struct { U U `json:\"u\"` }\ntype U struct{ N int }", "struct U is written: mark it"},
		{"other mode", mark + "type T struct { U U `json:\"u\"` }\n//wire:write nohtml\ntype U struct{ N int }", "in one package"},
		{"compact on a string", mark + "type T struct { S string `json:\"s\" wire:\"compact\"` }", "want intern=Prefix"},
		{"omitzero", mark + "type T struct { A struct{ N int `json:\"n,omitzero\"` } `json:\"a\"` }", "omitzero is not written"},
		{"nothing marked", "type T struct{ N int }", "no struct type marked"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			src := "package p\n\n" + tt.src + "\n"
			if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := GenerateWrite(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("GenerateWrite(%s) = %v, want an error with %q", tt.src, err, tt.want)
			}
		})
	}
}
