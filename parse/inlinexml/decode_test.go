package inlinexml

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/toolset"
)

type item = eventtest.Item

func call(n int, name, input string) []item {
	return []item{{Event: &event.ToolCall{ID: "inline-" + string(rune('0'+n)), Name: name, Input: json.RawMessage(input)}}}
}

var text, thought, problem, seq = eventtest.TextItems, eventtest.Thought, eventtest.Problem, eventtest.Seq

func done(result string) []item {
	return []item{{Event: &event.RunEnd{StopReason: Completion, Result: result}}}
}

type decodeTest = eventtest.TextCase[*Config]

// decodeTests cover the grammar, and name the reference implementations'
// bugs and quirks (docs/formats/inlinexml.md) that each one shows we do
// not reproduce.
var decodeTests = []decodeTest{
	{Name: "plain text", In: "Hello, world.", Want: text("Hello, world.")},
	{Name: "empty", In: "", Want: nil},
	{Name: "white space only", In: " \n ", Want: text(" \n ")},
	{
		Name: "white space between elements is layout",
		In:   "<thinking>t</thinking>\n\n<read_file><path>a</path></read_file>\n",
		Want: seq(thought("t"), call(1, "read_file", `{"path":"a"}`)),
	},
	{Name: "white space before a false call is kept", In: "\n<read_file> reads", Want: text("\n<read_file> reads")},
	{
		Name: "read_file call",
		In:   "I will read it.\n<read_file>\n<path>src/a.ts</path>\n</read_file>",
		Want: seq(text("I will read it.\n"), call(1, "read_file", `{"path":"src/a.ts"}`)),
	},
	{
		// Cline and Roo trim the text before a tool call (§4.2).
		Name: "quirk text before a call is not trimmed",
		In:   "  Let me look.  \n\n<list_files><path>.</path></list_files>",
		Want: seq(text("  Let me look.  \n\n"), call(1, "list_files", `{"path":"."}`)),
	},
	{
		// Cline and Roo keep <thinking> inside the text block (§4.2).
		Name: "quirk thinking is a thinking block",
		In:   "<thinking>User wants a < b.</thinking>\n<read_file><path>a</path></read_file>",
		Want: seq(thought("User wants a < b."), call(1, "read_file", `{"path":"a"}`)),
	},
	{Name: "think tag", In: "<think>hmm</think>Answer.", Want: seq(thought("hmm"), text("Answer."))},
	{Name: "empty thinking", In: "<thinking></thinking>x", Want: seq(thought(""), text("x"))},
	{
		Name: "values are raw text",
		In: "<execute_command>\n<command>if [ 1 < 2 ]; then echo '<b>&amp;</b>'; fi</command>\n" +
			"<requires_approval>false</requires_approval>\n</execute_command>",
		Want: call(1, "execute_command", `{"command":"if [ 1 < 2 ]; then echo '<b>&amp;</b>'; fi","requires_approval":"false"}`),
	},
	{
		// Cline and Roo cut a streaming content value at the first
		// </content>; the last one before the tool close is the close.
		Name: "quirk write_to_file body holding its own close tag",
		In:   "<write_to_file>\n<path>x.xml</path>\n<content>\n<a>\n</content>\n</a>\n</content>\n</write_to_file>",
		Want: call(1, "write_to_file", `{"path":"x.xml","content":"<a>\n</content>\n</a>"}`),
	},
	{
		Name: "content close tag followed by the next parameter",
		In:   "<write_to_file><content>x</content> y</content>\n<path>p</path></write_to_file>",
		Want: call(1, "write_to_file", `{"content":"x</content> y","path":"p"}`),
	},
	{
		// Cline trims every value, losing a file's indentation and
		// trailing white space; content keeps all but one newline each
		// side (Roo's rule), other values are trimmed.
		Name: "quirk content keeps its white space",
		In:   "<write_to_file><path> a.py </path><content>\n    indented\n\n</content></write_to_file>",
		Want: call(1, "write_to_file", `{"path":"a.py","content":"    indented\n"}`),
	},
	{
		Name: "crlf around values",
		In:   "<write_to_file>\r\n<path>a</path>\r\n<content>\r\nx\r\n</content>\r\n</write_to_file>",
		Want: call(1, "write_to_file", `{"path":"a","content":"x"}`),
	},
	{
		Name: "replace_in_file diff",
		In:   "<replace_in_file><path>a.go</path><diff>\n------- SEARCH\nif a < b {\n=======\nif a <= b {\n+++++++ REPLACE\n</diff></replace_in_file>",
		Want: call(1, "replace_in_file", `{"path":"a.go","diff":"------- SEARCH\nif a < b {\n=======\nif a <= b {\n+++++++ REPLACE"}`),
	},
	{
		// A parameter's text "a <" followed by its close: the second '<'
		// starts the close tag (netdata's N5, for this protocol).
		Name: "N5 close tag right after a less-than",
		In:   "<search_files><path>.</path><regex>a <</regex></search_files>",
		Want: call(1, "search_files", `{"path":".","regex":"a <"}`),
	},
	{
		Name: "less-than before a tool open tag",
		In:   "x <<read_file><path>a</path></read_file>",
		Want: seq(text("x <"), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		// Cline and Roo start a tool at a whitelisted tag inside inline
		// code (§4.2).
		Name: "quirk false positive in inline code",
		In:   "Use `<read_file>` with a `<path>`.\nDone.",
		Want: text("Use `<read_file>` with a `<path>`.\nDone."),
	},
	{
		Name: "inline code ends at a newline",
		In:   "an odd ` backtick\n<read_file><path>a</path></read_file>",
		Want: seq(text("an odd ` backtick\n"), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		Name: "double backtick code span",
		In:   "``a ` <read_file>`` <list_files><path>.</path></list_files>",
		Want: seq(text("``a ` <read_file>`` "), call(1, "list_files", `{"path":"."}`)),
	},
	{
		Name: "fenced tool call is a call",
		In:   "```xml\n<read_file><path>a</path></read_file>\n```",
		Want: seq(text("```xml\n"), call(1, "read_file", `{"path":"a"}`), text("```")),
	},
	{Name: "quirk false positive in prose", In: "The <read_file> tool reads a file.", Want: text("The <read_file> tool reads a file.")},
	{
		Name: "tags with attributes stay text",
		In:   `<read_file path="x"/> and <read_file path="y"></read_file>`,
		Want: text(`<read_file path="x"/> and <read_file path="y"></read_file>`),
	},
	{
		Name: "unknown tags stay text",
		In:   "<div><b>bold</b></div> <tool_name>x</tool_name>",
		Want: text("<div><b>bold</b></div> <tool_name>x</tool_name>"),
	},
	{Name: "case sensitive", In: "<READ_FILE><path>a</path></READ_FILE>", Want: text("<READ_FILE><path>a</path></READ_FILE>")},
	{
		// Cline and Roo accept any parameter of any tool (a global
		// whitelist, §4.2); parameters are per tool.
		Name: "quirk parameters are per tool",
		In:   "<read_file><command>ls</command></read_file>",
		Want: text("<read_file><command>ls</command></read_file>"),
	},
	{
		Name: "text between parameters is reported",
		In:   "<read_file><path>a</path> oops </read_file>",
		Want: seq(problem("<input>:1:27: text between the parameters of <read_file> ignored: \"oops\""), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		Name: "several calls",
		In:   "<read_file><path>a</path></read_file><read_file><path>b</path></read_file>",
		Want: seq(call(1, "read_file", `{"path":"a"}`), call(2, "read_file", `{"path":"b"}`)),
	},
	{
		Name: "repeated parameter keeps the last value",
		In:   "<read_file><path>a</path><path>b</path></read_file>",
		Want: call(1, "read_file", `{"path":"b"}`),
	},
	{Name: "tool without parameters", In: "<load_mcp_documentation></load_mcp_documentation>", Want: call(1, "load_mcp_documentation", `{}`)},
	{
		Name: "attempt_completion",
		In:   "<attempt_completion>\n<result>\nIt works: a < b.\n</result>\n<command>open index.html</command>\n</attempt_completion>",
		Want: seq(call(1, "attempt_completion", `{"result":"It works: a < b.","command":"open index.html"}`), done("It works: a < b.")),
	},
	{
		Name: "text after completion precedes the run end",
		In:   "<attempt_completion><result>ok</result></attempt_completion> bye",
		Want: seq(call(1, "attempt_completion", `{"result":"ok"}`), text(" bye"), done("ok")),
	},
	{
		Name: "unclosed call at the end is text",
		In:   "Reading.\n<read_file>\n<path>src/a.ts</",
		Want: []item{
			{Event: &event.BlockStart{Kind: event.Text}},
			{Event: &event.Delta{Kind: event.Text, Text: "Reading.\n<read_file>\n<path>src/a.ts</"}},
			{Event: &event.BlockEnd{Kind: event.Text}},
			{Err: "<input>:2:1: the input ended inside <read_file>; the call is kept as text"},
		},
	},
	{
		Name: "unclosed thinking at the end keeps its text",
		In:   "<thinking>abcdefghijklmnop",
		Want: seq(thought("abcdefghijklmnop"), problem("<input>:1:27: the input ended inside <thinking>")),
	},
	{
		// netdata's N7: a trailing partial tag is lost at the end.
		Name: "N7 trailing less-than is kept",
		In:   "partial <",
		Want: text("partial <"),
	},
	{Name: "trailing partial tag is kept", In: "see <read_fi", Want: text("see <read_fi")},
	{
		Name: "schema types from a tools file",
		In:   "<read_file><path>a</path><start_line>10</start_line><end_line>x</end_line><opts>{\"a\":1}</opts><all>true</all></read_file>",
		Cfg: &Config{Tools: mustTools(`[{"name":"read_file","input_schema":{"type":"object","properties":{
			"path":{"type":"string"},"start_line":{"type":"integer"},"end_line":{"type":["integer","null"]},
			"opts":{"type":"object"},"all":{"type":"boolean"}}}}]`)},
		Want: call(1, "read_file", `{"path":"a","start_line":10,"end_line":"x","opts":{"a":1},"all":true}`),
	},
	{
		Name: "tool names from flags accept any parameter",
		In:   "<search><query>auth</query><path>src</path><allow_tests>false</allow_tests></search><read_file><path>a</path></read_file>",
		Cfg:  &Config{Tools: mustFlags("search")},
		Want: seq(call(1, "search", `{"query":"auth","path":"src","allow_tests":"false"}`), text("<read_file><path>a</path></read_file>")),
	},
	{
		Name: "call larger than the cap is text",
		In:   "<read_file><path>" + strings.Repeat("a", 40) + "</path></read_file> ok",
		Cfg:  &Config{MaxCallBytes: 16},
		Want: seq(problem("<input>:1:1: <read_file> larger than 16 bytes; kept as text"), text("<read_file><path>"+strings.Repeat("a", 40)+"</path></read_file> ok")),
	},
	{
		Name: "tool results pair with calls",
		In: "<read_file><path>a</path></read_file>\n<read_file><path>b</path></read_file>\n" +
			"<tool_result tool_name=\"read_file\">\nA <b>\n</tool_result>\n<tool_result tool_name='read_file'>Error: no b</tool_result>" +
			"<tool_result tool_name=\"x>y\">z</tool_result><tool_result>w</tool_result>",
		Want: seq(call(1, "read_file", `{"path":"a"}`), call(2, "read_file", `{"path":"b"}`), []item{
			{Event: &event.ToolResult{ID: "inline-1", Name: "read_file", Content: []event.Part{{Type: "text", Text: "A <b>"}}}},
			{Event: &event.ToolResult{ID: "inline-2", Name: "read_file", IsError: true, Content: []event.Part{{Type: "text", Text: "Error: no b"}}}},
			{Event: &event.ToolResult{Name: "x>y", Content: []event.Part{{Type: "text", Text: "z"}}}},
			{Event: &event.ToolResult{Content: []event.Part{{Type: "text", Text: "w"}}}},
		}),
	},
	{
		Name: "unclosed tool result is text",
		In:   "<tool_result tool_name=\"a\">partial",
		Want: seq(text("<tool_result tool_name=\"a\">partial"), problem("<input>:1:1: the input ended inside <tool_result>; kept as text")),
	},
	{
		Name: "tool result open tag broken by a less-than",
		In:   "<tool_result tool_name=x <read_file><path>a</path></read_file>",
		Want: seq(text("<tool_result tool_name=x "), call(1, "read_file", `{"path":"a"}`)),
	},
	{
		Name: "utf-8",
		In:   "héllo 😀 <read_file><path>naïve/文件.txt</path></read_file>",
		Want: seq(text("héllo 😀 "), call(1, "read_file", `{"path":"naïve/文件.txt"}`)),
	},
	{
		// Every chunking gives the same events (TestChunking): a rune
		// split across reads is joined, never replaced.
		Name: "invalid utf-8 becomes U+FFFD",
		In:   "Answer: a\xff b\xe2\x82 é😀 <read_file><path>x\xfe/文</path></read_file> c\xf0\x9f",
		Want: append(seq(text("Answer: a\uFFFD b\uFFFD\uFFFD é😀 "), call(1, "read_file", `{"path":"x`+"\uFFFD"+`/文"}`), text(" c\uFFFD\uFFFD")),
			eventtest.Item{Err: "<input>: offset 9: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)"}),
	},
	{
		Name: "binary data is refused",
		In:   "a\xff b <read_file><path>x</path></read_file>",
		Want: []eventtest.Item{{Err: "<input>:1:1: not model text: it looks like binary data"}},
	},
	{
		Name: "an HTML page is refused",
		In:   "\n<!DOCTYPE html>\n<html><body>502 Bad Gateway</body></html>\n",
		Want: []eventtest.Item{{Err: "<input>:1:1: not model text: it looks like an HTML document"}},
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

// decoding runs decodeTests through NewDecoder and Wrap.
var decoding = eventtest.TextCases[*Config, *Decoder]{Cases: decodeTests, Decoder: NewDecoder, Wrap: Wrap}

func TestDecode(t *testing.T) {
	t.Parallel()
	decoding.Decode(t)
}

// TestChunking checks that any split of the input, down to one byte, gives
// the same events, through the plain decoder and through Wrap.
func TestChunking(t *testing.T) {
	t.Parallel()
	decoding.Chunking(t, 1, 2, 3, 7)
}

// TestStreaming checks that text is released as soon as it cannot be a
// tag: what the decoder yields before reading the next chunk.
func TestStreaming(t *testing.T) {
	t.Parallel()
	chunks := []string{"Let me look.\n<read", "_file>\n<path>src/a.ts</", "path>\n</read_file>", "\nNext <b", "> x"}
	r := &eventtest.ChunkReader{Chunks: chunks}
	got := eventtest.Streamed(NewDecoder(r, nil), r, func(ev event.Event) string {
		switch ev := ev.(type) {
		case *event.Delta:
			return ev.Text
		case *event.ToolCall:
			return "call " + string(ev.Input)
		}
		return ""
	})
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
	decoding.RandomSplits(t)
}
