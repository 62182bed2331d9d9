// Package schemagen writes the JSON Schemas (draft 2020-12) of the
// command's JSON outputs, docs/schema/*.schema.json, from the Go types
// the commands encode: `assemble -o json` (assemble.Block), `usage --json`
// (usage.Row), `verify --json` (verify.Report, verify.Runs) and `validate
// --format json` (validate.Result).
//
// The schema of a type is what encoding/json writes for it: a struct is an
// object of its exported fields under their json names (embedded structs
// promoted, "-" left out), with additionalProperties false; a field
// without omitempty is required; a pointer, slice or map field without
// omitempty may be null (encoding/json writes a nil one as null);
// json.RawMessage and interfaces are any JSON value. A type with a
// MarshalJSON method of its own is refused, since its JSON is not its
// fields. Named struct types go to $defs.
//
// The generator is this package's own, not a reflection library: the
// libraries that reflect Go types into schemas mark a nil slice or pointer
// field as never null, which encoding/json does write, and bring their
// own dependencies (YAML, ordered maps) for a few dozen lines of
// reflection. The schemas' test regenerates them and fails when the files
// are stale (go test ./tools/schemagen -update rewrites them); another
// test validates real output of every recording against them with a
// maintained validator (github.com/santhosh-tekuri/jsonschema/v6).
package schemagen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/usage"
	"github.com/agentstream/agentstream/validate"
	"github.com/agentstream/agentstream/verify"
)

// Draft is the JSON Schema dialect of every schema.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// UsageReport is what `usage --json` writes (cmd/usage.go encodes the
// same two fields).
type UsageReport struct {
	Rows  []usage.Row `json:"rows"`
	Total usage.Row   `json:"total"`
}

// ValidateReport is what `validate --format json` writes
// (validate.WriteSummary encodes the same two fields).
type ValidateReport struct {
	Valid  bool              `json:"valid"`
	Inputs []validate.Result `json:"inputs"`
}

// File is one schema file of docs/schema.
type File struct {
	Name        string // file name, NAME.schema.json
	Title       string
	Description string
	// Types are the Go types of the document: one, or several when the
	// command writes one of them (oneOf).
	Types []reflect.Type
	// Enums list the values of string fields, by "Type.json_name".
	Enums map[string][]string
}

// Files are the schemas of docs/schema, one per JSON output.
func Files() []File {
	blockTypes := []string{
		assemble.TypeMetaInit, assemble.TypeThinking, assemble.TypeText, assemble.TypeToolCall,
		assemble.TypeServerToolCall, assemble.TypeToolResult, assemble.TypeServerToolResult,
		assemble.TypeAwaitingTools, assemble.TypeMetaFiles, assemble.TypeError, assemble.TypeMetaFinal,
		assemble.TypeTurnEnd, assemble.TypeNotice, assemble.TypeFileChange, assemble.TypeTodoList,
		assemble.TypeUnknown,
	}
	return []File{
		{
			Name:  "assemble-block.schema.json",
			Title: "agentstream assemble -o json: one block",
			Description: "One line of `agentstream assemble -o json` (NDJSON: one block per line). " +
				"Which fields a block has depends on its type: docs/blocks.md.",
			Types: []reflect.Type{reflect.TypeFor[assemble.Block]()},
			Enums: map[string][]string{"Block.type": blockTypes},
		},
		{
			Name:        "usage.schema.json",
			Title:       "agentstream usage --json and agentstream sessions --json",
			Description: "The rows of `agentstream usage --json`, grouped --by day, week, month, session, model, block, agent or run, and their total; `agentstream sessions --json` writes the same, a row per session: docs/usage.md.",
			Types:       []reflect.Type{reflect.TypeFor[UsageReport]()},
			Enums: map[string][]string{
				"Row.cost_source": {usage.SourceStream, usage.SourceTable, usage.SourceMixed, usage.SourceNone},
			},
		},
		{
			Name:  "verify.schema.json",
			Title: "agentstream verify --json",
			Description: "The report of `agentstream verify --json`: one pair of runs (a Report), or several " +
				"compared pair by pair (Runs): docs/verify.md.",
			Types: []reflect.Type{reflect.TypeFor[verify.Report](), reflect.TypeFor[verify.Runs]()},
			Enums: map[string][]string{
				"Difference.kind": {verify.Changed, verify.Missing, verify.Extra, verify.Moved},
				"Skip.side":       {"a", "b"},
			},
		},
		{
			Name:        "validate.schema.json",
			Title:       "agentstream validate --format json",
			Description: "The report of `agentstream validate --format json`: every input's violations: docs/validate.md.",
			Types:       []reflect.Type{reflect.TypeFor[ValidateReport]()},
		},
	}
}

