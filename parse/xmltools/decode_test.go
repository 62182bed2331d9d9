package xmltools

import (
	"encoding/json"
	"io"
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

func call(id, name, input string) []item {
	return []item{{Event: &event.ToolCall{ID: id, Name: name, Input: json.RawMessage(input)}}}
}

func problem(msg string) []item { return []item{{Err: msg}} }

func final(result, status, meta string) []item {
	return []item{{Event: &event.RunEnd{
		StopReason: status, IsError: status == "failure", Result: result,
		Meta: json.RawMessage(meta), MetaKind: "xmltools",
	}}}
}

func notice(kind, msg, raw string) []item {
	return []item{{Event: &event.Notice{Kind: kind, Message: msg, Raw: json.RawMessage(raw)}}}
}

func seq(parts ...[]item) []item { return slices.Concat(parts...) }

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

type decodeTest struct {
	name string
	in   string
	cfg  *Config
	want []item
}

// decodeTests follow reference-notes.md §3.4 and §3.5: each netdata bug
// N1–N7 and observed pair has a case showing what we do instead.
var decodeTests = []decodeTest{
	{name: "plain text", in: "Hello.", want: text("Hello.")},
	{name: "3.4.1 one slot", in: echo, want: call("abcd1234-0001", "echo", echoC)},
	{
		name: "3.4.3 text around a slot",
		in:   "Sure. " + echo + " done",
		want: seq(text("Sure. "), call("abcd1234-0001", "echo", echoC), text(" done")),
	},
	{
		name: "3.4.4 FINAL infers its tool",
		in:   `<ai-agent-abcd1234-FINAL format="markdown">Report</ai-agent-abcd1234-FINAL>`,
		want: seq(text("Report"), final("Report", "success", `{"format":"markdown","slot":"abcd1234-FINAL"}`)),
	},
	{
		name: "FINAL with status and white space",
		in:   "pre <ai-agent-abcd1234-FINAL tool=\"agent__final_report\" status=\"failure\" format=\"text\">\n  Could not.\n</ai-agent-abcd1234-FINAL> post",
		want: seq(text("pre "), text("\n  Could not.\n"), text(" post"),
			final("Could not.", "failure", `{"format":"text","slot":"abcd1234-FINAL","status":"failure"}`)),
	},
	{
		name: "3.4.5 PROGRESS",
		in:   `<ai-agent-abcd1234-PROGRESS tool="agent__progress_report">Found X</ai-agent-abcd1234-PROGRESS>`,
		want: notice("progress", "Found X", `"Found X"`),
	},
	{
		name: "PROGRESS as JSON",
		in:   `<ai-agent-abcd1234-PROGRESS>{"progress":"50%"}</ai-agent-abcd1234-PROGRESS>`,
		want: notice("progress", "50%", `{"progress":"50%"}`),
	},
	{
		name: "3.4.6 wrong nonce is reported, the right one parsed",
		in:   `<ai-agent-abcd1234-0001 tool="echo">{}</ai-agent-abcd1234-0001><ai-agent-ffff0000-0002 tool="echo">{}</ai-agent-ffff0000-0002>`,
		want: seq(call("abcd1234-0001", "echo", `{}`), textWith(`<ai-agent-ffff0000-0002 tool="echo">`,
			"!<input>:1:64: invalid tag <ai-agent-ffff0000-0002>: nonce does not match abcd1234; kept as text",
			`{}</ai-agent-ffff0000-0002>`)),
	},
	{
		name: "given nonce",
		in:   `<ai-agent-abcd1234-0001 tool="echo">{}</ai-agent-abcd1234-0001>`,
		cfg:  &Config{Nonce: "ai-agent-0badcafe"},
		want: textWith(`<ai-agent-abcd1234-0001 tool="echo">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: nonce does not match 0badcafe; kept as text",
			`{}</ai-agent-abcd1234-0001>`),
	},
	{
		// netdata drops tool='echo' and tool = "echo" silently.
		name: "3.4.7 single quotes and spaces around =",
		in:   `<ai-agent-abcd1234-0001 tool='echo'>{}</ai-agent-abcd1234-0001><ai-agent-abcd1234-0002 tool = "echo">{}</ai-agent-abcd1234-0002>`,
		want: seq(call("abcd1234-0001", "echo", `{}`), call("abcd1234-0002", "echo", `{}`)),
	},
	{
		// netdata ends the open tag at the first '>': payload b">R.
		name: "N2 greater-than in a quoted attribute",
		in:   `<ai-agent-abcd1234-FINAL format="a>b">R</ai-agent-abcd1234-FINAL>`,
		want: seq(text("R"), final("R", "success", `{"format":"a>b","slot":"abcd1234-FINAL"}`)),
	},
	{
		name: "3.4.9 same-slot open inside the payload ends at the first close",
		in:   `<ai-agent-abcd1234-0001 tool="echo">{"a":"<ai-agent-abcd1234-0001 tool=\"x\">"}</ai-agent-abcd1234-0001>tail`,
		want: seq(call("abcd1234-0001", "echo", `{"a":"<ai-agent-abcd1234-0001 tool=\"x\">"}`), text("tail")),
	},
	{
		// netdata never closes on "</…-0001 >".
		name: "3.4.10 space before > in a close tag",
		in:   `<ai-agent-abcd1234-0001 tool="echo">{}</ai-agent-abcd1234-0001 >`,
		want: call("abcd1234-0001", "echo", `{}`),
	},
	{
		name: "3.4.11 case sensitive",
		in:   `<AI-AGENT-abcd1234-0001 tool="echo">{}</AI-AGENT-abcd1234-0001>`,
		want: text(`<AI-AGENT-abcd1234-0001 tool="echo">{}</AI-AGENT-abcd1234-0001>`),
	},
	{
		// netdata parses a tag inside a non-leading <think>.
		name: "N3 tag inside a later think is thinking",
		in:   "Answer first. <think>maybe " + echo + "</think> after",
		want: seq(text("Answer first. "), thought("maybe "+echo), text(" after")),
	},
	{
		name: "3.4.12 leading think with an example tag",
		in:   "  <think>example " + echo + "</think>" + echo,
		want: seq(thought("example "+echo), call("abcd1234-0001", "echo", echoC)),
	},
	{
		// netdata accepts <…-0001.foo …> as slot 0001 (word boundary).
		name: "N4 slot with a suffix is not declared",
		in:   `<ai-agent-abcd1234-0001.foo tool="echo">{}</ai-agent-abcd1234-0001>`,
		want: textWith(`<ai-agent-abcd1234-0001.foo tool="echo">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001.foo>: slot \"0001.foo\" is not declared; kept as text",
			`{}</ai-agent-abcd1234-0001>`),
	},
	{
		name: "3.4.13 slot 0001x is not declared",
		in:   `<ai-agent-abcd1234-0001x tool="echo">{}</ai-agent-abcd1234-0001x>`,
		want: textWith(`<ai-agent-abcd1234-0001x tool="echo">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001x>: slot \"0001x\" is not declared; kept as text",
			`{}</ai-agent-abcd1234-0001x>`),
	},
	{
		name: "slots beyond the declared count",
		in:   `<ai-agent-abcd1234-0003 tool="echo">{}</ai-agent-abcd1234-0003>`,
		cfg:  &Config{Slots: 2},
		want: textWith(`<ai-agent-abcd1234-0003 tool="echo">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0003>: slot \"0003\" is not declared; kept as text",
			`{}</ai-agent-abcd1234-0003>`),
	},
	{
		name: "tool not allowed",
		in:   `<ai-agent-abcd1234-0001 tool="rm">{}</ai-agent-abcd1234-0001>`,
		cfg:  &Config{Tools: []toolset.Tool{{Name: "echo"}}},
		want: textWith(`<ai-agent-abcd1234-0001 tool="rm">`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: tool \"rm\" is not allowed; kept as text",
			`{}</ai-agent-abcd1234-0001>`),
	},
	{
		name: "missing tool attribute",
		in:   `<ai-agent-abcd1234-0001>{}</ai-agent-abcd1234-0001>`,
		want: textWith(`<ai-agent-abcd1234-0001>`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: no tool attribute; kept as text",
			`{}</ai-agent-abcd1234-0001>`),
	},
	{
		name: "empty payload",
		in:   "<ai-agent-abcd1234-0001 tool=\"echo\">  \n</ai-agent-abcd1234-0001>",
		want: textWith("<ai-agent-abcd1234-0001 tool=\"echo\">  \n</ai-agent-abcd1234-0001>",
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: empty payload; kept as text"),
	},
	{
		name: "payload not JSON",
		in:   `<ai-agent-abcd1234-0001 tool="echo">{x:1}</ai-agent-abcd1234-0001>`,
		want: textWith(`<ai-agent-abcd1234-0001 tool="echo">{x:1}</ai-agent-abcd1234-0001>`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: payload is not JSON; kept as text"),
	},
	{
		name: "3.4.14 self-closing",
		in:   `<ai-agent-abcd1234-0001 tool="echo"/>`,
		want: textWith(`<ai-agent-abcd1234-0001 tool="echo"/>`,
			"!<input>:1:1: invalid tag <ai-agent-abcd1234-0001>: empty payload (self-closing tag); kept as text"),
	},
	{
		name: "close tag without open",
		in:   `a </ai-agent-abcd1234-0001> b`,
		want: textWith(`a </ai-agent-abcd1234-0001>`,
			"!<input>:1:3: close tag </ai-agent-abcd1234-0001> without an open tag; kept as text", " b"),
	},
	{
		// netdata leaks the close tag as text after "a <".
		name: "N5 close tag right after a less-than",
		in:   `<ai-agent-abcd1234-FINAL format="md">a <</ai-agent-abcd1234-FINAL>tail`,
		want: seq(text("a <"), text("tail"), final("a <", "success", `{"format":"md","slot":"abcd1234-FINAL"}`)),
	},
	{
		name: "N5 open tag right after a less-than",
		in:   "x <" + echo,
		want: seq(text("x <"), call("abcd1234-0001", "echo", echoC)),
	},
	{
		name: "less-than and tags inside FINAL are preserved",
		in:   `<ai-agent-abcd1234-FINAL format="md">a < b <b>x</b></ai-agent-abcd1234-FINAL>`,
		want: seq(text("a < b <b>x</b>"), final("a < b <b>x</b>", "success", `{"format":"md","slot":"abcd1234-FINAL"}`)),
	},
	{
		name: "META inside FINAL",
		in:   `<ai-agent-abcd1234-FINAL format="md">ans<ai-agent-abcd1234-META plugin="p">{"k":1}</ai-agent-abcd1234-META>wer</ai-agent-abcd1234-FINAL>`,
		want: seq(
			[]item{{Event: &event.BlockStart{Kind: event.Text}}, {Event: &event.Delta{Kind: event.Text, Text: "ans"}}},
			notice("meta", "p", `{"k":1}`),
			[]item{{Event: &event.Delta{Kind: event.Text, Text: "wer"}}, {Event: &event.BlockEnd{Kind: event.Text}}},
			final("answer", "success", `{"format":"md","slot":"abcd1234-FINAL"}`)),
	},
	{
		name: "META at top level with single quotes",
		in:   `<ai-agent-abcd1234-META plugin='p'>{"k":1}</ai-agent-abcd1234-META>`,
		want: notice("meta", "p", `{"k":1}`),
	},
	{
		// netdata's META filter drops a trailing "<" at the end.
		name: "N7 trailing less-than is kept",
		in:   "partial <",
		want: text("partial <"),
	},
	{
		name: "N7 trailing partial tag is kept",
		in:   "partial <ai-agent-abcd",
		want: text("partial <ai-agent-abcd"),
	},
	{
		// ThinkTagStreamFilter has no flush and lags 8 characters.
		name: "unterminated think keeps all its text",
		in:   "<think>abcdefghijklmnop",
		want: seq(thought("abcdefghijklmnop"), problem("<input>:1:24: the input ended inside <think>")),
	},
	{
		name: "stream ending in a partial think tag",
		in:   "<thi",
		want: text("<thi"),
	},
	{
		name: "think with attributes and thought are text",
		in:   "<think foo>x</think> <thought>y</thought>",
		want: text("<think foo>x</think> <thought>y</thought>"),
	},
	{
		name: "unclosed slot is text",
		in:   `<ai-agent-abcd1234-0001 tool="echo">{"x":`,
		want: seq(text(`<ai-agent-abcd1234-0001 tool="echo">{"x":`), problem("<input>:1:1: the input ended inside <ai-agent-abcd1234-0001>; kept as text")),
	},
	{
		name: "unclosed FINAL is accepted",
		in:   `<ai-agent-abcd1234-FINAL format="md">Half a rep`,
		want: seq(text("Half a rep"),
			final("Half a rep", "success", `{"format":"md","slot":"abcd1234-FINAL","truncated":true}`),
			problem("<input>:1:1: the input ended inside <ai-agent-abcd1234-FINAL>; the report is accepted")),
	},
	{
		name: "XML-PAST result",
		in: echo + "\n<ai-agent-abcd1234-0001 tool=\"echo\" status=\"ok\"  duration=\"1.23s\">\n<request>\n{\"x\":1}\n</request>\n" +
			"<response>\nhello <b>\n</response>\n</ai-agent-abcd1234-0001>",
		want: seq(call("abcd1234-0001", "echo", echoC),
			[]item{{Event: &event.ToolResult{
				ID: "abcd1234-0001", Name: "echo", Status: "ok",
				Content: []event.Part{{Type: "text", Text: "hello <b>"}},
			}}}),
	},
	{
		name: "XML-PAST failure",
		in:   "<ai-agent-abcd1234-0002 tool=\"echo\" status=\"failed\"><response>boom</response></ai-agent-abcd1234-0002>",
		want: []item{{Event: &event.ToolResult{
			ID: "abcd1234-0002", Name: "echo", Status: "failed", IsError: true,
			Content: []event.Part{{Type: "text", Text: "boom"}},
		}}},
	},
	{
		// Every chunking gives the same events (TestChunking): a rune
		// split across reads is joined, never replaced.
		name: "invalid utf-8 becomes U+FFFD",
		in:   "a\xff é <ai-agent-abcd1234-0002 tool=\"echo\" status=\"failed\"><response>b\xe2\x82😀</response></ai-agent-abcd1234-0002>\xf0\x9f",
		want: seq(text("a\uFFFD é "), []item{{Event: &event.ToolResult{
			ID: "abcd1234-0002", Name: "echo", Status: "failed", IsError: true,
			Content: []event.Part{{Type: "text", Text: "b\uFFFD\uFFFD😀"}},
		}}}, text("\uFFFD\uFFFD"), []item{{Err: "<input>: offset 1: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)"}}),
	},
	{
		name: "reused slot gets a unique id",
		in:   echo + echo,
		want: seq(call("abcd1234-0001", "echo", echoC), call("abcd1234-0001.2", "echo", echoC)),
	},
	{
		name: "slot larger than the cap is text",
		in:   `<ai-agent-abcd1234-0001 tool="echo">{"x":"` + strings.Repeat("a", 64) + `"}</ai-agent-abcd1234-0001> ok`,
		cfg:  &Config{MaxSlotBytes: 48},
		want: seq(problem("<input>:1:1: slot <ai-agent-abcd1234-0001> larger than 48 bytes; kept as text"),
			text(`<ai-agent-abcd1234-0001 tool="echo">{"x":"`+strings.Repeat("a", 64)+`"}</ai-agent-abcd1234-0001> ok`)),
	},
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
// the same events (netdata's N1 and N6 are chunking bugs).
func TestChunking(t *testing.T) {
	t.Parallel()
	for _, tt := range decodeTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := eventtest.Collect(NewDecoder(strings.NewReader(tt.in), tt.cfg))
			for name, r := range map[string]io.Reader{
				"OneByteReader": iotest.OneByteReader(strings.NewReader(tt.in)),
				"HalfReader":    iotest.HalfReader(strings.NewReader(tt.in)),
				"DataErrReader": iotest.DataErrReader(strings.NewReader(tt.in)),
			} {
				if diff := cmp.Diff(want, eventtest.Collect(NewDecoder(r, tt.cfg))); diff != "" {
					t.Errorf("%s (-whole +chunked):\n%s", name, diff)
				}
			}
			for _, n := range []int{1, 2, 5} {
				src := &eventtest.Source{Events: eventtest.TextBlock("", tt.in, n)}
				got := eventtest.Collect(Wrap(src, tt.cfg))
				if diff := cmp.Diff(eventtest.Normalise(want), eventtest.Normalise(eventtest.RunEndFirst(got))); diff != "" {
					t.Errorf("Wrap, %d-byte deltas (-plain +wrapped):\n%s", n, diff)
				}
			}
		})
	}
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
	dec := NewDecoder(r, nil)
	var got []string
	for {
		ev, err := dec.Next()
		if err != nil {
			break
		}
		if d, ok := ev.(*event.Delta); ok {
			got = append(got, string(rune('0'+r.N))+" "+string(d.Kind)+" "+d.Text)
		}
	}
	want := []string{"1 thinking abc", "2 thinking def", "2 text pre ", "3 text Hel", "4 text lo ", "5 text  post"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chunk read before each delta (-want +got):\n%s", diff)
	}
}
