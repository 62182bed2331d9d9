package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesFresh regenerates every read_wire.go and
// write_wire.go of the module (the sample package's are the generators'
// golden output) and fails when one differs from the file checked in:
// run go generate ./... after changing a declaration or the generator.
func TestGeneratedFilesFresh(t *testing.T) {
	t.Parallel()
	generate := map[string]func(string) ([]byte, error){Out: Generate, OutWrite: GenerateWrite}
	found := map[string]int{}
	err := filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "../../.." {
			return filepath.SkipDir
		}
		gen := generate[d.Name()]
		if d.IsDir() || gen == nil {
			return nil
		}
		found[d.Name()]++
		have, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		want, err := gen(filepath.Dir(path))
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
	// The sample's and the formats'.
	if found[Out] < 2 || found[OutWrite] < 2 {
		t.Fatalf("generated files found: %v, want the sample's and the formats' of each generator", found)
	}
}

// TestGenerateRefuses: a declaration the generator cannot read exactly
// as encoding/json does is an error, not a reader that differs.
func TestGenerateRefuses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, src, want string }{
		{"map of int keys", "type T struct { M map[int]string `json:\"m\"` }", "map[int]string is not read"},
		{"map of uint", "type T struct { M map[string]uint `json:\"m\"` }", "uint is not read"},
		{"also exported", "type U struct{ N int }\ntype T struct { S string; X U `wire:\"also\"` }", "T.X: wire tag \"also\""},
		{"also on a string", "type T struct { S string; x string `wire:\"also\"` }", "wire tag \"also\" on string"},
		{"also folds a key", "type U struct{ N int `json:\"Key\"` }\ntype T struct { K string `json:\"key\"`; u U `wire:\"also\"` }", "key \"Key\" of U"},
		{"also of another type", "type U struct{ N int `json:\"key\"` }\ntype T struct { K string `json:\"key\"`; u U `wire:\"also\"` }", "key \"key\" of U"},
		{"bytes", "type T struct { B []byte `json:\"b\"` }", "[]byte is not read"},
		{"uint", "type T struct { U uint `json:\"u\"` }", "uint is not read"},
		{"float32", "type T struct { F float32 `json:\"f\"` }", "float32 is not read"},
		{"pointer to slice", "type T struct { P *[]string `json:\"p\"` }", "*[]string is not read"},
		{"other package", "type T struct { D time.Duration `json:\"d\"` }", "time.Duration is not read"},
		{"string option", "type T struct { N int64 `json:\"n,string\"` }", "option string"},
		{"key encoding/json ignores", "type T struct { N int64 `json:\"a\\\\b\"` }", `json key "a\\b"`},
		{"unexported embedded struct with a key", "type e struct{ N int }\ntype T struct { e `json:\"e\"` }", "embedded e with a json key"},
		{"own UnmarshalText", "type T struct{ N int }\nfunc (*T) UnmarshalText([]byte) error { return nil }", "T has its own UnmarshalJSON or UnmarshalText"},
		{"embeds an UnmarshalJSON", "type W []string\nfunc (*W) UnmarshalJSON([]byte) error { return nil }\ntype T struct { W; N int }", "T: W has its own UnmarshalJSON"},
		{"embeds an UnmarshalText", "type E struct{ M int }\nfunc (E) UnmarshalText([]byte) error { return nil }\ntype T struct { E; N int }", "E has its own UnmarshalJSON or UnmarshalText"},
		{"embedded pointer", "type E struct{}\ntype T struct { *E }", "embedded *E"},
		{"wire tag on int", "type T struct { N int64 `json:\"n\" wire:\"intern=Type\"` }", "want intern=Prefix"},
		{"buf on a string", "type T struct { S string `json:\"s\" wire:\"buf=b\"`; b string }", "want intern=Prefix"},
		{"unknown wire tag", "type T struct { S string `json:\"s\" wire:\"fast\"` }", "want intern=Prefix"},
		{"parse on a string", "type U struct{ N int }\ntype T struct { S string `json:\"s\" wire:\"parse=p\"`; p *U }", "T.S: wire tag \"parse=p\""},
		{"parse to an exported field", "type U struct{ N int }\ntype T struct { R json.RawMessage `json:\"r\" wire:\"parse=P\"`; P *U }", "T.R: wire tag \"parse=P\""},
		{"parse to a struct", "type U struct{ N int }\ntype T struct { R json.RawMessage `json:\"r\" wire:\"parse=p\"`; p U }", "T.R: wire tag \"parse=p\""},
		{"parse to a struct with no reader", "type u struct{ n int }\ntype T struct { R json.RawMessage `json:\"r\" wire:\"parse=p\"`; p *u }", "T.R: wire tag \"parse=p\""},
		{"parse to no field", "type T struct { R json.RawMessage `json:\"r\" wire:\"parse=p\"` }", "T.R: wire tag \"parse=p\""},
		{"parse to an UnmarshalJSON", "type U struct{ N int }\nfunc (*U) UnmarshalJSON([]byte) error { return nil }\ntype T struct { R json.RawMessage `json:\"r\" wire:\"parse=p\"`; p *U }", "T.R: wire tag \"parse=p\""},
		{"keep on an int", "type T struct { N int `json:\"n\" wire:\"keep=k\"`; k jsontext.KeptInt }", "T.N: wire tag \"keep=k\""},
		{"keep to a field of another type", "type T struct { S string `json:\"s\" wire:\"keep=k\"`; k *string }", "T.S: wire tag \"keep=k\""},
		{"keep to an exported field", "type T struct { S string `json:\"s\" wire:\"keep=K\"`; K string }", "T.S: wire tag \"keep=K\""},
		{"buf on a slice of another type", "type T struct { S []string `json:\"s\" wire:\"buf=b\"`; b []int64 }", "T.S: wire tag \"buf=b\""},
		{"whole beside UnmarshalText", "type T struct{ N int; Raw json.RawMessage `json:\"-\" wire:\"whole\"` }\nfunc (*T) UnmarshalText([]byte) error { return nil }", "T has its own UnmarshalJSON or UnmarshalText"},
		{"has with no set", "type T struct { N int64 `json:\"n\" wire:\"has=c\"` }\nconst c = 1", "T.N: wire tag \"has=c\""},
		{"has with no UnmarshalJSON", "type T struct { N int64 `json:\"n\" wire:\"has=c\"`; H int `json:\"-\" wire:\"has\"` }\nconst c = 1", "T.N: wire tag \"has=c\""},
		{"has on a pointer", "type T struct { N *int64 `json:\"n\" wire:\"has=c\"`; H int `json:\"-\" wire:\"has\"` }\nconst c = 1\nfunc (*T) UnmarshalJSON([]byte) error { return nil }", "T.N: wire tag \"has=c\""},
		{"has of no constant", "type T struct { N int64 `json:\"n\" wire:\"has=x.C\"`; H int `json:\"-\" wire:\"has\"` }\nfunc (*T) UnmarshalJSON([]byte) error { return nil }", "T.N: wire tag \"has=x.C\""},
		{"no structs", "const C = 1", "no struct types"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			src := "package p\n\nimport (\n\t\"encoding/json\"\n\t\"time\"\n)\n\nvar (\n\t_ time.Duration\n\t_ json.RawMessage\n)\n\n" + tt.src + "\n"
			if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Generate(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Generate(%s) = %v, want an error with %q", tt.src, err, tt.want)
			}
		})
	}
}

