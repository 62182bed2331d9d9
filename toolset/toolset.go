package toolset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Tool is one tool a model may call.
type Tool struct {
	Name   string
	Params []Param // nil: parameters not declared (any name is accepted)
}

// Param is one declared parameter.
type Param struct {
	Name string
	Type string // JSON Schema type: string, integer, number, boolean, array, object; "" unknown
}

// Param returns the declared parameter named name.
func (t Tool) Param(name string) (Param, bool) {
	for _, p := range t.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// LoadFile reads a tools file.
func LoadFile(name string) ([]Tool, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	tools, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return tools, nil
}

// Parse reads tool definitions in any of the shapes of the package
// documentation.
func Parse(b []byte) ([]Tool, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, errors.New("empty tools file")
	}
	if b[0] == '[' {
		var defs []json.RawMessage
		if err := json.Unmarshal(b, &defs); err != nil {
			return nil, err
		}
		return parseDefs(defs)
	}
	var wrapper struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(b, &wrapper); err != nil {
		return nil, err
	}
	if wrapper.Tools != nil {
		return parseDefs(wrapper.Tools)
	}
	// name -> schema, in file order
	var tools []Tool
	err := eachKey(b, func(name string, schema json.RawMessage) error {
		params, err := schemaParams(schema)
		if err != nil {
			return fmt.Errorf("tool %s: %w", name, err)
		}
		tools = append(tools, Tool{Name: name, Params: params})
		return nil
	})
	return tools, err
}

func parseDefs(defs []json.RawMessage) ([]Tool, error) {
	tools := make([]Tool, 0, len(defs))
	for i, d := range defs {
		var def struct {
			Type        string          `json:"type"`
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
			MCPSchema   json.RawMessage `json:"inputSchema"`
			Parameters  json.RawMessage `json:"parameters"`
			Function    json.RawMessage `json:"function"`
		}
		if err := json.Unmarshal(d, &def); err != nil {
			return nil, fmt.Errorf("tool %d: %w", i, err)
		}
		if def.Function != nil {
			if err := json.Unmarshal(def.Function, &def); err != nil {
				return nil, fmt.Errorf("tool %d: %w", i, err)
			}
		}
		if def.Name == "" {
			return nil, fmt.Errorf("tool %d has no name", i)
		}
		schema := def.InputSchema
		if schema == nil {
			schema = def.MCPSchema
		}
		if schema == nil {
			schema = def.Parameters
		}
		params, err := schemaParams(schema)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", def.Name, err)
		}
		tools = append(tools, Tool{Name: def.Name, Params: params})
	}
	return tools, nil
}

// schemaParams returns the properties of an object schema, in order. A
// missing schema declares no parameters ([]Param{}, not nil).
func schemaParams(schema json.RawMessage) ([]Param, error) {
	params := []Param{}
	if len(schema) == 0 || string(schema) == "null" {
		return params, nil
	}
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	if s.Properties == nil {
		return params, nil
	}
	err := eachKey(s.Properties, func(name string, prop json.RawMessage) error {
		var p struct {
			Type json.RawMessage `json:"type"`
		}
		_ = json.Unmarshal(prop, &p)
		var typ string
		if json.Unmarshal(p.Type, &typ) != nil {
			var types []string // ["integer", "null"]
			_ = json.Unmarshal(p.Type, &types)
			for _, t := range types {
				if t != "null" {
					typ = t
					break
				}
			}
		}
		params = append(params, Param{Name: name, Type: typ})
		return nil
	})
	return params, err
}

// eachKey calls f for the members of the JSON object b, in order.
func eachKey(b []byte, f func(string, json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return errors.New("want a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if err := f(t.(string), v); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// ParseFlags reads tools given on the command line: "name" (parameters
// not declared) or "name:p1,p2". A flag value may also hold several tools
// separated by spaces or semicolons.
func ParseFlags(specs []string) ([]Tool, error) {
	var tools []Tool
	for _, spec := range specs {
		for _, f := range strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ';' }) {
			name, params, hasParams := strings.Cut(f, ":")
			if !ValidName(name) {
				return nil, fmt.Errorf("invalid tool name %q", name)
			}
			t := Tool{Name: name}
			if hasParams {
				t.Params = []Param{}
				for _, p := range strings.Split(params, ",") {
					if p == "" {
						continue
					}
					if !ValidName(p) {
						return nil, fmt.Errorf("tool %s: invalid parameter name %q", name, p)
					}
					t.Params = append(t.Params, Param{Name: p})
				}
			}
			tools = append(tools, t)
		}
	}
	return tools, nil
}

// ValidName reports whether s can be a tag name: a letter or underscore,
// then letters, digits, '_', '-' or '.'.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && (c == '-' || c == '.' || '0' <= c && c <= '9'):
		default:
			return false
		}
	}
	return true
}

// IsNameByte reports whether c may appear in a tag name after its first
// byte.
func IsNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// Load returns the tools of file (when not "") and then those of names
// (--tool flags). It returns nil when both are empty: each format then has
// its default (Cline's tool set for inlinexml, any tool for xmltools).
func Load(file string, names []string) ([]Tool, error) {
	var tools []Tool
	if file != "" {
		t, err := LoadFile(file)
		if err != nil {
			return nil, err
		}
		tools = append(tools, t...)
	}
	if len(names) > 0 {
		t, err := ParseFlags(names)
		if err != nil {
			return nil, err
		}
		tools = append(tools, t...)
	}
	return tools, nil
}
