package aisdk

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const corpus = "../../testdata/aisdk"

func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	return b.String()
}

func TestDecode(t *testing.T) {
	t.Parallel()
	const a = "A"
	ev := func(e event.Event) eventtest.Item { return eventtest.Item{Event: e} }
	start := ev(&event.SessionStart{Agent: a, Meta: json.RawMessage(`{"type":"start"}`), MetaKind: MetaKind})
	text := func(s string) []eventtest.Item {
		return []eventtest.Item{
			ev(&event.BlockStart{Agent: a, Kind: event.Text}),
			ev(&event.Delta{Agent: a, Kind: event.Text, Text: s}),
			ev(&event.BlockEnd{Agent: a, Kind: event.Text}),
		}
	}
	finish := func(reason string) eventtest.Item {
		c := `{"type":"finish"}`
		if reason != "" {
			c = `{"type":"finish","finishReason":"` + reason + `"}`
		}
		re := &event.RunEnd{Agent: a, Meta: json.RawMessage(c), MetaKind: MetaKind}
		if reason == "error" {
			re.IsError = true
		} else {
			re.StopReason = map[string]string{"stop": "end_turn", "length": "max_tokens", "tool-calls": "tool_use", "content-filter": "refusal", "other": "other", "": ""}[reason]
		}
		return ev(re)
	}
	join := func(parts ...[]eventtest.Item) []eventtest.Item {
		var out []eventtest.Item
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	one := func(its ...eventtest.Item) []eventtest.Item { return its }
	step, stepEnd := ev(&event.TurnStart{Agent: a}), ev(&event.TurnEnd{Agent: a})
	hi := sse(`{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"hi"}`, `{"type":"text-end","id":"t"}`)
	tests := []struct {
		name  string
		input string
		want  []eventtest.Item
	}{
		{
			"text", sse(`{"type":"start"}`, `{"type":"start-step"}`) + hi + sse(`{"type":"finish-step"}`, `{"type":"finish","finishReason":"stop"}`, "[DONE]"),
			join(one(start, step), text("hi"), one(stepEnd, finish("stop"))),
		},
		{
			// The decoder shares a string read again (string): ids and
			// deltas that spell each other, two parts taking turns.
			"interleaved parts, deltas that spell the ids",
			sse(`{"type":"start"}`, `{"type":"text-start","id":"t"}`, `{"type":"reasoning-start","id":"r"}`,
				`{"type":"text-delta","id":"t","delta":"r"}`, `{"type":"reasoning-delta","id":"r","delta":"t"}`,
				`{"type":"text-delta","id":"t","delta":"x"}`, `{"type":"text-end","id":"t"}`, `{"type":"reasoning-end","id":"r"}`,
				`{"type":"finish"}`),
			one(start, ev(&event.BlockStart{Agent: a, Kind: event.Text}), ev(&event.BlockStart{Agent: a, Kind: event.Thinking}),
				ev(&event.Delta{Agent: a, Kind: event.Text, Text: "r"}), ev(&event.Delta{Agent: a, Kind: event.Thinking, Text: "t"}),
				ev(&event.Delta{Agent: a, Kind: event.Text, Text: "x"}), ev(&event.BlockEnd{Agent: a, Kind: event.Text}),
				ev(&event.BlockEnd{Agent: a, Kind: event.Thinking}), finish("")),
		},
		{"every finish reason maps", sse(`{"type":"start"}`, `{"type":"finish","finishReason":"length"}`), one(start, finish("length"))},
		{"content-filter", sse(`{"type":"start"}`, `{"type":"finish","finishReason":"content-filter"}`), one(start, finish("content-filter"))},
		{"tool-calls", sse(`{"type":"start"}`, `{"type":"finish","finishReason":"tool-calls"}`), one(start, finish("tool-calls"))},
		{"other stays other", sse(`{"type":"start"}`, `{"type":"finish","finishReason":"other"}`), one(start, finish("other"))},
		{"error is a failed run", sse(`{"type":"start"}`, `{"type":"finish","finishReason":"error"}`), one(start, finish("error"))},
		{"no finish reason, no stop reason", sse(`{"type":"start"}`, `{"type":"finish"}`), one(start, finish(""))},
		{
			"a chunk in several data lines is compacted", "data: {\"type\":\"start\",\ndata: \"messageId\":\"m\"}\n\n" + sse(`{"type":"finish"}`),
			one(ev(&event.SessionStart{Agent: a, Meta: json.RawMessage(`{"type":"start","messageId":"m"}`), MetaKind: MetaKind}), finish("")),
		},
		{
			"finish ends the open step and parts", sse(`{"type":"start"}`, `{"type":"start-step"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"hi"}`, `{"type":"finish"}`),
			join(one(start, step), text("hi"), one(stepEnd, finish(""))),
		},
		{
			"tool call streamed, string output",
			sse(`{"type":"start"}`, `{"type":"tool-input-start","toolCallId":"c","toolName":"w"}`,
				`{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"{\"a\":"}`, `{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"1}"}`,
				`{"type":"tool-input-available","toolCallId":"c","toolName":"w","input":{"a":1}}`,
				`{"type":"tool-output-available","toolCallId":"c","output":"done"}`, `{"type":"finish"}`),
			one(start,
				ev(&event.ToolCall{Agent: a, ID: "c", Name: "w", Input: json.RawMessage(`{"a":1}`), InputDeltas: []int{5, 2}}),
				ev(&event.ToolResult{Agent: a, ID: "c", Name: "w", Content: []event.Part{{Type: "text", Text: "done"}}}),
				finish("")),
		},
		{
			"input fragments that do not spell the input are not kept",
			sse(`{"type":"start"}`, `{"type":"tool-input-start","toolCallId":"c","toolName":"w"}`,
				`{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"{\"a\": "}`, `{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"1}"}`,
				`{"type":"tool-input-available","toolCallId":"c","toolName":"w","input":{"a":1}}`, `{"type":"finish"}`),
			one(start, ev(&event.ToolCall{Agent: a, ID: "c", Name: "w", Input: json.RawMessage(`{"a":1}`)}), finish("")),
		},
		{
			"provider-executed call with structured output; error output; denial",
			sse(`{"type":"start"}`,
				`{"type":"tool-input-available","toolCallId":"s","toolName":"search","input":{},"providerExecuted":true}`,
				`{"type":"tool-output-available","toolCallId":"s","output":{"hits":[1]},"providerExecuted":true}`,
				`{"type":"tool-input-available","toolCallId":"e","toolName":"run","input":{}}`,
				`{"type":"tool-output-error","toolCallId":"e","errorText":"exit 1"}`,
				`{"type":"tool-input-available","toolCallId":"d","toolName":"rm","input":{}}`,
				`{"type":"tool-output-denied","toolCallId":"d"}`, `{"type":"finish"}`),
			one(start,
				ev(&event.ToolCall{Agent: a, ID: "s", Name: "search", Input: json.RawMessage(`{}`), Server: true}),
				ev(&event.ToolResult{Agent: a, ID: "s", Name: "search", Server: true, Structured: json.RawMessage(`{"hits":[1]}`)}),
				ev(&event.ToolCall{Agent: a, ID: "e", Name: "run", Input: json.RawMessage(`{}`)}),
				ev(&event.ToolResult{Agent: a, ID: "e", Name: "run", IsError: true, Content: []event.Part{{Type: "text", Text: "exit 1"}}}),
				ev(&event.ToolCall{Agent: a, ID: "d", Name: "rm", Input: json.RawMessage(`{}`)}),
				ev(&event.ToolResult{Agent: a, ID: "d", Name: "rm", Status: StatusDenied}),
				finish("")),
		},
		{
			"tool-input-error is a call and its failure",
			sse(`{"type":"start"}`, `{"type":"tool-input-error","toolCallId":"c","toolName":"w","input":"{bad","errorText":"invalid"}`, `{"type":"finish"}`),
			one(start,
				ev(&event.ToolCall{Agent: a, ID: "c", Name: "w", Input: json.RawMessage(`"{bad"`)}),
				ev(&event.ToolResult{Agent: a, ID: "c", Name: "w", IsError: true, Content: []event.Part{{Type: "text", Text: "invalid"}}}),
				finish("")),
		},
		{
			"sources in a row are one Citations of the text before them",
			sse(`{"type":"start"}`) + hi + sse(`{"type":"source-url","sourceId":"1","url":"https://a","title":"A"}`,
				`{"type":"source-document","sourceId":"2","mediaType":"text/plain","title":"D"}`, `{"type":"finish"}`),
			join(one(start), text("hi"), one(ev(&event.Citations{Agent: a, Items: []event.Citation{
				{Type: "source-url", URL: ptr("https://a"), Title: ptr("A"), Raw: json.RawMessage(`{"type":"source-url","sourceId":"1","url":"https://a","title":"A"}`)},
				{Type: "source-document", DocumentTitle: ptr("D"), Raw: json.RawMessage(`{"type":"source-document","sourceId":"2","mediaType":"text/plain","title":"D"}`)},
			}})), one(finish(""))),
		},
		{
			"data parts, metadata, files, custom and 7.x chunks are kept as data",
			sse(`{"type":"start"}`, `{"type":"data-x","data":1}`, `{"type":"message-metadata","messageMetadata":{}}`,
				`{"type":"file","url":"u","mediaType":"image/png"}`, `{"type":"custom","kind":"k"}`, `{"type":"tool-approval-request","approvalId":"p","toolCallId":"c"}`,
				`{"type":"brand-new","x":1}`, `{"type":"finish"}`),
			one(start,
				ev(&event.Unknown{Agent: a, Format: Name, Type: "data-x", Raw: []byte(`{"type":"data-x","data":1}`)}),
				ev(&event.Unknown{Agent: a, Format: Name, Type: "message-metadata", Raw: []byte(`{"type":"message-metadata","messageMetadata":{}}`)}),
				ev(&event.Unknown{Agent: a, Format: Name, Type: "file", Raw: []byte(`{"type":"file","url":"u","mediaType":"image/png"}`)}),
				ev(&event.Unknown{Agent: a, Format: Name, Type: "custom", Raw: []byte(`{"type":"custom","kind":"k"}`)}),
				ev(&event.Unknown{Agent: a, Format: Name, Type: "tool-approval-request", Raw: []byte(`{"type":"tool-approval-request","approvalId":"p","toolCallId":"c"}`)}),
				ev(&event.Unknown{Agent: a, Format: Name, Type: "brand-new", Raw: []byte(`{"type":"brand-new","x":1}`)}),
				finish("")),
		},
		{
			"error chunk ends the open parts, the stream goes on",
			sse(`{"type":"start"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"hi"}`, `{"type":"error","errorText":"boom"}`, `{"type":"finish","finishReason":"error"}`),
			join(one(start), text("hi"), one(ev(&event.Error{Agent: a, Message: "boom", Raw: json.RawMessage(`{"type":"error","errorText":"boom"}`)}), finish("error"))),
		},
		{
			"abort interrupts the open part and ends the step",
			sse(`{"type":"start"}`, `{"type":"start-step"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"hi"}`, `{"type":"abort"}`, "[DONE]"),
			join(one(start, step), text("hi")[:2], one(
				ev(&event.Error{Agent: a, Message: "aborted", Type: ErrorAbort, Fatal: true, Raw: json.RawMessage(`{"type":"abort"}`)}),
				ev(&event.TurnEnd{Agent: a, Error: "aborted"}))),
		},
		{
			"reset-step gives up the open part",
			sse(`{"type":"start"}`, `{"type":"start-step"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"x"}`, `{"type":"reset-step"}`) + hi + sse(`{"type":"finish"}`),
			join(one(start, step), text("x")[:2], one(ev(&event.Notice{Agent: a, Kind: event.NoticeAbandoned, Message: "reset-step: the step is begun again", Raw: json.RawMessage(`{"type":"reset-step"}`)})),
				text("hi"), one(stepEnd, finish(""))),
		},
		{
			"bad lines are problems, reading goes on",
			sse(`{"type":"start"}`, `nope`, `{"type":"text-delta","id":"x","delta":"a"}`, `{"type":"text-end","id":"x"}`, `{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"x"}`, `[1]`, `{"type":"finish"}`),
			one(start,
				eventtest.Item{Err: "in:3:1: data is not a JSON object: invalid character 'o' in literal null (expecting 'u')"},
				eventtest.Item{Err: `in:5:1: text-delta for part "x", which is not open`},
				eventtest.Item{Err: `in:7:1: text-end for part "x", which is not open`},
				eventtest.Item{Err: `in:9:1: tool-input-delta for tool call "c", which has no tool-input-start`},
				eventtest.Item{Err: "in:11:1: chunk: a JSON array, not an object"},
				finish("")),
		},
		{
			"a stream without finish is cut: the streaming call comes out with its input so far",
			sse(`{"type":"start"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"hi"}`, `{"type":"tool-input-start","toolCallId":"c","toolName":"w"}`, `{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"{\"a"}`),
			join(one(start), text("hi")[:2], one(
				ev(&event.ToolCall{Agent: a, ID: "c", Name: "w", Input: json.RawMessage(`"{\"a"`), Truncated: true}),
				eventtest.Item{Err: `in:9:1: stream ended without a finish chunk, inside text part "t", the input of tool call "c"`})),
		},
		{"empty input", "", nil},
		{"done alone", "data: [DONE]\n\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := eventtest.Collect(NewDecoder(strings.NewReader(tt.input), &Config{Source: "in", Agent: a}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// TestStopAtDone: with StopAtDone the input ends at [DONE], whatever
// follows.
func TestStopAtDone(t *testing.T) {
	t.Parallel()
	in := sse(`{"type":"start"}`, `{"type":"finish"}`, "[DONE]") + "data: {\"type\":\"start\"}\n\n"
	got := eventtest.Collect(NewDecoder(strings.NewReader(in), &Config{StopAtDone: true}))
	if len(got) != 2 {
		t.Errorf("%d items, want start and finish: %v", len(got), got)
	}
}

// TestMaxOpen: beyond MaxOpen streaming tool inputs the oldest comes out
// with its input so far, reported once.
func TestMaxOpen(t *testing.T) {
	t.Parallel()
	in := sse(`{"type":"start"}`,
		`{"type":"tool-input-start","toolCallId":"1","toolName":"w"}`,
		`{"type":"tool-input-start","toolCallId":"2","toolName":"w"}`,
		`{"type":"tool-input-start","toolCallId":"3","toolName":"w"}`,
		`{"type":"tool-input-available","toolCallId":"3","toolName":"w","input":{}}`,
		`{"type":"tool-input-available","toolCallId":"2","toolName":"w","input":{}}`,
		`{"type":"finish"}`)
	got := eventtest.Collect(NewDecoder(strings.NewReader(in), &Config{Source: "in", MaxOpen: 2}))
	var ids, errs []string
	for _, it := range got {
		if tc, ok := it.Event.(*event.ToolCall); ok {
			ids = append(ids, tc.ID)
		}
		if it.Err != "" {
			errs = append(errs, it.Err)
		}
	}
	if diff := cmp.Diff([]string{"1", "3", "2"}, ids); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "more than 2 tool inputs") {
		t.Errorf("problems %q, want one about the cap", errs)
	}
}

// TestGolden: the events of every recording in testdata/aisdk.
func TestGolden(t *testing.T) {
	t.Parallel()
	eventtest.GoldenFiles(t, eventtest.Corpus(t, corpus, "*.sse"), ".sse", *update, func(r io.Reader, source string) event.Decoder {
		return NewDecoder(r, &Config{Source: source})
	})
}

// TestSplitInvariance: every recording gives the same events read whole,
// one byte at a time (iotest.OneByteReader), in halves (HalfReader) and
// with the data and EOF together (DataErrReader).
func TestSplitInvariance(t *testing.T) {
	t.Parallel()
	eventtest.SplitInvariance(t, eventtest.Corpus(t, corpus, "*.sse"), func(r io.Reader) event.Decoder {
		return NewDecoder(r, &Config{Source: "in"})
	})
}

// TestDetect: the first chunk of a UI message stream is detected, and the
// other SSE formats' first messages are not taken.
func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{`data: {"type":"start","messageId":"m"}`, true},
		{`data: {"type":"start"}`, true},
		{`data: {"type":"start-step"}`, true},
		{`data: {"type":"text-start","id":"t"}`, true},
		{`data: {"type":"data-status","data":{}}`, true},
		{`data: {"type":"error","errorText":"x"}`, true},
		{`data: {"type":"finish","finishReason":"stop"}`, true},
		{"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}", false},
		{`data: {"type":"message_start","message":{}}`, false},
		{`data: {"type":"error","error":{"type":"overloaded_error","message":"x"}}`, false},
		{`data: {"id":"c","object":"chat.completion.chunk","choices":[]}`, false},
		{`data: {"type":"response.created","response":{}}`, false},
		{`data: {"type":"text","agent":"a","final":false,"delta":"x"}`, false},
		{`data: {"type":"start","agent":"a"}`, false},
		{`data: {"type":"text-start"}`, false},
		{`{"type":"start"}`, false},
		{"event: start\ndata: {\"type\":\"start\"}", false},
	}
	for _, tt := range tests {
		h, _ := format.Sniff([]byte(tt.in+"\n\n"), true)
		if got := Detect(h); got != tt.want {
			t.Errorf("Detect(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestCorpusValid: the SDK's own recordings break none of the format's
// rules.
func TestCorpusValid(t *testing.T) {
	t.Parallel()
	for _, file := range eventtest.Corpus(t, corpus, "ai-*.sse") {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		var r eventtest.Reports
		check(f, &format.CheckConfig{Source: file}, &r)
		f.Close()
		if len(r) > 0 {
			t.Errorf("%s: %q", file, r)
		}
	}
}

// TestCheck: each rule on an input that breaks it.
func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{
			"schema", sse(`{"type":"start"}`, `{"type":"text-delta","id":1}`, `{"type":"nope"}`, `{}`, `{"type":"tool-input-start","toolCallId":"c","toolName":"w","dynamic":"yes"}`, `{"type":"finish","finishReason":"done"}`, "[DONE]"),
			[]string{"AIS001:2", "AIS001:2", "AIS001:3", "AIS001:4", "AIS001:5", "AIS001:6"},
		},
		{
			"part order", sse(`{"type":"start"}`, `{"type":"text-delta","id":"t","delta":"x"}`, `{"type":"reasoning-start","id":"r"}`, `{"type":"reasoning-end","id":"r"}`, `{"type":"reasoning-end","id":"r"}`, `{"type":"finish"}`, "[DONE]"),
			[]string{"AIS002:2", "AIS002:5"},
		},
		{
			"tool order", sse(`{"type":"start"}`, `{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"x"}`, `{"type":"tool-output-available","toolCallId":"d","output":1}`, `{"type":"finish"}`, "[DONE]"),
			[]string{"AIS003:2", "AIS003:3"},
		},
		{
			"step order", sse(`{"type":"start"}`, `{"type":"finish-step"}`, `{"type":"start-step"}`, `{"type":"start-step"}`, `{"type":"finish"}`, "[DONE]"),
			[]string{"AIS004:2", "AIS004:4"},
		},
		{
			"stream end", sse(`{"type":"text-start","id":"t"}`, `{"type":"start"}`, `{"type":"text-end","id":"t"}`, `{"type":"finish"}`, `{"type":"text-start","id":"u"}`, `{"type":"start"}`),
			[]string{"AIS005:1", "AIS005:2", "AIS005:5", "AIS005:6", "AIS005:6"},
		},
		{"no done", sse(`{"type":"start"}`, `{"type":"finish"}`), []string{"AIS005:2"}},
		{"data after finish is fine", sse(`{"type":"start"}`, `{"type":"finish"}`, `{"type":"data-x","data":1}`, `{"type":"message-metadata","messageMetadata":{}}`, "[DONE]"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var r eventtest.Reports
			check(strings.NewReader(tt.in), &format.CheckConfig{Source: "in"}, &r)
			// rule:n, n the chunk's number (each chunk takes two lines)
			var got []string
			for _, v := range r {
				rule, rest, _ := strings.Cut(v, " ")
				line, _, _ := strings.Cut(rest, " ")
				n, _ := strconv.Atoi(line)
				got = append(got, rule+":"+strconv.Itoa((n+1)/2))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nreports: %q", diff, r)
			}
		})
	}
}

// FuzzDecoder: whatever the input, the decoder does not panic, gives
// events of valid UTF-8, and gives the same events read whole, one byte
// at a time and in halves.
func FuzzDecoder(f *testing.F) {
	eventtest.FuzzPieces(f, eventtest.Corpus(f, corpus, "*.sse"), "\n\n", 512)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Check(t, data, func(r io.Reader) event.Decoder {
			return NewDecoder(r, &Config{MaxEventBytes: 4096, MaxOpen: 4})
		})
	})
}