// Generate returns the schema of f, indented, with a final newline.
func Generate(f File) ([]byte, error) {
	g := &gen{defs: map[string]any{}, names: map[reflect.Type]string{}, taken: map[string]reflect.Type{}, enums: f.Enums}
	doc := map[string]any{"$schema": Draft, "title": f.Title, "description": f.Description}
	var roots []any
	for _, t := range f.Types {
		s, err := g.schema(t)
		if err != nil {
			return nil, err
		}
		roots = append(roots, s)
	}
	if len(roots) == 1 {
		doc["$ref"] = roots[0].(map[string]any)["$ref"]
	} else {
		doc["oneOf"] = roots
	}
	doc["$defs"] = g.defs
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type gen struct {
	defs  map[string]any
	names map[reflect.Type]string
	taken map[string]reflect.Type
	enums map[string][]string
}

var (
	rawMessage = reflect.TypeFor[json.RawMessage]()
	marshaler  = reflect.TypeFor[json.Marshaler]()
	timeType   = reflect.TypeFor[time.Time]()
)

// schema returns the schema of what encoding/json writes for a non-nil
// value of t.
func (g *gen) schema(t reflect.Type) (map[string]any, error) {
	if t == rawMessage {
		return map[string]any{"description": "any JSON value, as the producer wrote it"}, nil
	}
	if t == timeType {
		// time.Time's MarshalJSON writes RFC 3339 with nanoseconds.
		return map[string]any{"type": "string", "format": "date-time"}, nil
	}
	if t.Kind() == reflect.Pointer {
		return g.schema(t.Elem()) // nil is null: the field's schema says so
	}
	if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		return nil, fmt.Errorf("schemagen: %s has its own MarshalJSON: its JSON is not its fields", t)
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return map[string]any{"type": "integer"}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer", "minimum": 0}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	case reflect.Pointer:
		return g.schema(t.Elem())
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "contentEncoding": "base64"}, nil
		}
		items, err := g.schema(t.Elem())
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("schemagen: %s: only string map keys", t)
		}
		v, err := g.schema(t.Elem())
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "object", "additionalProperties": v}, nil
	case reflect.Struct:
		return g.object(t)
	}
	return nil, fmt.Errorf("schemagen: %s: %s values have no JSON form", t, t.Kind())
}

// object returns a $ref to the schema of struct t in $defs, adding it
// there the first time.
func (g *gen) object(t reflect.Type) (map[string]any, error) {
	name, ok := g.names[t]
	if !ok {
		name = t.Name()
		if other, taken := g.taken[name]; taken && other != t || name == "" {
			name = pkgName(t) + "." + t.Name()
		}
		g.names[t], g.taken[name] = name, t
		props, required := map[string]any{}, []string{}
		if err := g.fields(t, name, props, &required); err != nil {
			return nil, err
		}
		def := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			def["required"] = required
		}
		g.defs[name] = def
	}
	return map[string]any{"$ref": "#/$defs/" + name}, nil
}

func pkgName(t reflect.Type) string {
	p := t.PkgPath()
	return p[strings.LastIndex(p, "/")+1:]
}

// fields adds the JSON fields of struct t (def names it in Enums) to props
// and the required ones to required, as encoding/json promotes embedded
// structs.
func (g *gen) fields(t reflect.Type, def string, props map[string]any, required *[]string) error {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if err := g.fields(ft, def, props, required); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omitempty := strings.Contains(","+opts+",", ",omitempty,")
		s, err := g.schema(f.Type)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t, f.Name, err)
		}
		if vs, ok := g.enums[def+"."+name]; ok {
			s = map[string]any{"type": "string", "enum": vs}
		}
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			if !omitempty && f.Type != rawMessage {
				s = map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
			}
		}
		props[name] = s
		if !omitempty {
			*required = append(*required, name)
		}
	}
	return nil
}
