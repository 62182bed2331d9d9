package xmlstream

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// corpus is where the recorded streams live, shared with the other formats.
const corpus = "../../testdata/xml"

// decodeAll reads every event and every problem from r.
func decodeAll(t testing.TB, r io.Reader, cfg *Config) ([]event.Event, []string) {
	t.Helper()
	c := Config{}
	if cfg != nil {
		c = *cfg
	}
	if c.Source == "" {
		c.Source = "in"
	}
	return eventtest.EventsAndProblems(t, NewDecoder(r, &c))
}

// sse frames each chunk as the reference server does.
func sse(chunks ...string) string {
	var sb strings.Builder
	for _, c := range chunks {
		sb.WriteString("data: " + c + "\n\n")
	}
	return sb.String()
}

func ptr[T any](v T) *T { return &v }

// withDone ends in with data: [DONE], in its line ends, as every stream
// the producer finishes ends (a stream without it is cut), unless it has
// one or the case expects a cut (problems say the stream ended).
func withDone(in string, problems []string) string {
	for _, p := range problems {
		if strings.Contains(p, "stream ended") {
			return in
		}
	}
	last := strings.TrimRight(in, "\r\n")
	if strings.HasSuffix(last, "[DONE]") || strings.Contains(last[strings.LastIndex(last, "data: ")+1:], "Error: ") ||
		strings.Contains(last[strings.LastIndex(last, "data: ")+1:], `"traceback"`) {
		return in // ended, or ended by the producer's error line
	}
	switch {
	case strings.Contains(in, "\r\n"):
		return in + "data: [DONE]\r\n\r\n"
	case strings.Contains(in, "\r") && !strings.Contains(in, "\n"):
		return in + "data: [DONE]\r\r"
	}
	return in + "data: [DONE]\n\n"
}

func text(s string) []event.Event {
	return []event.Event{
		&event.BlockStart{Kind: event.Text},
		&event.Delta{Kind: event.Text, Text: s},
		&event.BlockEnd{Kind: event.Text},
	}
}

func cat(evs ...[]event.Event) []event.Event {
	var out []event.Event
	for _, e := range evs {
		out = append(out, e...)
	}
	return out
}

