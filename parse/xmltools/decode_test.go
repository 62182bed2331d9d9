package xmltools

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

func call(id, name, input string) []item {
	return []item{{Event: &event.ToolCall{ID: id, Name: name, Input: json.RawMessage(input)}}}
}

var text, thought, problem, seq = eventtest.TextItems, eventtest.Thought, eventtest.Problem, eventtest.Seq

func final(result, status, meta string) []item {
	return []item{{Event: &event.RunEnd{
		StopReason: status, IsError: status == "failure", Result: result,
		Meta: json.RawMessage(meta), MetaKind: "xmltools",
	}}}
}

func notice(kind, msg, raw string) []item {
	return []item{{Event: &event.Notice{Kind: kind, Message: msg, Raw: json.RawMessage(raw)}}}
}

// textWith is one text block whose content is interrupted by problems.
func textWith(parts ...string) []item {
	its := []item{{Event: &event.BlockStart{Kind: event.Text}}}
	for _, p := range parts {
		if msg, ok := strings.CutPrefix(p, "!"); ok {
			its = append(its, item{Err: msg})
		} else {
			its = append(its, item{Event: &event.Delta{Kind: event.Text, Text: p}})
		}
	}
	return append(its, item{Event: &event.BlockEnd{Kind: event.Text}})
}

const (
	echo  = `<ai-agent-abcd1234-0001 tool="echo">{"x":1}</ai-agent-abcd1234-0001>`
	echoC = `{"x":1}`
)

type decodeTest = eventtest.TextCase[*Config]

