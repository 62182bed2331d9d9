package serve

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ptr[T any](v T) *T { return &v }

// TestMatch plays a sequence of requests against fixtures and checks
// which fixture answers each, and the call number Match gives.
func TestMatch(t *testing.T) {
	t.Parallel()
	chat := func(msg string) Request {
		return Request{Method: "POST", Path: "/chat", UserMessage: msg, HasUserMessage: true}
	}
	type answer struct{ Fixture, Call int }
	tests := []struct {
		name     string
		fixtures []Fixture
		reqs     []Request
		want     []answer
	}{
		{
			"no conditions: every request",
			[]Fixture{{Recording: "a"}},
			[]Request{{Method: "GET", Path: "/"}, chat("x"), {Method: "DELETE", Path: "/y"}},
			[]answer{{0, 1}, {0, 1}, {0, 1}},
		},
		{
			"method and path",
			[]Fixture{{Match: Match{Method: "post", Path: "/chat"}, Recording: "a"}, {Match: Match{Method: "GET"}, Recording: "b"}},
			[]Request{chat("x"), {Method: "GET", Path: "/chat"}, {Method: "POST", Path: "/chat/"}, {Method: "POST", Path: "/other"}},
			[]answer{{0, 1}, {1, 1}, {-1, 1}, {-1, 1}},
		},
		{
			"user message substring and regexp, first match wins",
			[]Fixture{
				{Match: Match{UserMessage: ptr("weather")}, Recording: "w"},
				{Match: Match{UserMessageRegexp: `^(hi|hello)$`}, Recording: "h"},
				{Match: Match{UserMessage: ptr("")}, Recording: "any message"},
			},
			[]Request{chat("the weather in Paris"), chat("hi"), chat("hi there"), chat("hello weather"), {Method: "GET", Path: "/chat"}},
			[]answer{{0, 1}, {1, 1}, {2, 1}, {0, 1}, {-1, 1}},
		},
		{
			"call counts the requests that meet the other conditions",
			[]Fixture{
				{Match: Match{UserMessage: ptr("hi"), Call: ptr(1)}, Recording: "first"},
				{Match: Match{UserMessage: ptr("hi"), Call: ptr(2)}, Recording: "second"},
				{Match: Match{UserMessage: ptr("hi"), Call: ptr(4)}, Recording: "fourth"},
			},
			[]Request{chat("hi"), chat("other"), chat("hi"), chat("hi"), chat("hi"), chat("hi")},
			[]answer{{0, 1}, {-1, 1}, {1, 2}, {-1, 3}, {2, 4}, {-1, 5}},
		},
		{
			"a fixture's count does not depend on the fixtures before it",
			[]Fixture{
				{Match: Match{Path: "/a"}, Recording: "a"},
				{Match: Match{Call: ptr(2)}, Recording: "second request of all"},
			},
			[]Request{{Method: "GET", Path: "/a"}, {Method: "GET", Path: "/b"}, {Method: "GET", Path: "/b"}},
			[]answer{{0, 1}, {1, 1}, {-1, 2}},
		},
		{
			"a substring condition counts differing messages together",
			[]Fixture{{Match: Match{UserMessage: ptr("weather"), Call: ptr(2)}, Recording: "w2"}},
			[]Request{chat("weather in Paris"), chat("weather in Rome")},
			[]answer{{-1, 1}, {0, 1}},
		},
		{
			"no user message is not an empty one",
			[]Fixture{{Match: Match{UserMessage: ptr("")}, Recording: "a"}},
			[]Request{{Method: "POST", Path: "/chat"}, chat("")},
			[]answer{{-1, 1}, {0, 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := NewMatcher(tt.fixtures)
			var got []answer
			for _, r := range tt.reqs {
				i, call := m.Match(r)
				got = append(got, answer{i, call})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMatchAskedBounded: the call numbers of distinct requests are
// counted for maxAsked of them; later new ones get 0, known ones go on.
func TestMatchAskedBounded(t *testing.T) {
	t.Parallel()
	m := NewMatcher(nil)
	for i := range maxAsked {
		if _, call := m.Match(Request{Path: "/" + strings.Repeat("x", i)}); call != 1 {
			t.Fatalf("request %d: call %d, want 1", i, call)
		}
	}
	if _, call := m.Match(Request{Path: "/new"}); call != 0 {
		t.Errorf("a new request past the cap: call %d, want 0", call)
	}
	if _, call := m.Match(Request{Path: "/"}); call != 2 {
		t.Errorf("a known request past the cap: call %d, want 2", call)
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       *File
		wantErr    string
	}{
		{
			"ok", `{"fixtures":[{"match":{"method":"POST","path":"/chat","userMessage":"hi","userMessageRegexp":"h.","call":2},"recording":"a.sse","to":"jsonenv","framing":"ndjson","timing":"none"}]}`,
			&File{Fixtures: []Fixture{{
				Match:     Match{Method: "POST", Path: "/chat", UserMessage: ptr("hi"), UserMessageRegexp: "h.", Call: ptr(2)},
				Recording: "a.sse", To: "jsonenv", Framing: "ndjson", Timing: "none",
			}}}, "",
		},
		{"empty list", `{"fixtures":[]}`, &File{Fixtures: []Fixture{}}, ""},
		{"empty file", ``, nil, "f.json:1:1: empty file"},
		{"syntax error", "{\"fixtures\":[\n  {\"recording\": }]}", nil, "f.json:2:17: invalid character '}' looking for beginning of value"},
		{"wrong type", "{\"fixtures\":[{\"recording\":1}]}", nil, "f.json:1:27: json: cannot unmarshal number into Go struct field Fixture.fixtures.recording of type string"},
		{"misspelt field", `{"fixtures":[{"match":{"userMesage":"hi"},"recording":"a"}]}`, nil, `json: unknown field "userMesage"`},
		{"no list", `{}`, nil, `f.json: no "fixtures" list`},
		{"two objects", `{"fixtures":[]} {}`, nil, "more after the fixtures object"},
		{"no recording", `{"fixtures":[{"match":{}}]}`, nil, "f.json: fixture 1: no recording"},
		{"bad path", `{"fixtures":[{"recording":"a"},{"match":{"path":"chat"},"recording":"a"}]}`, nil, `f.json: fixture 2: path "chat" does not start with /`},
		{"call 0", `{"fixtures":[{"match":{"call":0},"recording":"a"}]}`, nil, "call 0: calls count from 1"},
		{"bad regexp", `{"fixtures":[{"match":{"userMessageRegexp":"("},"recording":"a"}]}`, nil, "userMessageRegexp: error parsing regexp"},
		{"bad timing", `{"fixtures":[{"recording":"a","timing":"fast"}]}`, nil, `timing "fast": recorded or none`},
		{"bad framing", `{"fixtures":[{"recording":"a","to":"jsonenv","framing":"xml"}]}`, nil, `framing "xml": sse or ndjson`},
		{"framing without to", `{"fixtures":[{"recording":"a","framing":"sse"}]}`, nil, "framing applies with to"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse("f.json", []byte(tt.text))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("file (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSchema checks that fixtures.schema.json describes the fields the
// fixtures file has, no more and no fewer.
func TestSchema(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("fixtures.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]any `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		typ   reflect.Type
		props map[string]any
	}{
		{reflect.TypeFor[File](), schema.Properties},
		{reflect.TypeFor[Fixture](), schema.Defs["fixture"].Properties},
		{reflect.TypeFor[Match](), schema.Defs["match"].Properties},
	} {
		var fields, props []string
		for f := range c.typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			fields = append(fields, name)
		}
		for p := range c.props {
			props = append(props, p)
		}
		slices.Sort(fields)
		slices.Sort(props)
		if diff := cmp.Diff(fields, props); diff != "" {
			t.Errorf("%s: fields (-Go +schema):\n%s", c.typ, diff)
		}
	}
}

// TestDocExample checks that the example of docs/recording.md parses.
func TestDocExample(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../docs/recording.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```json\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/recording.md has no json example")
	}
	if _, err := Parse("docs/recording.md example", []byte(example)); err != nil {
		t.Error(err)
	}
}
