package inlinexml

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/eventtest"
	"github.com/agentstream/agentstream/toolset"
)

type item = eventtest.Item

func block(kind event.BlockKind, text string) []item {
	its := []item{{Event: &event.BlockStart{Kind: kind}}}
	if text != "" {
		its = append(its, item{Event: &event.Delta{Kind: kind, Text: text}})
	}
	return append(its, item{Event: &event.BlockEnd{Kind: kind}})
}

func text(s string) []item    { return block(event.Text, s) }
func thought(s string) []item { return block(event.Thinking, s) }

func call(n int, name, input string) []item {
	return []item{{Event: &event.ToolCall{ID: "inline-" + string(rune('0'+n)), Name: name, Input: json.RawMessage(input)}}}
}

func problem(msg string) []item { return []item{{Err: msg}} }

func done(result string) []item {
	return []item{{Event: &event.RunEnd{StopReason: Completion, Result: result}}}
}

func seq(parts ...[]item) []item { return slices.Concat(parts...) }

type decodeTest struct {
	name string
	in   string
	cfg  *Config
	want []item
}

// decodeTests cover the grammar, and name the reference implementations'
// bugs and quirks (docs/formats/inlinexml.md) that each one shows we do
// not reproduce.
var decodeTests = []decodeTest{
	{name: "plain text", in: "Hello, world.", want: text("Hello, world.")},
	{name: "empty", in: "", want: nil},
	{name: "white space only", in: " \n ", want: text(" \n ")},
	{
		name: "white space between elements is layout",
		in:   "<thinking>t</thinking>\n\n<read_file><path>a</path></read_file>\n",
		want: seq(thought("t"), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		name: "white space before a false call is kept",
		in:   "\n<read_file> reads",
		want: text("\n<read_file> reads"),
	},
	{
		name: "read_file call",
		in:   "I will read it.\n<read_file>\n<path>src/a.ts</path>\n</read_file>",
		want: seq(text("I will read it.\n"), call(1, "read_file", `{"path":"src/a.ts"}`)),
	},
	{
		// Cline and Roo trim the text before a tool call (§4.2).
		name: "quirk text before a call is not trimmed",
		in:   "  Let me look.  \n\n<list_files><path>.</path></list_files>",
		want: seq(text("  Let me look.  \n\n"), call(1, "list_files", `{"path":"."}`)),
	},
	{
		// Cline and Roo keep <thinking> inside the text block (§4.2).
		name: "quirk thinking is a thinking block",
		in:   "<thinking>User wants a < b.</thinking>\n<read_file><path>a</path></read_file>",
		want: seq(thought("User wants a < b."), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		name: "think tag",
		in:   "<think>hmm</think>Answer.",
		want: seq(thought("hmm"), text("Answer.")),
	},
	{
		name: "empty thinking",
		in:   "<thinking></thinking>x",
		want: seq(thought(""), text("x")),
	},
	{
		name: "values are raw text",
		in: "<execute_command>\n<command>if [ 1 < 2 ]; then echo '<b>&amp;</b>'; fi</command>\n" +
			"<requires_approval>false</requires_approval>\n</execute_command>",
		want: call(1, "execute_command", `{"command":"if [ 1 < 2 ]; then echo '<b>&amp;</b>'; fi","requires_approval":"false"}`),
	},
	{
		// Cline and Roo cut a streaming content value at the first
		// </content>; the last one before the tool close is the close.
		name: "quirk write_to_file body holding its own close tag",
		in:   "<write_to_file>\n<path>x.xml</path>\n<content>\n<a>\n</content>\n</a>\n</content>\n</write_to_file>",
		want: call(1, "write_to_file", `{"path":"x.xml","content":"<a>\n</content>\n</a>"}`),
	},
	{
		name: "content close tag followed by the next parameter",
		in:   "<write_to_file><content>x</content> y</content>\n<path>p</path></write_to_file>",
		want: call(1, "write_to_file", `{"content":"x</content> y","path":"p"}`),
	},
	{
		// Cline trims every value, losing a file's indentation and
		// trailing white space; content keeps all but one newline each
		// side (Roo's rule), other values are trimmed.
		name: "quirk content keeps its white space",
		in:   "<write_to_file><path> a.py </path><content>\n    indented\n\n</content></write_to_file>",
		want: call(1, "write_to_file", `{"path":"a.py","content":"    indented\n"}`),
	},
	{
		name: "crlf around values",
		in:   "<write_to_file>\r\n<path>a</path>\r\n<content>\r\nx\r\n</content>\r\n</write_to_file>",
		want: call(1, "write_to_file", `{"path":"a","content":"x"}`),
	},
	{
		name: "replace_in_file diff",
		in:   "<replace_in_file><path>a.go</path><diff>\n------- SEARCH\nif a < b {\n=======\nif a <= b {\n+++++++ REPLACE\n</diff></replace_in_file>",
		want: call(1, "replace_in_file", `{"path":"a.go","diff":"------- SEARCH\nif a < b {\n=======\nif a <= b {\n+++++++ REPLACE"}`),
	},
	{
		// A parameter's text "a <" followed by its close: the second '<'
		// starts the close tag (netdata's N5, for this protocol).
		name: "N5 close tag right after a less-than",
		in:   "<search_files><path>.</path><regex>a <</regex></search_files>",
		want: call(1, "search_files", `{"path":".","regex":"a <"}`),
	},
	{
		name: "less-than before a tool open tag",
		in:   "x <<read_file><path>a</path></read_file>",
		want: seq(text("x <"), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		// Cline and Roo start a tool at a whitelisted tag inside inline
		// code (§4.2).
		name: "quirk false positive in inline code",
		in:   "Use `<read_file>` with a `<path>`.\nDone.",
		want: text("Use `<read_file>` with a `<path>`.\nDone."),
	},
	{
		name: "inline code ends at a newline",
		in:   "an odd ` backtick\n<read_file><path>a</path></read_file>",
		want: seq(text("an odd ` backtick\n"), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		name: "double backtick code span",
		in:   "``a ` <read_file>`` <list_files><path>.</path></list_files>",
		want: seq(text("``a ` <read_file>`` "), call(1, "list_files", `{"path":"."}`)),
	},
	{
		name: "fenced tool call is a call",
		in:   "```xml\n<read_file><path>a</path></read_file>\n```",
		want: seq(text("```xml\n"), call(1, "read_file", `{"path":"a"}`), text("```")),
	},
	{
		name: "quirk false positive in prose",
		in:   "The <read_file> tool reads a file.",
		want: text("The <read_file> tool reads a file."),
	},
	{
		name: "tags with attributes stay text",
		in:   `<read_file path="x"/> and <read_file path="y"></read_file>`,
		want: text(`<read_file path="x"/> and <read_file path="y"></read_file>`),
	},
	{
		name: "unknown tags stay text",
		in:   "<div><b>bold</b></div> <tool_name>x</tool_name>",
		want: text("<div><b>bold</b></div> <tool_name>x</tool_name>"),
	},
	{
		name: "case sensitive",
		in:   "<READ_FILE><path>a</path></READ_FILE>",
		want: text("<READ_FILE><path>a</path></READ_FILE>"),
	},
	{
		// Cline and Roo accept any parameter of any tool (a global
		// whitelist, §4.2); parameters are per tool.
		name: "quirk parameters are per tool",
		in:   "<read_file><command>ls</command></read_file>",
		want: text("<read_file><command>ls</command></read_file>"),
	},
	{
		name: "text between parameters is reported",
		in:   "<read_file><path>a</path> oops </read_file>",
		want: seq(problem("<input>:1:27: text between the parameters of <read_file> ignored: \"oops\""), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		name: "several calls",
		in:   "<read_file><path>a</path></read_file><read_file><path>b</path></read_file>",
		want: seq(call(1, "read_file", `{"path":"a"}`), call(2, "read_file", `{"path":"b"}`)),
	},
	{
		name: "repeated parameter keeps the last value",
		in:   "<read_file><path>a</path><path>b</path></read_file>",
		want: call(1, "read_file", `{"path":"b"}`),
	},
	{
		name: "tool without parameters",
		in:   "<load_mcp_documentation></load_mcp_documentation>",
		want: call(1, "load_mcp_documentation", `{}`),
	},
	{
		name: "attempt_completion",
		in:   "<attempt_completion>\n<result>\nIt works: a < b.\n</result>\n<command>open index.html</command>\n</attempt_completion>",
		want: seq(call(1, "attempt_completion", `{"result":"It works: a < b.","command":"open index.html"}`), done("It works: a < b.")),
	},
	{
		name: "text after completion precedes the run end",
		in:   "<attempt_completion><result>ok</result></attempt_completion> bye",
		want: seq(call(1, "attempt_completion", `{"result":"ok"}`), text(" bye"), done("ok")),
	},
	{
		name: "unclosed call at the end is text",
		in:   "Reading.\n<read_file>\n<path>src/a.ts</",
		want: []item{
			{Event: &event.BlockStart{Kind: event.Text}},
			{Event: &event.Delta{Kind: event.Text, Text: "Reading.\n<read_file>\n<path>src/a.ts</"}},
			{Event: &event.BlockEnd{Kind: event.Text}},
			{Err: "<input>:2:1: the input ended inside <read_file>; the call is kept as text"},
		},
	},
	{
		name: "unclosed thinking at the end keeps its text",
		in:   "<thinking>abcdefghijklmnop",
		want: seq(thought("abcdefghijklmnop"), problem("<input>:1:27: the input ended inside <thinking>")),
	},
	{
		// netdata's N7: a trailing partial tag is lost at the end.
		name: "N7 trailing less-than is kept",
		in:   "partial <",
		want: text("partial <"),
	},
	{
		name: "trailing partial tag is kept",
		in:   "see <read_fi",
		want: text("see <read_fi"),
	},
	{
		name: "schema types from a tools file",
		in:   "<read_file><path>a</path><start_line>10</start_line><end_line>x</end_line><opts>{\"a\":1}</opts><all>true</all></read_file>",
		cfg: &Config{Tools: mustTools(`[{"name":"read_file","input_schema":{"type":"object","properties":{
			"path":{"type":"string"},"start_line":{"type":"integer"},"end_line":{"type":["integer","null"]},
			"opts":{"type":"object"},"all":{"type":"boolean"}}}}]`)},
		want: call(1, "read_file", `{"path":"a","start_line":10,"end_line":"x","opts":{"a":1},"all":true}`),
	},
	{
		name: "tool names from flags accept any parameter",
		in:   "<search><query>auth</query><path>src</path><allow_tests>false</allow_tests></search><read_file><path>a</path></read_file>",
		cfg:  &Config{Tools: mustFlags("search")},
		want: seq(call(1, "search", `{"query":"auth","path":"src","allow_tests":"false"}`), text("<read_file><path>a</path></read_file>")),
	},
	{
		name: "call larger than the cap is text",
		in:   "<read_file><path>" + strings.Repeat("a", 40) + "</path></read_file> ok",
		cfg:  &Config{MaxCallBytes: 16},
		want: seq(problem("<input>:1:1: <read_file> larger than 16 bytes; kept as text"), text("<read_file><path>"+strings.Repeat("a", 40)+"</path></read_file> ok")),
	},
	{
		name: "tool results pair with calls",
		in: "<read_file><path>a</path></read_file>\n<read_file><path>b</path></read_file>\n" +
			"<tool_result tool_name=\"read_file\">\nA <b>\n</tool_result>\n<tool_result tool_name='read_file'>Error: no b</tool_result>" +
			"<tool_result tool_name=\"x>y\">z</tool_result><tool_result>w</tool_result>",
		want: seq(call(1, "read_file", `{"path":"a"}`), call(2, "read_file", `{"path":"b"}`), []item{
			{Event: &event.ToolResult{ID: "inline-1", Name: "read_file", Content: []event.Part{{Type: "text", Text: "A <b>"}}}},
			{Event: &event.ToolResult{ID: "inline-2", Name: "read_file", IsError: true, Content: []event.Part{{Type: "text", Text: "Error: no b"}}}},
			{Event: &event.ToolResult{Name: "x>y", Content: []event.Part{{Type: "text", Text: "z"}}}},
			{Event: &event.ToolResult{Content: []event.Part{{Type: "text", Text: "w"}}}},
		}),
	},
	{
		name: "unclosed tool result is text",
		in:   "<tool_result tool_name=\"a\">partial",
		want: seq(text("<tool_result tool_name=\"a\">partial"), problem("<input>:1:1: the input ended inside <tool_result>; kept as text")),
	},
	{
		name: "tool result open tag broken by a less-than",
		in:   "<tool_result tool_name=x <read_file><path>a</path></read_file>",
		want: seq(text("<tool_result tool_name=x "), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		name: "utf-8",
		in:   "héllo 😀 <read_file><path>naïve/文件.txt</path></read_file>",
		want: seq(text("héllo 😀 "), call(1, "read_file", `{"path":"naïve/文件.txt"}`)),
	},
	{
		// Every chunking gives the same events (TestChunking): a rune
		// split across reads is joined, never replaced.
		name: "invalid utf-8 becomes U+FFFD",
		in:   "a\xff b\xe2\x82 é😀 <read_file><path>x\xfe/文</path></read_file> c\xf0\x9f",
		want: append(seq(text("a\uFFFD b\uFFFD\uFFFD é😀 "), call(1, "read_file", `{"path":"x`+"\uFFFD"+`/文"}`), text(" c\uFFFD\uFFFD")),
			eventtest.Item{Err: "<input>: offset 1: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)"}),
	},
}

func mustTools(s string) []toolset.Tool {
	t, err := toolset.Parse([]byte(s))
	if err != nil {
		panic(err)
	}
	return t
}

func mustFlags(s ...string) []toolset.Tool {
	t, err := toolset.ParseFlags(s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestDecode(t *testing.T) {
	t.Parallel()
	for _, tt := range decodeTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := eventtest.Collect(NewDecoder(strings.NewReader(tt.in), tt.cfg))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestChunking checks that any split of the input, down to one byte, gives
// the same events, through the plain decoder and through Wrap.
func TestChunking(t *testing.T) {
	t.Parallel()
	for _, tt := range decodeTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := eventtest.Collect(NewDecoder(strings.NewReader(tt.in), tt.cfg))
			readers := map[string]func() event.Decoder{
				"OneByteReader": func() event.Decoder {
					return NewDecoder(iotest.OneByteReader(strings.NewReader(tt.in)), tt.cfg)
				},
				"HalfReader": func() event.Decoder {
					return NewDecoder(iotest.HalfReader(strings.NewReader(tt.in)), tt.cfg)
				},
				"DataErrReader": func() event.Decoder {
					return NewDecoder(iotest.DataErrReader(strings.NewReader(tt.in)), tt.cfg)
				},
			}
			for name, dec := range readers {
				if diff := cmp.Diff(want, eventtest.Collect(dec())); diff != "" {
					t.Errorf("%s (-whole +chunked):\n%s", name, diff)
				}
			}
			for _, n := range []int{1, 2, 3, 7} {
				src := &eventtest.Source{Events: eventtest.TextBlock("", tt.in, n)}
				got := eventtest.Collect(Wrap(src, tt.cfg))
				if diff := cmp.Diff(eventtest.Normalise(want), eventtest.Normalise(eventtest.RunEndFirst(got))); diff != "" {
					t.Errorf("Wrap, %d-byte deltas (-plain +wrapped):\n%s", n, diff)
				}
			}
		})
	}
}

// TestStreaming checks that text is released as soon as it cannot be a
// tag: what the decoder yields before reading the next chunk.
func TestStreaming(t *testing.T) {
	t.Parallel()
	chunks := []string{"Let me look.\n<read", "_file>\n<path>src/a.ts</", "path>\n</read_file>", "\nNext <b", "> x"}
	r := &eventtest.ChunkReader{Chunks: chunks}
	dec := NewDecoder(r, nil)
	var got []string
	for {
		ev, err := dec.Next()
		if err != nil {
			break
		}
		switch ev := ev.(type) {
		case *event.Delta:
			got = append(got, string(rune('0'+r.N))+" "+ev.Text)
		case *event.ToolCall:
			got = append(got, string(rune('0'+r.N))+" call "+string(ev.Input))
		}
	}
	want := []string{
		"1 Let me look.\n",
		"3 call {\"path\":\"src/a.ts\"}",
		"4 Next ",
		"5 <b> x",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chunk read before each event (-want +got):\n%s", diff)
	}
}

// TestRandomSplits checks random chunkings of the golden samples.
func TestRandomSplits(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range decodeTests {
		want := eventtest.Collect(NewDecoder(strings.NewReader(tt.in), tt.cfg))
		for range 5 {
			var chunks []string
			for s := tt.in; s != ""; {
				n := 1 + rng.IntN(len(s))
				chunks = append(chunks, s[:n])
				s = s[n:]
			}
			got := eventtest.Collect(NewDecoder(&eventtest.ChunkReader{Chunks: chunks}, tt.cfg))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s split %q (-whole +split):\n%s", tt.name, chunks, diff)
			}
		}
	}
}
