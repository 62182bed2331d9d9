package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateWriteRefuses: a declaration the generator cannot write
// exactly as encoding/json does is an error, not a writer that differs.
func TestGenerateWriteRefuses(t *testing.T) {
	t.Parallel()
	const mark = "//wire:write\n"
	for _, tt := range []struct{ name, src, want string }{
		{"float", mark + "type T struct { F float64 `json:\"f\"` }", "float64 is not written"},
		{"float pointer", mark + "type T struct { F *float64 `json:\"f\"` }", "float64 is not written"},
		{"own UnmarshalJSON", mark + "type T struct { U U `json:\"u\"` }\ntype U struct{}\nfunc (*U) UnmarshalJSON([]byte) error { return nil }", "U is not written"},
		{"own MarshalJSON", mark + "type T struct { U U `json:\"u\"` }\n" + mark + "type U struct{ N int }\nfunc (U) MarshalJSON() ([]byte, error) { return nil, nil }", "U has its own MarshalJSON"},
		{"own MarshalText", mark + "type T struct{ N int }\nfunc (*T) MarshalText() ([]byte, error) { return nil, nil }", "T has its own MarshalJSON or MarshalText"},
		{"embeds a marshaler", mark + "type T struct { E; N int }\n" + mark + "type E struct{ M int }\nfunc (E) MarshalJSON() ([]byte, error) { return nil, nil }", "E has its own MarshalJSON"},
		{"embeds a text marshaler", mark + "type T struct { Name; N int }\ntype Name string\nfunc (Name) MarshalText() ([]byte, error) { return nil, nil }", "Name has its own"},
		{"map", mark + "type T struct { M map[string]string `json:\"m\"` }", "map[string]string is not written"},
		{"unmarked struct", mark + "type T struct { U U `json:\"u\"` }\ntype U struct{ N int }", "struct U is written: mark it"},
		{"other mode", mark + "type T struct { U U `json:\"u\"` }\n//wire:write nohtml\ntype U struct{ N int }", "in one package"},
		{"compact on a string", mark + "type T struct { S string `json:\"s\" wire:\"compact\"` }", "want intern=Prefix"},
		{"omitzero", mark + "type T struct { A struct{ N int `json:\"n,omitzero\"` } `json:\"a\"` }", "omitzero is not written"},
		{"not a struct", mark + "type T []string\n" + mark + "type U struct{ N int }", "T: //wire:write marks a type that is not a struct"},
		{"generic", mark + "type T[E any] struct{ N int }\n" + mark + "type U struct{ N int }", "T: //wire:write marks a type that is not a struct"},
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

// TestGenerateWriteForeign: a field of another package's type is written
// by that package's writer when it marks the type in the same mode (with
// its error when it returns one), by encoding/json when it does not mark
// it, and is an error when it marks it in the other mode.
func TestGenerateWriteForeign(t *testing.T) {
	t.Parallel()
	const p = "package p\n\nimport \"m/q\"\n\n//wire:write\ntype T struct { U q.U `json:\"u\"` }\n"
	for _, tt := range []struct{ name, q, want, err string }{
		{"same mode", "//wire:write\ntype U struct{ S string }", "b = q.AppendU(b, &v.U)\n", ""},
		{"same mode, may fail", "//wire:write\ntype U struct{ A any }", "if b, err = q.AppendU(b, &v.U); err != nil {", ""},
		{"same mode, fails in a struct", "//wire:write\ntype U struct{ V V }\n//wire:write\ntype V struct{ A any }", "if b, err = q.AppendU(b, &v.U); err != nil {", ""},
		{"not marked", "type U struct{ S string }", "jsontext.AppendMarshal(b, &v.U, true)", ""},
		{"other mode", "//wire:write nohtml\ntype U struct{ S string }", "", "q.U is written by q.AppendU in the other mode"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, src := range map[string]string{
				"go.mod": "module m\n",
				"p/p.go": p,
				"q/q.go": "package q\n\n" + tt.q + "\n\nfunc ReadU(any, *U) {}\n",
			} {
				if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			src, err := GenerateWrite(filepath.Join(dir, "p"))
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("GenerateWrite = %v, want an error with %q", err, tt.err)
			case tt.err == "" && err != nil:
				t.Errorf("GenerateWrite: %v", err)
			case tt.err == "" && !strings.Contains(string(src), tt.want):
				t.Errorf("GenerateWrite wrote\n%s\nwant it to have %q", src, tt.want)
			}
		})
	}
}

// TestGenerateWriteCycle: of two structs that write each other, both
// writers return the error one of them may meet, whichever is declared
// first.
func TestGenerateWriteCycle(t *testing.T) {
	t.Parallel()
	const src = "package p\n\n//wire:write\ntype A struct { B *B; X any }\n\n//wire:write\ntype B struct { A *A }\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := GenerateWrite(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"func AppendA(b []byte, v *A) ([]byte, error) {", "func AppendB(b []byte, v *B) ([]byte, error) {"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("GenerateWrite wrote\n%s\nwant it to have %q", out, want)
		}
	}
}