// TestReferencePairs decodes every input of reference-notes §1.5 and §1.7
// and checks the correct answer (where the reference parser is wrong, the
// comment says how).
func TestReferencePairs(t *testing.T) {
	t.Parallel()
	trunc := func(what string) string { return "in:1:1: stream ended inside " + what }
	tests := []struct {
		name     string
		in       string
		esc      string
		want     []event.Event
		problems []string
	}{
		{name: "1.5.1 text", in: sse("<content-block-text>Hello</content-block-text>"), want: text("Hello")},
		{name: "1.5.2 escaped newline", in: sse(`<content-block-text>a\nb</content-block-text>`), want: text("a\nb")},
		{
			// The reference parser never halves the doubled backslash (B4).
			name: "1.5.3 doubled backslash", in: sse(`<content-block-text>C:\\new</content-block-text>`),
			want: text(`C:\new`),
		},
		{
			// The reference parser lets the unknown tag <y</content-block-text>
			// swallow the end tag (B6).
			name: "1.5.4 unknown tags and entities are text",
			in:   sse("<content-block-text>use <div> and <b>bold</b> &amp; x<y</content-block-text>"),
			want: text("use <div> and <b>bold</b> &amp; x<y"),
		},
		{
			name: "1.5.5 lone < and a second block",
			in:   sse("<content-block-text>if a<b then</content-block-text><content-block-text>next</content-block-text>"),
			want: cat(text("if a<b then"), text("next")),
		},
		{
			// The producer writes deltas raw: an end tag followed by more
			// text is the model's.
			name: "1.5.6 end tag inside text",
			in:   sse("<content-block-text>Write </content-block-text> literally</content-block-text>"),
			want: text("Write </content-block-text> literally"),
		},
		{
			name: "1.5.7 chart and table stay text",
			in:   sse(`<content-block-text>see <table>|a|</table> and <chart type="bar">{}</chart> and <image src="x"/></content-block-text>`),
			want: text(`see <table>|a|</table> and <chart type="bar">{}</chart> and <image src="x"/>`),
		},
		{
			name: "1.5.8 partial tag at the end", in: sse("<content-block-text>x</content-block-text>", "<content-block-te"),
			want: text("x"), problems: []string{"in:3:1: stream ended inside a tag"},
		},
		{
			name: "1.5.9 open text", in: sse("<content-block-text>Hel"),
			want:     []event.Event{&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "Hel"}},
			problems: []string{trunc(TagText)},
		},
		{
			// What was read is emitted, then the truncation is reported.
			name: "1.5.10 open CDATA", in: sse(`<content-block-tool_result id="t1" name="n"><![CDATA[partial res`),
			want: []event.Event{&event.ToolResult{
				ID: "t1", Name: "n",
				Content: []event.Part{{Type: "text", Text: "partial res"}},
			}},
			problems: []string{trunc(TagToolResult)},
		},
		{
			name: "1.5.11 split CDATA", in: sse(`<content-block-tool_result id="t" name="n"><![CDATA[a]]]]><![CDATA[>b]]></content-block-tool_result>`),
			want: []event.Event{&event.ToolResult{ID: "t", Name: "n", Content: []event.Part{{Type: "text", Text: "a]]>b"}}}},
		},
		{
			// The reference parser interprets $ patterns (B9).
			name: "1.5.12 dollar signs", in: sse(`<content-block-tool_result id="t" name="n"><![CDATA[echo $$ and $& and $1]]></content-block-tool_result>`),
			want: []event.Event{&event.ToolResult{ID: "t", Name: "n", Content: []event.Part{{Type: "text", Text: "echo $$ and $& and $1"}}}},
		},
		{
			// Inherent in the producer's tool result escaping (B5): its \n
			// cannot be told from a JSON escape.
			name: "1.5.13 tool result newline escape", in: sse(`<content-block-tool_result id="t" name="n"><![CDATA[{"a": "x\ny"}]]></content-block-tool_result>`),
			want: []event.Event{&event.ToolResult{ID: "t", Name: "n", Content: []event.Part{{Type: "text", Text: "{\"a\": \"x\ny\"}"}}}},
		},
		{
			// The reference parser ends the CDATA at the first ]]> (B10).
			name: "1.5.14 unescaped ]]> in a server result",
			in:   sse(`<content-block-server_tool_result id="s" name="web_search_tool_result"><![CDATA[[{"title": "A]]>B"}]]]></content-block-server_tool_result>`),
			want: []event.Event{&event.ToolResult{
				ID: "s", Name: "web_search_tool_result", Server: true,
				Content: []event.Part{{Type: "text", Text: `[{"title": "A]]>B"}]`}},
			}},
		},
		{
			// Entities are decoded once (the reference parser decodes twice, B7).
			name: "1.5.15 &amp;quot; in arguments",
			in:   sse(`<content-block-tool_call id="a" name="n" arguments="{&quot;q&quot;: &quot;&amp;quot;hi&amp;quot;&quot;}"></content-block-tool_call>`),
			want: []event.Event{&event.ToolCall{ID: "a", Name: "n", Input: json.RawMessage(`{"q": "&quot;hi&quot;"}`)}},
		},
		{
			name: "1.5.16 &amp;#60; in arguments",
			in:   sse(`<content-block-tool_call id="a" name="n" arguments="{&quot;x&quot;: &quot;&amp;#60;&quot;}"></content-block-tool_call>`),
			want: []event.Event{&event.ToolCall{ID: "a", Name: "n", Input: json.RawMessage(`{"x": "&#60;"}`)}},
		},
		{
			// The producer doubles the backslashes of JSON escapes; undone
			// per message, they parse (the reference parser fails).
			name: "1.5.17 doubled JSON escapes in arguments",
			in:   sse(`<content-block-tool_call id="a" name="n" arguments="{&quot;q&quot;: &quot;it&#x27;s \\&quot;A&amp;B\\&quot; caf\\u00e9 \\n&quot;}"></content-block-tool_call>`),
			want: []event.Event{&event.ToolCall{ID: "a", Name: "n", Input: json.RawMessage(`{"q": "it's \"A&B\" caf\u00e9 \n"}`)}},
		},
		{
			// B3: the producer's "" for an empty input_json means no input.
			name: "1.5.18 empty arguments string",
			in:   sse(`<content-block-tool_call id="a" name="n" arguments="&quot;&quot;"></content-block-tool_call>`),
			want: []event.Event{&event.ToolCall{ID: "a", Name: "n", Input: json.RawMessage(`{}`)}},
		},
		{
			name: "1.5.19 orphan end tag is text", in: sse("</content-block-text>hello"),
			want:     text("</content-block-text>hello"),
			problems: []string{"in:1:1: text outside any element (kept as a text block)"},
		},
		{
			// A start tag inside text is text; the end tag is followed by
			// more text, so it is text too, and the block stays open.
			name: "1.5.20 nested block tag",
			in:   sse("<content-block-text>a<content-block-thinking>b</content-block-text>c"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "a<content-block-thinking>b</content-block-text>c"},
			},
			problems: []string{trunc(TagText)},
		},
		{
			name: "1.5.21 > inside a quoted attribute",
			in:   sse(`<content-block-tool_call id="a>b" name="n" arguments="{}"></content-block-tool_call>`),
			want: []event.Event{&event.ToolCall{ID: "a>b", Name: "n", Input: json.RawMessage(`{}`)}},
		},
		{
			name: "1.5.22 single-quoted and unquoted attributes",
			in:   sse(`<content-block-tool_call id='a' name=b arguments="{}"></content-block-tool_call>`),
			want: []event.Event{&event.ToolCall{ID: "a", Name: "b", Input: json.RawMessage(`{}`)}},
		},
		{
			name: "1.5.23 white space between blocks",
			in:   sse("<content-block-text>a</content-block-text>", "\n  ", "<content-block-text>b</content-block-text>"),
			want: cat(text("a"), text("b")),
		},
		{
			name: "1.5.24 placeholder text is text",
			in:   sse("<content-block-text>__CDATA_PLACEHOLDER_0__</content-block-text>", "<content-block-error><![CDATA[x]]></content-block-error>"),
			want: cat(text("__CDATA_PLACEHOLDER_0__"), []event.Event{&event.Error{Message: "x", Raw: json.RawMessage(`"x"`)}}),
		},
		{
			name: "1.5.25 text tag inside thinking",
			in:   sse("<content-block-thinking>I will use <text> tags</content-block-thinking>"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Thinking},
				&event.Delta{Kind: event.Thinking, Text: "I will use <text> tags"}, &event.BlockEnd{Kind: event.Thinking},
			},
		},
		{
			// The reference consumer drops " now" and the end tag (B8).
			name: "1.5.26 meta_final inside text",
			in:   sse("<content-block-text>", "write <meta_final", " now", "</content-block-text>", `<meta_final data="{&quot;stop_reason&quot;: &quot;end_turn&quot;}"></meta_final>`),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "write <meta_final"}, &event.Delta{Kind: event.Text, Text: " now"},
				&event.BlockEnd{Kind: event.Text},
				&event.RunEnd{StopReason: "end_turn", Meta: json.RawMessage(`{"stop_reason": "end_turn"}`), MetaKind: MetaKind},
			},
		},
		{
			name: "1.7 formatter text block",
			in: sse("<content-block-text>", `Hi\nthere `, `C:\\new <b>&amp; `, "a\rb ", "x]]>y ",
				"</content-block-text>z", "</content-block-text>"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "Hi\nthere "}, &event.Delta{Kind: event.Text, Text: `C:\new <b>&amp; `},
				&event.Delta{Kind: event.Text, Text: "a\rb "}, &event.Delta{Kind: event.Text, Text: "x]]>y "},
				&event.Delta{Kind: event.Text, Text: "</content-block-text>z"}, &event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name: "1.7 unclosed block before a retry",
			in:   sse("<content-block-text>", "Hel", "<content-block-text>", "Hello", "</content-block-text>"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "Hel"},
				&event.Delta{Kind: event.Text, Text: "<content-block-text>"}, &event.Delta{Kind: event.Text, Text: "Hello"},
				&event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name: "whitespace-only deltas are content",
			in:   sse("<content-block-text>", "a", " ", "b", "</content-block-text>"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "a"},
				&event.Delta{Kind: event.Text, Text: " "}, &event.Delta{Kind: event.Text, Text: "b"}, &event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name: "bad awaiting_frontend_tools data is kept as the element",
			in:   sse(`<awaiting_frontend_tools data="[{&quot;x"></awaiting_frontend_tools>`),
			want: []event.Event{&event.Unknown{
				Format: "xml", Type: TagAwaitingTools,
				Raw: []byte(`<awaiting_frontend_tools data="[{&quot;x"></awaiting_frontend_tools>`),
			}},
			problems: []string{"in:1:1: awaiting_frontend_tools data is not a JSON array of tools"},
		},
		{
			name: "citations after a text block",
			in: sse("<content-block-text>", "grass", "</content-block-text>",
				`<citations><citation type="char_location" document_index="0" document_title="My &quot;Doc&quot;" start_char_index="0" end_char_index="20"><![CDATA[The grass is green.]]></citation>`+
					`<citation type="page_location" document_index="1" document_title="" start_page_number="2" end_page_number="3"><![CDATA[a ]]> b]]></citation>`+
					`<citation type="web_search_result_location" url="https://x/?a=1&amp;b=2" title="T &#x27;s&#x27;"><![CDATA[s]]></citation>`+
					`<citation type="content_block_location" document_index="2"><![CDATA[c]]></citation></citations>`),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "grass"},
				&event.BlockEnd{Kind: event.Text},
				&event.Citations{Items: []event.Citation{
					{
						Type: "char_location", CitedText: "The grass is green.", DocumentIndex: ptr[int64](0),
						DocumentTitle: ptr(`My "Doc"`), StartCharIndex: ptr[int64](0), EndCharIndex: ptr[int64](20),
					},
					{
						Type: "page_location", CitedText: "a ]]> b", DocumentIndex: ptr[int64](1),
						StartPageNumber: ptr[int64](2), EndPageNumber: ptr[int64](3),
					},
					{Type: "web_search_result_location", CitedText: "s", URL: ptr("https://x/?a=1&b=2"), Title: ptr("T 's'")},
					{Type: "content_block_location", CitedText: "c", DocumentIndex: ptr[int64](2)},
				}},
			},
		},
		{
			name: "multimodal tool result",
			in:   sse(`<content-block-tool_result id="t" name="shot"><text><![CDATA[two:\nfirst]]></text><image src="data:image/png;base64,AA==" media_type="image/png" /><image src="u" media_type="image/jpeg"/></content-block-tool_result>`),
			want: []event.Event{&event.ToolResult{ID: "t", Name: "shot", Content: []event.Part{
				{Type: "text", Text: "two:\nfirst"},
				{Type: "image", Source: "data:image/png;base64,AA==", MediaType: "image/png"},
				{Type: "image", Source: "u", MediaType: "image/jpeg"},
			}}},
		},
		{
			name: "compatibility result tags and srvtoolu ids",
			in: sse(`<content-block-tool_call id="srvtoolu_1" name="web_search" arguments="{}"></content-block-tool_call>`,
				`<content-block-web_search_tool_result id="srvtoolu_1"><![CDATA[[]]]></content-block-web_search_tool_result>`,
				`<content-block-tool_result id="srvtoolu_2" name="bash_code_execution_tool_result"><![CDATA[ok]]></content-block-tool_result>`),
			want: []event.Event{
				&event.ToolCall{ID: "srvtoolu_1", Name: "web_search", Input: json.RawMessage(`{}`), Server: true},
				&event.ToolResult{ID: "srvtoolu_1", Name: "web_search_tool_result", Server: true, Content: []event.Part{{Type: "text", Text: "[]"}}},
				&event.ToolResult{ID: "srvtoolu_2", Name: "bash_code_execution_tool_result", Server: true, Content: []event.Part{{Type: "text", Text: "ok"}}},
			},
		},
		{
			name: "awaiting frontend tools, files, error",
			in: sse(`<awaiting_frontend_tools data="[{&quot;tool_use_id&quot;: &quot;t&quot;, &quot;name&quot;: &quot;confirm&quot;, &quot;input&quot;: {&quot;q&quot;: 1}}]"></awaiting_frontend_tools>`,
				`<content-block-meta_files><![CDATA[{"files":[{"file_id":"f","filename":"a.pdf","storage_location":"s3://x"}]}]]></content-block-meta_files>`,
				`<content-block-error><![CDATA[{"type": "api_error", "message": "Over\\nloaded"}]]></content-block-error>`),
			want: []event.Event{
				&event.AwaitingTools{Tools: []event.PendingTool{{ID: "t", Name: "confirm", Input: json.RawMessage(`{"q": 1}`)}}},
				&event.Files{
					Files: []event.File{{ID: "f", Name: "a.pdf", Location: "s3://x"}},
					Raw:   json.RawMessage(`{"files":[{"file_id":"f","filename":"a.pdf","storage_location":"s3://x"}]}`),
				},
				&event.Error{Type: "api_error", Message: "Over\nloaded", Raw: json.RawMessage(`{"type": "api_error", "message": "Over\nloaded"}`)},
			},
		},
		{
			name: "an older producer closes the text block an error interrupted: its end tag ends it, not text",
			in: sse("<content-block-text>", "Hel",
				`<content-block-error><![CDATA[{"type": "overloaded_error", "message": "Overloaded"}]]></content-block-error>`,
				"</content-block-text>", "<content-block-text>", "Hello", "</content-block-text>"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "Hel"},
				&event.Error{Type: "overloaded_error", Message: "Overloaded", Raw: json.RawMessage(`{"type": "overloaded_error", "message": "Overloaded"}`)},
				&event.BlockEnd{Kind: event.Text},
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "Hello"},
				&event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name: "subagent scope",
			in: sse(`<meta_init data="{&quot;agent_uuid&quot;: &quot;P&quot;, &quot;parent_agent_uuid&quot;: null, &quot;model&quot;: &quot;m&quot;, &quot;user_query&quot;: &quot;q&quot;}"></meta_init>`,
				`<content-block-tool_call id="t1" name="spawn" arguments="{}"></content-block-tool_call>`,
				`<meta_init data="{&quot;agent_uuid&quot;: &quot;C&quot;, &quot;parent_agent_uuid&quot;: &quot;P&quot;}"></meta_init>`,
				`<content-block-tool_call id="t2" name="Bash" arguments="{}"></content-block-tool_call>`,
				`<content-block-tool_result id="t2" name="Bash"><![CDATA[x]]></content-block-tool_result>`,
				`<content-block-tool_result id="t1" name="spawn"><![CDATA[done]]></content-block-tool_result>`,
				"<content-block-text>", "ok", "</content-block-text>", "[DONE]"),
			want: []event.Event{
				&event.SessionStart{
					Agent: "P", Model: "m", Prompt: "q", MetaKind: MetaKind,
					Meta: json.RawMessage(`{"agent_uuid": "P", "parent_agent_uuid": null, "model": "m", "user_query": "q"}`),
				},
				&event.ToolCall{Agent: "P", ID: "t1", Name: "spawn", Input: json.RawMessage(`{}`)},
				&event.SessionStart{
					Agent: "C", ParentAgent: "P", MetaKind: MetaKind,
					Meta: json.RawMessage(`{"agent_uuid": "C", "parent_agent_uuid": "P"}`),
				},
				&event.ToolCall{Agent: "C", ID: "t2", Name: "Bash", Input: json.RawMessage(`{}`)},
				&event.ToolResult{Agent: "C", ID: "t2", Name: "Bash", Content: []event.Part{{Type: "text", Text: "x"}}},
				&event.ToolResult{Agent: "P", ID: "t1", Name: "spawn", Content: []event.Part{{Type: "text", Text: "done"}}},
				&event.BlockStart{Agent: "P", Kind: event.Text}, &event.Delta{Agent: "P", Kind: event.Text, Text: "ok"},
				&event.BlockEnd{Agent: "P", Kind: event.Text},
			},
		},
		{
			name: "old Error: line with raw newlines, no [DONE]",
			in:   sse("<content-block-text>", "a", "</content-block-text>") + "data: Error: boom\n\nsecond line\n\n",
			want: cat(text("a"), []event.Event{&event.Error{Message: "boom\n\nsecond line", Fatal: true}}),
		},
		{
			name: "JSON error line",
			in:   sse("<content-block-text>", "a", "</content-block-text>", `{"error": "RuntimeError", "message": "boom", "traceback": "tb"}`),
			want: cat(text("a"), []event.Event{&event.Error{
				Type: "RuntimeError", Message: "boom", Fatal: true,
				Raw: json.RawMessage(`{"error": "RuntimeError", "message": "boom", "traceback": "tb"}`),
			}}),
		},
		{
			name: "what follows [DONE] in a file is the next stream, as in jsonenv",
			in:   sse("<content-block-text>a</content-block-text>", "[DONE]", "<content-block-text>after</content-block-text>"),
			want: cat(text("a"), text("after")),
		},
		{
			name: "tags split across messages at any byte",
			in:   sse("<content-bl", `ock-tool_call id="a" na`, `me="n" arguments="{&qu`, `ot;k&quot;: 1}"></content-block-too`, "l_call><conte", "nt-block-text>hi</con", "tent-block-text>"),
			want: cat([]event.Event{&event.ToolCall{ID: "a", Name: "n", Input: json.RawMessage(`{"k": 1}`)}},
				[]event.Event{&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "hi"}, &event.BlockEnd{Kind: event.Text}}),
		},
		{
			name: "runes split across messages",
			in:   sse("<content-block-text>", "caf\xc3", "\xa9 \xf0\x9f", "\x98\x80", "</content-block-text>"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "caf"},
				&event.Delta{Kind: event.Text, Text: "é "}, &event.Delta{Kind: event.Text, Text: "😀"}, &event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name: "invalid utf-8 becomes U+FFFD, one per byte, in every event",
			in: sse("<content-block-text>a\xffb\xff\xfe</content-block-text>",
				"<content-block-tool_call id=\"t\xfe\" name=\"n\" arguments=\"{&quot;k&quot;: &quot;\xff&quot;}\"></content-block-tool_call>",
				"<content-block-tool_result id=\"t\xfe\" name=\"n\"><![CDATA[r\xe2\x82]]></content-block-tool_result>"),
			want: cat(text("a\uFFFDb\uFFFD\uFFFD"), []event.Event{
				&event.ToolCall{ID: "t\uFFFD", Name: "n", Input: json.RawMessage("{\"k\": \"\uFFFD\"}")},
				&event.ToolResult{ID: "t\uFFFD", Name: "n", Content: []event.Part{{Type: "text", Text: "r\uFFFD\uFFFD"}}},
			}),
			problems: []string{"in:1:1: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)"},
		},
		{
			name: "invalid utf-8 split across messages: joined first, then replaced",
			in:   sse("<content-block-text>", "a\xe2", "\x82", "b\xf0\x9f", "\x98\x80", "\xff</content-block-text>"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "a"},
				&event.Delta{Kind: event.Text, Text: "\uFFFD\uFFFDb"}, &event.Delta{Kind: event.Text, Text: "😀"},
				&event.Delta{Kind: event.Text, Text: "\uFFFD"}, &event.BlockEnd{Kind: event.Text},
			},
			problems: []string{"in:7:1: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)"},
		},
		{
			name: "a character cut off by the end of the input",
			in:   sse("<content-block-text>", "a\xf0\x9f"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "a"},
				&event.Delta{Kind: event.Text, Text: "\uFFFD\uFFFD"},
			},
			problems: []string{"in:3:1: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)", "in:3:1: stream ended inside content-block-text"},
		},
		{
			name: "a character cut off by an error line",
			in:   sse(`<content-block-tool_call id="t" name="n" arguments="{}"></content-block-tool_call>`, "\xf0\x9f", "Error: b\xff"),
			want: cat([]event.Event{&event.ToolCall{ID: "t", Name: "n", Input: json.RawMessage("{}")}}, []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "\uFFFD\uFFFD"},
				&event.BlockEnd{Kind: event.Text}, &event.Error{Message: "b\uFFFD", Fatal: true},
			}),
			problems: []string{"in:5:1: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)", "in:5:1: text outside any element (kept as a text block)"},
		},
		{
			name: "escaping forced none",
			esc:  "none",
			in:   sse(`<content-block-text>a\nb \\</content-block-text>`),
			want: text(`a\nb \\`),
		},
		{
			name: "escaping forced newline",
			esc:  "newline",
			in:   sse(`<content-block-text>a\nb \\</content-block-text>`),
			want: text("a\nb \\\\"),
		},
		{
			name: "escaping forced full",
			esc:  "full",
			in:   sse(`<content-block-text>a\nb \\</content-block-text>`),
			want: text("a\nb \\"),
		},
		{
			name: "auto: a backslash full escaping cannot write means an older generation",
			in:   sse("<content-block-text>", `say \"hi\" \n`, "</content-block-text>"),
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: `say \"hi\" \n`},
				&event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name: "auto: broken framing means the first generation",
			in:   "data: <content-block-text>\n\ndata: one\ntwo\n\n\nthree\n\ndata: \\n\n\ndata: </content-block-text>\n\n",
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "one\ntwo"},
				&event.Delta{Kind: event.Text, Text: "\n\n\nthree"}, &event.Delta{Kind: event.Text, Text: `\n`},
				&event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name: "CRLF framing",
			in:   "data: <content-block-text>\r\n\r\ndata:hi\r\n\r\n: comment\r\nevent: x\r\ndata: </content-block-text>\r\n\r\n",
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "hi"},
				&event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name:     "not SSE: reported once, at its first line",
			in:       "hello\nworld\n\nno data here\n",
			problems: []string{"in:1:1: expected an SSE data: line"},
		},
		{
			name:     "fields before the first message are SSE; junk is reported, then the messages read",
			in:       ": comment\nevent: x\n\njunk\nmore junk\ndata: <content-block-text>a</content-block-text>\n\n",
			want:     []event.Event{&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "a"}, &event.BlockEnd{Kind: event.Text}},
			problems: []string{"in:4:1: expected an SSE data: line"},
		},
		{
			name: "CR framing, decided by the first line end",
			in:   "data: <content-block-text>\r\rdata:hi\r\r: comment\revent: x\rdata: </content-block-text>\r\r",
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "hi"},
				&event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name:     "CR framing: a last line without its end is cut off",
			in:       "data: <content-block-text>\r\rdata: a\r\rdata: </content-block-text>",
			want:     []event.Event{&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "a"}},
			problems: []string{"in:3:1: stream ended inside content-block-text"},
		},
		{
			name: "LF framing: a lone raw CR in a delta is content (B1)",
			in:   "data: <content-block-text>\n\ndata: a\rb\n\ndata: </content-block-text>\n\n",
			want: []event.Event{
				&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "a\rb"},
				&event.BlockEnd{Kind: event.Text},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.in = withDone(tt.in, tt.problems)
			got, problems := decodeAll(t, strings.NewReader(tt.in), &Config{Escaping: tt.esc})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			for _, r := range readers {
				got2, problems2 := decodeAll(t, r.wrap(strings.NewReader(tt.in)), &Config{Escaping: tt.esc})
				if diff := cmp.Diff(got, got2); diff != "" {
					t.Errorf("%s: events differ (-whole +%s):\n%s", r.name, r.name, diff)
				}
				if diff := cmp.Diff(problems, problems2); diff != "" {
					t.Errorf("%s: problems differ:\n%s", r.name, diff)
				}
			}
		})
	}
}