// decodeTests follow reference-notes.md §3.4 and §3.5: each netdata bug
// N1–N7 and observed pair has a case showing what we do instead.
var decodeTests = []decodeTest{
	{Name: "plain text", In: "Hello.", Want: text("Hello.")},
	{Name: "3.4.1 one slot", In: echo, Want: call("abcd1234-0001", "echo", echoC)},
	{
		Name: "3.4.3 text around a slot",
		In:   "Sure. " + echo + " done",
		Want: seq(text("Sure. "), call("abcd1234-0001", "echo", echoC), text(" done")),
	},
	{
		Name: "3.4.4 FINAL infers its tool",
		In:   `<ai-agent-abcd1234-FINAL format="markdown">Report</ai-agent-abcd1234-FINAL>`,
		Want: seq(text("Report"), final("Report", "success", `{"format":"markdown","slot":"abcd1234-FINAL"}`)),
	},
	{
		Name: "FINAL with status and white space",
		In:   "pre <ai-agent-abcd1234-FINAL tool=\"agent__final_report\" status=\"failure\" format=\"text\">\n  Could not.\n</ai-agent-abcd1234-FINAL> post",
		Want: seq(text("pre "), text("\n  Could not.\n"), text(" post"),
			final("Could not.", "failure", `{"format":"text","slot":"abcd1234-FINAL","status":"failure"}`)),
	},
	{
		Name: "3.4.5 PROGRESS",
		In:   `<ai-agent-abcd1234-PROGRESS tool="agent__progress_report">Found X</ai-agent-abcd1234-PROGRESS>`,
		Want: notice("progress", "Found X", `"Found X"`),
	},
	{
		Name: "PROGRESS as JSON",
		In:   `<ai-agent-abcd1234-PROGRESS>{"progress":"50%"}</ai-agent-abcd1234-PROGRESS>`,
		Want: notice("progress", "50%", `{"progress":"50%"}`),
	},
	{
		Name: "3.4.6 wrong nonce is reported, the right one parsed",
		In:   `<ai-agent-abcd1234-0001 tool="echo">{}</ai-agent-abcd1234-0001><ai-agent-ffff0000-0002 tool="echo">{}</ai-agent-ffff0000-0002>`,
		Want: seq(call("abcd1234-0001", "echo", `{}`), textWith(`<ai-agent-ffff0000-0002 tool="echo">`,
			"!<input>:1:64: invalid tag <ai-agent-ffff0000-0002>: nonce does not match abcd1234; kept as text",
			`{}</ai-agent-ffff0000-0002>`)),
	},
	{
		Name: "given nonce",
		In:   `<ai-agent-abcd1234-0001 tool="echo">{}</ai-agent-abcd1234-0001>`,
		Cfg:  &Config{Nonce: "ai-agent-0badcafe"},
		Want: textWith(`<ai-agent-abcd1234-0001 tool="echo">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: nonce does not match 0badcafe; kept as text",
			`{}</ai-agent-abcd1234-0001>`),
	},
	{
		// netdata drops tool='echo' and tool = "echo" silently.
		Name: "3.4.7 single quotes and spaces around =",
		In:   `<ai-agent-abcd1234-0001 tool='echo'>{}</ai-agent-abcd1234-0001><ai-agent-abcd1234-0002 tool = "echo">{}</ai-agent-abcd1234-0002>`,
		Want: seq(call("abcd1234-0001", "echo", `{}`), call("abcd1234-0002", "echo", `{}`)),
	},
	{
		// netdata ends the open tag at the first '>': payload b">R.
		Name: "N2 greater-than in a quoted attribute",
		In:   `<ai-agent-abcd1234-FINAL format="a>b">R</ai-agent-abcd1234-FINAL>`,
		Want: seq(text("R"), final("R", "success", `{"format":"a>b","slot":"abcd1234-FINAL"}`)),
	},
	{
		Name: "3.4.9 same-slot open inside the payload ends at the first close",
		In:   `<ai-agent-abcd1234-0001 tool="echo">{"a":"<ai-agent-abcd1234-0001 tool=\"x\">"}</ai-agent-abcd1234-0001>tail`,
		Want: seq(call("abcd1234-0001", "echo", `{"a":"<ai-agent-abcd1234-0001 tool=\"x\">"}`), text("tail")),
	},
	{
		// netdata never closes on "</…-0001 >".
		Name: "3.4.10 space before > in a close tag",
		In:   `<ai-agent-abcd1234-0001 tool="echo">{}</ai-agent-abcd1234-0001 >`,
		Want: call("abcd1234-0001", "echo", `{}`),
	},
	{
		Name: "3.4.11 case sensitive",
		In:   `<AI-AGENT-abcd1234-0001 tool="echo">{}</AI-AGENT-abcd1234-0001>`,
		Want: text(`<AI-AGENT-abcd1234-0001 tool="echo">{}</AI-AGENT-abcd1234-0001>`),
	},
	{
		// netdata parses a tag inside a non-leading <think>.
		Name: "N3 tag inside a later think is thinking",
		In:   "Answer first. <think>maybe " + echo + "</think> after",
		Want: seq(text("Answer first. "), thought("maybe "+echo), text(" after")),
	},
	{
		Name: "3.4.12 leading think with an example tag",
		In:   "  <think>example " + echo + "</think>" + echo,
		Want: seq(thought("example "+echo), call("abcd1234-0001", "echo", echoC)),
	},
	{
		// netdata accepts <…-0001.foo …> as slot 0001 (word boundary).
		Name: "N4 slot with a suffix is not declared",
		In:   `<ai-agent-abcd1234-0001.foo tool="echo">{}</ai-agent-abcd1234-0001>`,
		Want: textWith(`<ai-agent-abcd1234-0001.foo tool="echo">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001.foo>: slot \"0001.foo\" is not declared; kept as text",
			`{}</ai-agent-abcd1234-0001>`),
	},
	{
		Name: "3.4.13 slot 0001x is not declared",
		In:   `<ai-agent-abcd1234-0001x tool="echo">{}</ai-agent-abcd1234-0001x>`,
		Want: textWith(`<ai-agent-abcd1234-0001x tool="echo">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001x>: slot \"0001x\" is not declared; kept as text",
			`{}</ai-agent-abcd1234-0001x>`),
	},
	{
		Name: "slots beyond the declared count",
		In:   `<ai-agent-abcd1234-0003 tool="echo">{}</ai-agent-abcd1234-0003>`,
		Cfg:  &Config{Slots: 2},
		Want: textWith(`<ai-agent-abcd1234-0003 tool="echo">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0003>: slot \"0003\" is not declared; kept as text",
			`{}</ai-agent-abcd1234-0003>`),
	},
	{
		Name: "tool not allowed",
		In:   `<ai-agent-abcd1234-0001 tool="rm">{}</ai-agent-abcd1234-0001>`,
		Cfg:  &Config{Tools: []toolset.Tool{{Name: "echo"}}},
		Want: textWith(`<ai-agent-abcd1234-0001 tool="rm">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: tool \"rm\" is not allowed; kept as text",
			`{}</ai-agent-abcd1234-0001>`),
	},
	{
		Name: "missing tool attribute",
		In:   `<ai-agent-abcd1234-0001>{}</ai-agent-abcd1234-0001>`,
		Want: textWith(`<ai-agent-abcd1234-0001>`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: no tool attribute; kept as text",
			`{}</ai-agent-abcd1234-0001>`),
	},
	{
		Name: "empty payload",
		In:   "<ai-agent-abcd1234-0001 tool=\"echo\">  \n</ai-agent-abcd1234-0001>",
		Want: textWith("<ai-agent-abcd1234-0001 tool=\"echo\">  \n</ai-agent-abcd1234-0001>",
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: empty payload; kept as text"),
	},
	{
		Name: "payload not JSON",
		In:   `<ai-agent-abcd1234-0001 tool="echo">{x:1}</ai-agent-abcd1234-0001>`,
		Want: textWith(`<ai-agent-abcd1234-0001 tool="echo">{x:1}</ai-agent-abcd1234-0001>`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: payload is not JSON; kept as text"),
	},
	{
		Name: "3.4.14 self-closing",
		In:   `<ai-agent-abcd1234-0001 tool="echo"/>`,
		Want: textWith(`<ai-agent-abcd1234-0001 tool="echo"/>`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: empty payload (self-closing tag); kept as text"),
	},
	{
		Name: "close tag without open",
		In:   `a </ai-agent-abcd1234-0001> b`,
		Want: textWith(`a </ai-agent-abcd1234-0001>`,
			"!<input>:1:3: close tag </ai-agent-abcd1234-0001> without an open tag; kept as text", " b"),
	},
	{
		// netdata leaks the close tag as text after "a <".
		Name: "N5 close tag right after a less-than",
		In:   `<ai-agent-abcd1234-FINAL format="md">a <</ai-agent-abcd1234-FINAL>tail`,
		Want: seq(text("a <"), text("tail"), final("a <", "success", `{"format":"md","slot":"abcd1234-FINAL"}`)),
	},
	{
		Name: "N5 open tag right after a less-than",
		In:   "x <" + echo,
		Want: seq(text("x <"), call("abcd1234-0001", "echo", echoC)),
	},
	{
		Name: "less-than and tags inside FINAL are preserved",
		In:   `<ai-agent-abcd1234-FINAL format="md">a < b <b>x</b></ai-agent-abcd1234-FINAL>`,
		Want: seq(text("a < b <b>x</b>"), final("a < b <b>x</b>", "success", `{"format":"md","slot":"abcd1234-FINAL"}`)),
	},
	{
		Name: "META inside FINAL",
		In:   `<ai-agent-abcd1234-FINAL format="md">ans<ai-agent-abcd1234-META plugin="p">{"k":1}</ai-agent-abcd1234-META>wer</ai-agent-abcd1234-FINAL>`,
		Want: seq(
			[]item{{Event: &event.BlockStart{Kind: event.Text}}, {Event: &event.Delta{Kind: event.Text, Text: "ans"}}},
			notice("meta", "p", `{"k":1}`),
			[]item{{Event: &event.Delta{Kind: event.Text, Text: "wer"}}, {Event: &event.BlockEnd{Kind: event.Text}}},
			final("answer", "success", `{"format":"md","slot":"abcd1234-FINAL"}`)),
	},
	{
		Name: "META at top level with single quotes",
		In:   `<ai-agent-abcd1234-META plugin='p'>{"k":1}</ai-agent-abcd1234-META>`,
		Want: notice("meta", "p", `{"k":1}`),
	},
	{
		// netdata's META filter drops a trailing "<" at the end.
		Name: "N7 trailing less-than is kept",
		In:   "partial <",
		Want: text("partial <"),
	},
	{
		Name: "N7 trailing partial tag is kept",
		In:   "partial <ai-agent-abcd",
		Want: text("partial <ai-agent-abcd"),
	},
	{
		// ThinkTagStreamFilter has no flush and lags 8 characters.
		Name: "unterminated think keeps all its text",
		In:   "<think>abcdefghijklmnop",
		Want: seq(thought("abcdefghijklmnop"), problem("<input>:1:24: the input ended inside <think>")),
	},
	{
		Name: "stream ending in a partial think tag",
		In:   "<thi",
		Want: text("<thi"),
	},
	{
		Name: "think with attributes and thought are text",
		In:   "<think foo>x</think> <thought>y</thought>",
		Want: text("<think foo>x</think> <thought>y</thought>"),
	},
	{
		Name: "unclosed slot is text",
		In:   `<ai-agent-abcd1234-0001 tool="echo">{"x":`,
		Want: seq(text(`<ai-agent-abcd1234-0001 tool="echo">{"x":`), problem("<input>:1:1: the input ended inside <ai-agent-abcd1234-0001>; kept as text")),
	},
	{
		Name: "unclosed FINAL is accepted",
		In:   `<ai-agent-abcd1234-FINAL format="md">Half a rep`,
		Want: seq(text("Half a rep"),
			final("Half a rep", "success", `{"format":"md","slot":"abcd1234-FINAL","truncated":true}`),
			problem("<input>:1:1: the input ended inside <ai-agent-abcd1234-FINAL>; the report is accepted")),
	},
	{
		Name: "XML-PAST result",
		In: echo + "\n<ai-agent-abcd1234-0001 tool=\"echo\" status=\"ok\"  duration=\"1.23s\">\n<request>\n{\"x\":1}\n</request>\n" +
			"<response>\nhello <b>\n</response>\n</ai-agent-abcd1234-0001>",
		Want: seq(call("abcd1234-0001", "echo", echoC),
			[]item{{Event: &event.ToolResult{
				ID: "abcd1234-0001", Name: "echo", Status: "ok",
				Content: []event.Part{{Type: "text", Text: "hello <b>"}},
			}}}),
	},
	{
		Name: "XML-PAST failure",
		In:   "<ai-agent-abcd1234-0002 tool=\"echo\" status=\"failed\"><response>boom</response></ai-agent-abcd1234-0002>",
		Want: []item{{Event: &event.ToolResult{
			ID: "abcd1234-0002", Name: "echo", Status: "failed", IsError: true,
			Content: []event.Part{{Type: "text", Text: "boom"}},
		}}},
	},
	{
		// Every chunking gives the same events (TestChunking): a rune
		// split across reads is joined, never replaced.
		Name: "invalid utf-8 becomes U+FFFD",
		In:   "Answer: a\xff é <ai-agent-abcd1234-0002 tool=\"echo\" status=\"failed\"><response>b\xe2\x82😀</response></ai-agent-abcd1234-0002>\xf0\x9f",
		Want: seq(text("Answer: a\uFFFD é "), []item{{Event: &event.ToolResult{
			ID: "abcd1234-0002", Name: "echo", Status: "failed", IsError: true,
			Content: []event.Part{{Type: "text", Text: "b\uFFFD\uFFFD😀"}},
		}}}, text("\uFFFD\uFFFD"), []item{{Err: "<input>: offset 9: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)"}}),
	},
	{
		Name: "reused slot gets a unique id",
		In:   echo + echo,
		Want: seq(call("abcd1234-0001", "echo", echoC), call("abcd1234-0001.2", "echo", echoC)),
	},
	{
		Name: "slot larger than the cap is text",
		In:   `<ai-agent-abcd1234-0001 tool="echo">{"x":"` + strings.Repeat("a", 64) + `"}</ai-agent-abcd1234-0001> ok`,
		Cfg:  &Config{MaxSlotBytes: 48},
		Want: seq(problem("<input>:1:1: slot <ai-agent-abcd1234-0001> larger than 48 bytes; kept as text"),
			text(`<ai-agent-abcd1234-0001 tool="echo">{"x":"`+strings.Repeat("a", 64)+`"}</ai-agent-abcd1234-0001> ok`)),
	},
}

// decoding runs decodeTests through NewDecoder and Wrap.
var decoding = eventtest.TextCases[*Config, *Decoder]{Cases: decodeTests, Decoder: NewDecoder, Wrap: Wrap}

func TestDecode(t *testing.T) {
	t.Parallel()
	decoding.Decode(t)
}

// TestChunking checks that any split of the input, down to one byte, gives
// the same events (netdata's N1 and N6 are chunking bugs).
func TestChunking(t *testing.T) {
	t.Parallel()
	decoding.Chunking(t, 1, 2, 5)
}

// TestN1 splits inside the nonce, where netdata discards the occurrence.
func TestN1(t *testing.T) {
	t.Parallel()
	chunks := []string{`<ai-`, `agent-abcd`, `1234-0001 to`, `ol="echo">{"x"`, `:1}</ai-agent-abcd1234-00`, `01>`}
	got := eventtest.Collect(NewDecoder(&eventtest.ChunkReader{Chunks: chunks}, nil))
	if diff := cmp.Diff(call("abcd1234-0001", "echo", echoC), got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestN6 sends a think block holding an example tag in two chunks, the
// close of the think in the second: netdata returns the example too.
func TestN6(t *testing.T) {
	t.Parallel()
	chunks := []string{
		`<think>example <ai-agent-abcd1234-0001 tool="echo">{"x":0}</ai-agent-abcd1234-0001>`,
		` more</think><ai-agent-abcd1234-0001 tool="echo">{"x":1}</ai-agent-abcd1234-0001>`,
	}
	got := eventtest.Collect(NewDecoder(&eventtest.ChunkReader{Chunks: chunks}, nil))
	want := seq(thought(`example <ai-agent-abcd1234-0001 tool="echo">{"x":0}</ai-agent-abcd1234-0001> more`),
		call("abcd1234-0001", "echo", echoC))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestStreaming checks what the decoder yields before it reads the next
// chunk: FINAL's report streams, text before a tag is released at once,
// and a think block has no lag.
func TestStreaming(t *testing.T) {
	t.Parallel()
	chunks := []string{"<think>abc", "def</think>pre <ai-", "agent-abcd1234-FINAL format=\"md\">Hel", "lo </ai-agent-abcd1234-FI", "NAL> post"}
	r := &eventtest.ChunkReader{Chunks: chunks}
	got := eventtest.Streamed(NewDecoder(r, nil), r, func(ev event.Event) string {
		if d, ok := ev.(*event.Delta); ok {
			return string(d.Kind) + " " + d.Text
		}
		return ""
	})
	want := []string{"1 thinking abc", "2 thinking def", "2 text pre ", "3 text Hel", "4 text lo ", "5 text  post"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chunk read before each delta (-want +got):\n%s", diff)
	}
}
