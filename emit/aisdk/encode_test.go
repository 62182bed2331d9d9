package aisdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/aisdk"
)

const corpus = "../../testdata/aisdk"

func encode(t *testing.T, evs []event.Event) (out string, losses []string, closeErr error) {
	t.Helper()
	var b bytes.Buffer
	enc := NewEncoder(&b, &Config{Warn: func(err error) {
		var le *event.LossError
		if errors.As(err, &le) {
			losses = append(losses, le.What)
		}
	}})
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatalf("Encode(%T): %v", ev, err)
		}
	}
	closeErr = enc.Close()
	return b.String(), losses, closeErr
}

func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	return b.String()
}

func TestEncode(t *testing.T) {
	t.Parallel()
	const a = "main"
	text := func(s string) []event.Event {
		return []event.Event{
			&event.BlockStart{Agent: a, Kind: event.Text},
			&event.Delta{Agent: a, Kind: event.Text, Text: s},
			&event.BlockEnd{Agent: a, Kind: event.Text},
		}
	}
	join := func(parts ...[]event.Event) []event.Event {
		var out []event.Event
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	one := func(evs ...event.Event) []event.Event { return evs }
	hi := []string{`{"type":"text-start","id":"text-1"}`, `{"type":"text-delta","id":"text-1","delta":"hi"}`, `{"type":"text-end","id":"text-1"}`}
	tests := []struct {
		name   string
		evs    []event.Event
		want   string
		losses []string
		cut    bool
	}{
		{
			"a Claude run: steps, stop reason mapped, accounting lost",
			join(one(&event.SessionStart{Agent: a, SessionID: "s", Model: "m"}, &event.TurnStart{Agent: a, MessageID: "msg_1", Model: "m"}),
				text("hi"), one(&event.TurnEnd{Agent: a, MessageID: "msg_1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 1, Has: event.HasInput}},
					&event.RunEnd{Agent: a, StopReason: "end_turn", Usage: &event.Usage{InputTokens: 1, Has: event.HasInput}, CostUSD: new(float64), Turns: 1})),
			sse(append(append([]string{`{"type":"start"}`, `{"type":"start-step"}`}, hi...), `{"type":"finish-step"}`, `{"type":"finish","finishReason":"stop"}`, "[DONE]")...),
			[]string{"model", "session metadata (session id, tools, cwd)", "message ids of turns", "usage", "cost", "run summary (turns, duration, result)"},
			false,
		},
		{
			"no run end: the last turn's stop reason; start before the first chunk",
			join(one(&event.TurnStart{Agent: a}), text("hi"), one(&event.TurnEnd{Agent: a, StopReason: "max_tokens"})),
			sse(append(append([]string{`{"type":"start"}`, `{"type":"start-step"}`}, hi...), `{"type":"finish-step"}`, `{"type":"finish","finishReason":"length"}`, "[DONE]")...),
			nil, false,
		},
		{
			"no stop reason, no finishReason",
			text("hi"),
			sse(append(append([]string{`{"type":"start"}`}, hi...), `{"type":"finish"}`, "[DONE]")...),
			nil, false,
		},
		{
			"a stop reason that does not map is left out and reported",
			join(text("hi"), one(&event.RunEnd{Agent: a, StopReason: "pause_turn"})),
			sse(append(append([]string{`{"type":"start"}`}, hi...), `{"type":"finish"}`, "[DONE]")...),
			[]string{"stop reason pause_turn"},
			false,
		},
		{
			"a failed run finishes with error",
			join(text("hi"), one(&event.Error{Agent: a, Message: "overloaded", Type: "overloaded_error", Fatal: true}, &event.RunEnd{Agent: a, IsError: true})),
			sse(append(append([]string{`{"type":"start"}`}, hi...), `{"type":"error","errorText":"overloaded"}`, `{"type":"finish","finishReason":"error"}`, "[DONE]")...),
			[]string{"error types"},
			false,
		},
		{
			"a failed turn says its error once",
			one(&event.TurnStart{Agent: a}, &event.Error{Agent: a, Message: "bad request"}, &event.TurnEnd{Agent: a, Error: "bad request"},
				&event.TurnStart{Agent: a}, &event.TurnEnd{Agent: a, Error: "other"}),
			sse(`{"type":"start"}`, `{"type":"start-step"}`, `{"type":"error","errorText":"bad request"}`, `{"type":"finish-step"}`,
				`{"type":"start-step"}`, `{"type":"error","errorText":"other"}`, `{"type":"finish-step"}`, `{"type":"finish","finishReason":"error"}`, "[DONE]"),
			nil, false,
		},
		{
			"a cut stays cut: no finish, no [DONE]",
			one(&event.TurnStart{Agent: a}, &event.BlockStart{Agent: a, Kind: event.Thinking}, &event.Delta{Agent: a, Kind: event.Thinking, Text: "hm"}),
			sse(`{"type":"start"}`, `{"type":"start-step"}`, `{"type":"reasoning-start","id":"reasoning-1"}`, `{"type":"reasoning-delta","id":"reasoning-1","delta":"hm"}`),
			nil, true,
		},
		{
			"an error interrupts the open part: no end for it, the stream ends",
			one(&event.BlockStart{Agent: a, Kind: event.Text}, &event.Delta{Agent: a, Kind: event.Text, Text: "Hal"}, &event.Error{Agent: a, Message: "x", Fatal: true}),
			sse(`{"type":"start"}`, `{"type":"text-start","id":"text-1"}`, `{"type":"text-delta","id":"text-1","delta":"Hal"}`, `{"type":"error","errorText":"x"}`, `{"type":"finish","finishReason":"error"}`, "[DONE]"),
			nil, false,
		},
		{
			"an abandoned part gets no end: none after the step is finished, where the SDK knows no such part",
			one(&event.TurnStart{Agent: a, MessageID: "m1"}, &event.BlockStart{Agent: a, Kind: event.Text}, &event.Delta{Agent: a, Kind: event.Text, Text: "Hal"},
				&event.Notice{Agent: a, Kind: event.NoticeAbandoned, Message: "retried"},
				&event.TurnStart{Agent: a, MessageID: "m2"}, &event.BlockStart{Agent: a, Kind: event.Text}, &event.Delta{Agent: a, Kind: event.Text, Text: "Whole"},
				&event.BlockEnd{Agent: a, Kind: event.Text}, &event.TurnEnd{Agent: a, MessageID: "m2", StopReason: "end_turn"}),
			sse(`{"type":"start"}`, `{"type":"start-step"}`, `{"type":"text-start","id":"text-1"}`, `{"type":"text-delta","id":"text-1","delta":"Hal"}`,
				`{"type":"finish-step"}`, `{"type":"start-step"}`, `{"type":"text-start","id":"text-2"}`, `{"type":"text-delta","id":"text-2","delta":"Whole"}`,
				`{"type":"text-end","id":"text-2"}`, `{"type":"finish-step"}`, `{"type":"finish","finishReason":"stop"}`, "[DONE]"),
			[]string{"message ids of turns", "notices"},
			false,
		},
		{
			"tool calls and results: streamed input, text output, error, structured, denied, unknown call",
			one(
				&event.ToolCall{Agent: a, ID: "c1", Name: "Bash", Input: json.RawMessage(`{"a":1}`), InputDeltas: []int{0, 5, 2}},
				&event.ToolResult{Agent: a, ID: "c1", Content: []event.Part{{Type: "text", Text: "one"}, {Type: "text", Text: "two"}}, ExitCode: new(int)},
				&event.ToolCall{Agent: a, ID: "c2", Name: "web", Input: json.RawMessage(`{}`), Server: true, MCPServer: "srv"},
				&event.ToolResult{Agent: a, ID: "c2", Server: true, IsError: true, Content: []event.Part{{Type: "text", Text: "no"}}},
				&event.ToolCall{Agent: a, ID: "c3", Name: "w", Input: json.RawMessage(`{}`)},
				&event.ToolResult{Agent: a, ID: "c3", Structured: json.RawMessage(`{"t":21}`)},
				&event.ToolCall{Agent: a, ID: "c4", Name: "rm", Input: json.RawMessage(`{}`)},
				&event.ToolResult{Agent: a, ID: "c4", Status: aisdk.StatusDenied},
				&event.ToolResult{Agent: a, ID: "elsewhere", Content: []event.Part{{Type: "text", Text: "?"}}},
			),
			sse(`{"type":"start"}`,
				`{"type":"tool-input-start","toolCallId":"c1","toolName":"Bash"}`,
				`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":""}`,
				`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"a\":"}`,
				`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"1}"}`,
				`{"type":"tool-input-available","toolCallId":"c1","toolName":"Bash","input":{"a":1}}`,
				`{"type":"tool-output-available","toolCallId":"c1","output":"one\ntwo"}`,
				`{"type":"tool-input-available","toolCallId":"c2","toolName":"web","input":{},"providerExecuted":true}`,
				`{"type":"tool-output-error","toolCallId":"c2","errorText":"no","providerExecuted":true}`,
				`{"type":"tool-input-available","toolCallId":"c3","toolName":"w","input":{}}`,
				`{"type":"tool-output-available","toolCallId":"c3","output":{"t":21}}`,
				`{"type":"tool-input-available","toolCallId":"c4","toolName":"rm","input":{}}`,
				`{"type":"tool-output-denied","toolCallId":"c4"}`,
				`{"type":"finish"}`, "[DONE]"),
			[]string{"tool result exit codes", "MCP server names", "tool results whose call is not in the stream"},
			false,
		},
		{
			"citations are sources; what a source cannot say is reported",
			join(text("hi"), one(&event.Citations{Agent: a, Items: []event.Citation{
				{Type: "web_search_result_location", URL: ptr("https://a"), Title: ptr("A"), CitedText: "q"},
				{Type: "page_location", DocumentTitle: ptr("D"), StartPageNumber: new(int64)},
				{Type: "char_location", DocumentTitle: ptr("E")},
				{Type: "char_location"},
			}})),
			sse(append(append([]string{`{"type":"start"}`}, hi...),
				`{"type":"source-url","sourceId":"source-1","url":"https://a","title":"A"}`,
				`{"type":"source-document","sourceId":"source-2","title":"D","mediaType":"application/pdf"}`,
				`{"type":"source-document","sourceId":"source-3","title":"E","mediaType":"text/plain"}`,
				`{"type":"finish"}`, "[DONE]")...),
			[]string{"citations' cited text and locations (a source carries a url or a document title)", "citations without a url or a document title"},
			false,
		},
		{
			"a subagent's events have no place; unknown items of the stream's own are written back",
			one(&event.SessionStart{Agent: a}, &event.SessionStart{Agent: "sub", ParentAgent: a}, &event.Delta{Agent: "sub", Kind: event.Text, Text: "x"},
				&event.Unknown{Agent: a, Format: "aisdk", Type: "data-x", Raw: []byte(`{"type":"data-x","data":1}`)},
				&event.Unknown{Agent: a, Format: "claude", Type: "odd", Raw: []byte(`{"type":"odd"}`)},
				&event.Notice{Agent: a, Kind: "api_retry"}, &event.TodoList{Agent: a}, &event.Files{Agent: a}, &event.FileChange{Agent: a},
				&event.AwaitingTools{Agent: a}),
			sse(`{"type":"start"}`, `{"type":"data-x","data":1}`, `{"type":"finish"}`, "[DONE]"),
			[]string{"subagent output (the stream is one agent's message)", "unknown items of other formats", "notices", "todo lists", "generated files (meta_files)", "file changes", "awaiting_frontend_tools (the pending calls stay input-available parts)"},
			false,
		},
		{
			"HTML and non-ASCII text unescaped",
			text("<b>&</b> 🦊"),
			sse(`{"type":"start"}`, `{"type":"text-start","id":"text-1"}`, `{"type":"text-delta","id":"text-1","delta":"<b>&</b> 🦊"}`, `{"type":"text-end","id":"text-1"}`, `{"type":"finish"}`, "[DONE]"),
			nil, false,
		},
		{"nothing in, nothing out", nil, "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, losses, err := encode(t, tt.evs)
			if diff := cmp.Diff(normal(t, tt.want), normal(t, got)); diff != "" {
				t.Errorf("output (-want +got):\n%s\n%s", diff, got)
			}
			if diff := cmp.Diff(tt.losses, losses); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
			if cut := errors.Is(err, event.ErrTruncated); cut != tt.cut || err != nil && !cut {
				t.Errorf("Close: %v, want a truncation %v", err, tt.cut)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// normal returns each SSE message of s with its JSON data re-marshalled
// (member order is Go's, not the test's).
func normal(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	for _, m := range strings.Split(s, "\n\n") {
		if m == "" {
			continue
		}
		data, ok := strings.CutPrefix(m, "data: ")
		if !ok {
			t.Fatalf("not a data message: %q", m)
		}
		var v any
		if data == "[DONE]" || json.Unmarshal([]byte(data), &v) != nil {
			out = append(out, data)
			continue
		}
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	return out
}

// TestRoundTrip: every recording read, written and read again gives the
// same events.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(corpus, "*.sse"))
	if len(files) == 0 {
		t.Fatal("no recordings")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := eventtest.Collect(aisdk.NewDecoder(bytes.NewReader(data), &aisdk.Config{Source: "in"}))
			var out bytes.Buffer
			enc := NewEncoder(&out, nil)
			for _, ev := range eventtest.Events(want) {
				if err := enc.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			cut := enc.Close()
			got := eventtest.Collect(aisdk.NewDecoder(bytes.NewReader(out.Bytes()), &aisdk.Config{Source: "in"}))
			var wantEvents []eventtest.Item
			for _, it := range want {
				if it.Event != nil {
					wantEvents = append(wantEvents, it)
				}
			}
			var gotEvents []eventtest.Item
			for _, it := range got {
				if it.Event != nil {
					gotEvents = append(gotEvents, it)
				} else if cut == nil {
					t.Errorf("reading our output: %s", it.Err)
				}
			}
			if diff := cmp.Diff(wantEvents, gotEvents); diff != "" {
				t.Errorf("(-read +written and read again):\n%s", diff)
			}
		})
	}
}

// FuzzEncoder feeds the events of an arbitrary UI message stream to the
// encoder and reads its output back: it must read without a problem, but
// the truncation Close reported.
func FuzzEncoder(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*.sse"))
	eventtest.FuzzPieces(f, files, "\n\n", 512)
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		in := func(r io.Reader) event.Decoder { return aisdk.NewDecoder(r, &aisdk.Config{MaxEventBytes: 4096}) }
		back := func(r io.Reader) event.Decoder { return aisdk.NewDecoder(r, nil) }
		eventtest.RoundTrip(t, data, in, back, NewEncoder(&out, nil), &out)
	})
}