var readers = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"OneByteReader", iotest.OneByteReader},
	{"HalfReader", iotest.HalfReader},
	{"DataErrReader", iotest.DataErrReader},
}

func TestBadEscapingFlag(t *testing.T) {
	t.Parallel()
	_, err := NewDecoder(strings.NewReader(""), &Config{Escaping: "both"}).Next()
	if err == nil || !strings.Contains(err.Error(), `unknown escaping "both"`) {
		t.Errorf("err = %v, want unknown escaping", err)
	}
}

func TestTooLarge(t *testing.T) {
	t.Parallel()
	in := sse("<content-block-tool_result id=\"t\" name=\"n\">", "<![CDATA["+strings.Repeat("x", 60)+"]]>",
		"</content-block-tool_result>", "<content-block-text>ok</content-block-text>", "[DONE]")
	got, problems := decodeAll(t, strings.NewReader(in), &Config{MaxEventBytes: 50})
	want := cat([]event.Event{&event.ToolResult{ID: "t", Name: "n"}}, text("ok"))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "larger than 50 bytes") {
		t.Errorf("problems = %q, want one too large", problems)
	}
}

// golden renders events and problems one per line, for golden files.
func golden(evs []event.Event, problems []string) []byte {
	var buf bytes.Buffer
	for _, ev := range evs {
		b, _ := json.Marshal(ev)
		fmt.Fprintf(&buf, "%s %s\n", reflect.TypeOf(ev).Elem().Name(), b)
	}
	for _, p := range problems {
		fmt.Fprintf(&buf, "problem %s\n", p)
	}
	return buf.Bytes()
}

