package schemagen

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/schema")

// schemaDir is docs/schema, from this package.
const schemaDir = "../../docs/schema"

// TestSchemasUpToDate fails when a file of docs/schema is not what the Go
// types make of it (go test ./tools/schemagen -update rewrites them).
func TestSchemasUpToDate(t *testing.T) {
	t.Parallel()
	for _, f := range Files() {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			got, err := Generate(f)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(schemaDir, f.Name)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./tools/schemagen -update writes it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("%s is stale: the Go types changed (go test ./tools/schemagen -update rewrites it; review the diff)", path)
			}
		})
	}
}

// TestEverySchemaFileIsGenerated fails on a file in docs/schema that no
// Go type makes (a schema written by hand, or one whose type was removed).
func TestEverySchemaFileIsGenerated(t *testing.T) {
	t.Parallel()
	names := map[string]bool{}
	for _, f := range Files() {
		names[f.Name] = true
	}
	files, _ := filepath.Glob(filepath.Join(schemaDir, "*.schema.json"))
	for _, p := range files {
		if !names[filepath.Base(p)] {
			t.Errorf("%s: no Go type generates it (schemagen.Files)", p)
		}
	}
}

type inner struct {
	N int `json:"n"`
}

type embedded struct {
	E string `json:"e"`
}

type sample struct {
	embedded
	S      string          `json:"s"`
	O      string          `json:"o,omitempty"`
	P      *float64        `json:"p"`
	PO     *float64        `json:"po,omitempty"`
	L      []inner         `json:"l"`
	Raw    json.RawMessage `json:"raw,omitempty"`
	Skip   string          `json:"-"`
	hidden string          //lint:ignore U1000 an unexported field the schema must leave out
	Kind   string          `json:"kind"`
}

// TestGenerate checks the encoding/json rules on a sample type.
func TestGenerate(t *testing.T) {
	t.Parallel()
	b, err := Generate(File{Name: "x", Title: "x", Types: []reflect.Type{reflect.TypeFor[sample]()}, Enums: map[string][]string{"sample.kind": {"a", "b"}}})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema string                     `json:"$schema"`
		Ref    string                     `json:"$ref"`
		Defs   map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	want := `{"additionalProperties":false,"properties":{"e":{"type":"string"},"kind":{"enum":["a","b"],"type":"string"},` +
		`"l":{"anyOf":[{"items":{"$ref":"#/$defs/inner"},"type":"array"},{"type":"null"}]},"o":{"type":"string"},` +
		`"p":{"anyOf":[{"type":"number"},{"type":"null"}]},"po":{"type":"number"},` +
		`"raw":{"description":"any JSON value, as the producer wrote it"},"s":{"type":"string"}},` +
		`"required":["e","s","p","l","kind"],"type":"object"}`
	var got any
	_ = json.Unmarshal(doc.Defs["sample"], &got)
	gb, _ := json.Marshal(got)
	if doc.Schema != Draft || doc.Ref != "#/$defs/sample" || string(gb) != want {
		t.Errorf("schema of sample:\n got %s %s %s\nwant %s", doc.Schema, doc.Ref, gb, want)
	}
	type bad struct {
		M marshals `json:"m"`
	}
	if _, err := Generate(File{Types: []reflect.Type{reflect.TypeFor[bad]()}}); err == nil {
		t.Error("a field with its own MarshalJSON: no error")
	}
}

type marshals struct{}

func (marshals) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }
