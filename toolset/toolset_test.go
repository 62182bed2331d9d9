package toolset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	t.Parallel()
	want := []Tool{
		{Name: "read_file", Params: []Param{{Name: "path", Type: "string"}, {Name: "start_line", Type: "integer"}}},
		{Name: "noop", Params: []Param{}},
	}
	tests := []struct{ name, in string }{
		{"anthropic", `[{"name":"read_file","description":"d","input_schema":{"type":"object","properties":{"path":{"type":"string"},"start_line":{"type":["integer","null"]}}}},{"name":"noop"}]`},
		{"openai functions", `[{"name":"read_file","parameters":{"properties":{"path":{"type":"string"},"start_line":{"type":"integer"}}}},{"name":"noop","parameters":{}}]`},
		{"openai tools", `{"tools":[{"type":"function","function":{"name":"read_file","parameters":{"properties":{"path":{"type":"string"},"start_line":{"type":"integer"}}}}},{"type":"function","function":{"name":"noop"}}]}`},
		{"mcp", `[{"name":"read_file","inputSchema":{"properties":{"path":{"type":"string"},"start_line":{"type":"integer"}}}},{"name":"noop","inputSchema":null}]`},
		{"name to schema", `{"read_file":{"properties":{"path":{"type":"string"},"start_line":{"type":"integer"}}},"noop":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{``, `[`, `[{"description":"no name"}]`, `"x"`, `{"a":{"properties":[1]}}`} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}

func TestParseFlags(t *testing.T) {
	t.Parallel()
	got, err := ParseFlags([]string{"read_file:path,start_line", "search grep;ls:"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Tool{
		{Name: "read_file", Params: []Param{{Name: "path"}, {Name: "start_line"}}},
		{Name: "search"},
		{Name: "grep"},
		{Name: "ls", Params: []Param{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"1x", "a:p,q!", "<x>"} {
		if _, err := ParseFlags([]string{bad}); err == nil {
			t.Errorf("ParseFlags(%q): no error", bad)
		}
	}
}