func corpusFiles(t testing.TB) []string { return eventtest.Corpus(t, corpus, "*.sse") }

// TestCorpus decodes every recording against its golden events, and checks
// that reading one byte at a time, or half reads, gives identical events,
// and that a stream with one document byte per SSE message gives the same
// content (deltas then split differently, one per message).
func TestCorpus(t *testing.T) {
	t.Parallel()
	for _, file := range corpusFiles(t) {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, problems := decodeAll(t, bytes.NewReader(in), nil)
			gold := filepath.Join("testdata", strings.TrimSuffix(name, ".sse")+".events")
			eventtest.GoldenFile(t, gold, golden(got, problems), *update)
			for _, r := range readers {
				got2, problems2 := decodeAll(t, r.wrap(bytes.NewReader(in)), nil)
				if diff := cmp.Diff(got, got2); diff != "" {
					t.Errorf("%s: events differ:\n%s", r.name, diff)
				}
				if diff := cmp.Diff(problems, problems2); diff != "" {
					t.Errorf("%s: problems differ:\n%s", r.name, diff)
				}
			}
			checkGeneralPath(t, in)
			if !bytes.ContainsRune(in, '\r') {
				// The same stream with CR line ends reads the same.
				cr := bytes.ReplaceAll(in, []byte("\n"), []byte("\r"))
				for _, r := range readers[:2] {
					got2, problems2 := decodeAll(t, r.wrap(bytes.NewReader(cr)), nil)
					if diff := cmp.Diff(got, got2); diff != "" {
						t.Errorf("CR line ends, %s: events differ:\n%s", r.name, diff)
					}
					if diff := cmp.Diff(problems, problems2); diff != "" {
						t.Errorf("CR line ends, %s: problems differ:\n%s", r.name, diff)
					}
				}
			}
			one, _ := decodeAll(t, bytes.NewReader(oneBytePerMessage(t, in)), &Config{Escaping: "none"})
			if diff := cmp.Diff(coalesce(got), coalesce(one)); diff != "" {
				t.Errorf("one byte per message: events differ:\n%s", diff)
			}
		})
	}
}

// checkGeneralPath checks that in decodes to the same events and
// problems without textDelta: a decoder with a docTap takes the
// general path for every message.
func checkGeneralPath(t *testing.T, in []byte) {
	t.Helper()
	got, problems := decodeAll(t, bytes.NewReader(in), nil)
	slow := NewDecoder(bytes.NewReader(in), &Config{Source: "in"})
	slow.docTap = func([]byte, bool) {}
	got2, problems2 := eventtest.EventsAndProblems(t, slow)
	if diff := cmp.Diff(got, got2); diff != "" {
		t.Errorf("without textDelta: events differ:\n%s", diff)
	}
	if diff := cmp.Diff(problems, problems2); diff != "" {
		t.Errorf("without textDelta: problems differ:\n%s", diff)
	}
}

// oneBytePerMessage rewrites a stream so that every SSE message holds one
// byte of the XML document (already unescaped, so it is read with escaping
// none); [DONE] and error lines stay whole.
func oneBytePerMessage(t testing.TB, in []byte) []byte {
	var out bytes.Buffer
	d := NewDecoder(bytes.NewReader(in), nil)
	d.docTap = func(data []byte, _ bool) {
		for _, c := range data {
			if c == '\n' {
				out.WriteString("data:\ndata:\n\n")
				continue
			}
			out.WriteString("data: ")
			out.WriteByte(c)
			out.WriteString("\n\n")
		}
	}
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if e, ok := ev.(*event.Error); ok && e.Fatal {
			if len(e.Raw) > 0 {
				out.WriteString("data: " + string(e.Raw) + "\n\n")
			} else {
				out.WriteString("data: Error: " + strings.ReplaceAll(e.Message, "\n", "\ndata: ") + "\n\n")
			}
		}
	}
	if bytes.Contains(in, []byte("data: [DONE]")) {
		out.WriteString("data: [DONE]\n\n")
	}
	return out.Bytes()
}

// coalesce joins adjacent deltas of one block.
func coalesce(evs []event.Event) []event.Event {
	var out []event.Event
	for _, ev := range evs {
		if d, ok := ev.(*event.Delta); ok && len(out) > 0 {
			if p, ok := out[len(out)-1].(*event.Delta); ok && p.Kind == d.Kind && p.Agent == d.Agent {
				out[len(out)-1] = &event.Delta{Agent: p.Agent, Kind: p.Kind, Text: p.Text + d.Text}
				continue
			}
		}
		out = append(out, ev)
	}
	return out
}

func TestCapturedDocxChart(t *testing.T) {
	t.Parallel()
	f, err := os.Open(filepath.Join(corpus, "captured-docx-chart.sse"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, problems := decodeAll(t, f, nil)
	if len(problems) > 0 {
		t.Errorf("problems: %q", problems)
	}
	var kinds []string
	var files *event.Files
	var thinking string
	for _, ev := range coalesce(evs) {
		switch e := ev.(type) {
		case *event.Delta:
			kinds = append(kinds, string(e.Kind))
			if e.Kind == event.Thinking {
				thinking = e.Text
			}
		case *event.ToolCall:
			kinds = append(kinds, "call")
			if !e.Server || !json.Valid(e.Input) {
				t.Errorf("tool call %s: server %v, input %s", e.ID, e.Server, e.Input)
			}
		case *event.ToolResult:
			kinds = append(kinds, "result")
			if !e.Server {
				t.Errorf("tool result %s is not a server result", e.ID)
			}
		case *event.Files:
			files = e
		}
	}
	want := []string{
		"thinking", "text", "call", "result", "call", "result", "text", "call", "result", "call", "result",
		"text", "call", "result", "call", "result", "text",
	}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("block sequence (-want +got):\n%s", diff)
	}
	if !strings.Contains(thinking, "need to:\n\n1. Create a Python script") || !strings.Contains(thinking, "OUTPUT_DIR\n\nLet me") {
		t.Errorf("thinking lost the raw newlines of the broken framing:\n%s", thinking)
	}
	if files == nil || len(files.Files) != 1 || files.Files[0].Name != "document_with_chart.docx" {
		t.Errorf("files = %+v", files)
	}
}

// FuzzDecoder checks that the decoder never panics, always ends, yields
// valid UTF-8 in every string of every event, and gives the same events
// and problems whatever the read sizes (fuzzcheck.Check).
func FuzzDecoder(f *testing.F) {
	eventtest.FuzzPieces(f, corpusFiles(f), "\n\n", 512)
	f.Add([]byte(sse("<content-block-text>a<b</content-block-text>x", `<content-block-tool_result id="a"><text><![CDATA[x]]]]><![CDATA[>]]></text><image src="s"/></content-block-tool_result>`)))
	f.Add([]byte(sse(`<citations><citation type="x">a]]>b</citation>`, `<content-block-error><![CDATA[`)))
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzcheck.Check(t, in, func(r io.Reader) event.Decoder { return NewDecoder(r, &Config{MaxEventBytes: 4096}) })
		checkGeneralPath(t, in)
	})
}

func BenchmarkDecode(b *testing.B) {
	in, err := os.ReadFile(filepath.Join(corpus, "long-text.sse"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		dec := NewDecoder(bytes.NewReader(in), nil)
		for {
			if _, err := dec.Next(); err == io.EOF {
				break
			}
		}
	}
}
