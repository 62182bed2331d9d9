package xmlstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// TestEscapingKeepsJSON: auto detection never picks a generation that
// makes the stream's own JSON unparsable, and says so when it cannot tell.
func TestEscapingKeepsJSON(t *testing.T) {
	t.Parallel()
	oldMeta := `<meta_init data="{&quot;format&quot;: &quot;xml&quot;, &quot;user_query&quot;: &quot;q&quot;, &quot;agent_uuid&quot;: &quot;a&quot;, &quot;model&quot;: &quot;m&quot;}"></meta_init>`
	// The second generation escaped LF only and left JSON chunks as they
	// were: a JSON \n stays \n. Undoing the full escaping turns it into a
	// raw LF inside a JSON string.
	gen2Call := `<content-block-tool_call id="t1" name="Write" arguments="{&quot;text&quot;: &quot;a\nb&quot;}"></content-block-tool_call>`
	tests := []struct {
		name      string
		in        string
		wantInput string
		warns     bool
	}{
		{
			name:      "second generation tool call: JSON kept an object",
			in:        sse(oldMeta, gen2Call, "[DONE]"),
			wantInput: `{"text": "a\nb"}`,
		},
		{
			name:      "no meta_init: the same",
			in:        sse(gen2Call),
			wantInput: `{"text": "a\nb"}`,
		},
		{
			name:      "current generation tool call: unescaped",
			in:        sse(`<content-block-tool_call id="t1" name="Write" arguments="{&quot;text&quot;: &quot;a\\nb&quot;}"></content-block-tool_call>`),
			wantInput: `{"text": "a\nb"}`,
		},
		{
			name:      "both read as JSON in an old stream: full, with a warning",
			in:        sse(oldMeta, `<content-block-tool_call id="t1" name="Write" arguments="{&quot;text&quot;: &quot;a\\nb&quot;}"></content-block-tool_call>`, "[DONE]"),
			wantInput: `{"text": "a\nb"}`,
			warns:     true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := NewDecoder(strings.NewReader(withDone(tt.in, nil)), &Config{Source: "in"})
			var call *event.ToolCall
			var warnings []error
			for {
				ev, err := d.Next()
				if err != nil {
					if errors.Is(err, event.ErrWarning) {
						warnings = append(warnings, err)
						continue
					}
					if !decoderstate.IsParseError(err) {
						break
					}
					t.Errorf("problem: %v", err)
					continue
				}
				if c, ok := ev.(*event.ToolCall); ok {
					call = c
				}
			}
			if call == nil {
				t.Fatal("no tool call")
			}
			if diff := cmp.Diff(tt.wantInput, string(call.Input)); diff != "" {
				t.Errorf("input (-want +got):\n%s", diff)
			}
			var v map[string]any
			if err := json.Unmarshal(call.Input, &v); err != nil {
				t.Errorf("input is not a JSON object: %v", err)
			}
			if got := len(warnings) > 0; got != tt.warns {
				t.Errorf("warnings = %v, want some: %v", warnings, tt.warns)
			}
		})
	}
}

func TestUnescape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, full, newline string }{
		{``, ``, ``},
		{`plain`, `plain`, `plain`},
		{`a\nb\rc`, "a\nb\rc", "a\nb\\rc"},
		{`C:\\new`, `C:\new`, "C:\\\new"},
		{`\x\\\n\`, "\\x\\\n\\", "\\x\\\\\n\\"},
		{`\\\\n`, `\\n`, "\\\\\\\n"},
		{`\\`, `\`, `\\`},
		{`\`, `\`, `\`},
		{`\q\n`, "\\q\n", "\\q\n"},
	}
	for _, tt := range tests {
		if got := string(unescapeFull([]byte("x"), []byte(tt.in))); got != "x"+tt.full {
			t.Errorf("unescapeFull(%q) = %q, want %q", tt.in, got, "x"+tt.full)
		}
		if got := string(unescapeNewline(nil, []byte(tt.in))); got != tt.newline {
			t.Errorf("unescapeNewline(%q) = %q, want %q", tt.in, got, tt.newline)
		}
	}
}

func TestUnescapeEntities(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`plain`, `plain`},
		{`&quot;a&quot;: &amp;&lt;&gt;&apos;`, `"a": &<>'`},
		{`&#60;&#x3c;&#X3C;&#x27;`, `<<<'`},
		{`&amp;#60;`, `&#60;`},
		{`&quot`, `&quot`},
		{`&quo;&am;&l;&g`, `&quo;&am;&l;&g`},
		{`& &; &#; &#xzz; &#1114112; &verylongentityname;`, `& &; &#; &#xzz; &#1114112; &verylongentityname;`},
		{`a&`, `a&`},
	}
	var scratch []byte // reused, as a tag scan reuses it
	for _, tt := range tests {
		if got := unescapeEntities([]byte(tt.in), &scratch); got != tt.want {
			t.Errorf("unescapeEntities(%q) = %q, want %q", tt.in, got, tt.want)
		}
		// The data attribute's bytes are decoded the same.
		if got := string(parseAttrs([]byte(` data="`+tt.in+`"`), &scratch)[0].data); got != tt.want {
			t.Errorf("data attribute %q = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// appendUnescaped appends b with its entities decoded, one IndexByte
// per entity: the plain loop that unescapeTo must agree with.
func appendUnescaped(out, b []byte) []byte {
	for i := bytes.IndexByte(b, '&'); i >= 0; i = bytes.IndexByte(b, '&') {
		out = append(out, b[:i]...)
		b = b[i:]
		if len(b) >= 6 && string(b[:6]) == "&quot;" {
			// The JSON in meta attributes is mostly &quot;: one byte
			// appended, no entity call and no copy of a string.
			out = append(out, '"')
			b = b[6:]
			continue
		}
		n, r := entity(b)
		if n == 0 {
			out = append(out, '&')
			b = b[1:]
		} else {
			out = append(out, r...)
			b = b[n:]
		}
	}
	return append(out, b...)
}

// TestUnescapeTo: unescapeTo decodes as the plain loop does, on the data
// attributes of the corpus and on entities at every offset of a word.
func TestUnescapeTo(t *testing.T) {
	t.Parallel()
	texts := []string{"", "&", "&&", "&quot", "&quot;", "&#x1F98A;", "&#128;", "&#65536;", "&lt&gt;"}
	for _, e := range []string{"&quot;", "&amp;", "&lt;", "&#x27;", "&#1114111;", "&bogus;", "&"} {
		for i := range 17 {
			texts = append(texts, strings.Repeat("x", i)+e+strings.Repeat("é", i%3)+e)
		}
	}
	files, _ := filepath.Glob("../../testdata/xml/*.sse")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`data="([^"]*)"`).FindAllSubmatch(b, -1) {
			texts = append(texts, string(m[1]))
		}
	}
	for _, s := range texts {
		checkUnescapeTo(t, s)
	}
}

func checkUnescapeTo(t *testing.T, s string) {
	t.Helper()
	want := string(appendUnescaped(nil, []byte(s)))
	out := make([]byte, len(s))
	if got := string(out[:unescapeTo(out, []byte(s))]); got != want {
		t.Errorf("unescapeTo(%q) = %q, want %q", s, got, want)
	}
}

func FuzzUnescapeTo(f *testing.F) {
	f.Add("&quot;format&quot;: &quot;xml&quot;, &amp;&lt;&#x27;&#60;")
	f.Add("abcdefg&#1114111;&#xD800;&quo")
	f.Fuzz(checkUnescapeTo)
}