// TestGenerateCallsReaders: a field of another package's type is read by
// that package's ReadT, and a type with its own UnmarshalJSON by the
// package's readT when it declares one; a struct with no field encoding/json
// fills gets no reader.
func TestGenerateCallsReaders(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n",
		"q/q.go": "package q\n\ntype E struct{ N int `json:\"n\"` }\n\nfunc ReadE(r any, v *E) {}\n",
		"p/p.go": "package p\n\nimport \"example.com/m/q\"\n\n" +
			"type U struct{ S string }\n\nfunc (u *U) UnmarshalJSON(b []byte) error { return nil }\n\n" +
			"func readU(r any, v *U) {}\n\ntype state struct{ n int }\n\n" +
			"type T struct {\n\tE *q.E `json:\"e\"`\n\tF q.E `json:\"f\"`\n\tU U `json:\"u\"`\n}\n",
	}
	for name, src := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := Generate(filepath.Join(root, "p"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"example.com/m/q"`, "q.ReadE(r, jsontext.Ensure(&v.E))", "q.ReadE(r, &v.F)", "readU(r, &v.U)"} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("the generated source has no %s:\n%s", want, src)
		}
	}
	if bytes.Contains(src, []byte("readState")) {
		t.Errorf("a reader for a struct with no exported field:\n%s", src)
	}
}
