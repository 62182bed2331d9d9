package agui

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const corpus = "../../testdata/agui"

// sse frames events as AG-UI's HTTP transport does.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

const (
	start  = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	finish = `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`
)

func TestDecode(t *testing.T) {
	t.Parallel()
	const a = "r"
	begin := eventtest.Item{Event: &event.SessionStart{Agent: a, SessionID: "t"}}
	end := eventtest.Item{Event: &event.RunEnd{Agent: a}}
	text := func(agent, s string) []eventtest.Item {
		return []eventtest.Item{
			{Event: &event.BlockStart{Agent: agent, Kind: event.Text}},
			{Event: &event.Delta{Agent: agent, Kind: event.Text, Text: s}},
			{Event: &event.BlockEnd{Agent: agent, Kind: event.Text}},
		}
	}
	seq := eventtest.Seq
	one := func(ev event.Event) []eventtest.Item { return []eventtest.Item{{Event: ev}} }
	tests := []struct {
		name  string
		input string
		want  []eventtest.Item
	}{
		{"empty", "", nil},
		{
			"text",
			sse(start, `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}`, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`, finish),
			seq([]eventtest.Item{begin}, text(a, "hi"), []eventtest.Item{end}),
		},
		{
			"same thread and run: no session id",
			sse(`{"type":"RUN_STARTED","threadId":"r","runId":"r"}`, finish),
			seq(one(&event.SessionStart{Agent: a}), []eventtest.Item{end}),
		},
		{
			"tool call in fragments, result, usage",
			sse(start, `{"type":"STEP_STARTED","stepName":"s1"}`,
				`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"ls"}`,
				`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"a\":"}`,
				`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"1}"}`,
				`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
				`{"type":"STEP_FINISHED","stepName":"s1"}`,
				`{"type":"TOOL_CALL_RESULT","messageId":"x","toolCallId":"c","content":"ok"}`,
				`{"type":"RUN_FINISHED","threadId":"t","runId":"r","result":"done","usage":[{"inputTokens":10,"outputTokens":2,"cachedInputTokens":4}]}`),
			seq([]eventtest.Item{begin},
				one(&event.TurnStart{Agent: a, MessageID: "s1"}),
				one(&event.ToolCall{Agent: a, ID: "c", Name: "ls", Input: json.RawMessage(`{"a":1}`), InputDeltas: []int{5, 2}}),
				one(&event.TurnEnd{Agent: a, MessageID: "s1"}),
				one(&event.ToolResult{Agent: a, ID: "c", Name: "ls", Content: []event.Part{{Type: "text", Text: "ok"}}}),
				one(&event.RunEnd{Agent: a, Result: "done", Usage: &event.Usage{InputTokens: 6, CacheReadTokens: 4, OutputTokens: 2, Has: event.HasInput | event.HasOutput | event.HasCacheRead}})),
		},
		{
			"reasoning with its signature",
			sse(start, `{"type":"REASONING_START","messageId":"q"}`, `{"type":"REASONING_MESSAGE_START","messageId":"q","role":"reasoning"}`,
				`{"type":"REASONING_MESSAGE_CONTENT","messageId":"q","delta":"hm"}`,
				`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"q","encryptedValue":"sig"}`,
				`{"type":"REASONING_MESSAGE_END","messageId":"q"}`, `{"type":"REASONING_END","messageId":"q"}`, finish),
			seq([]eventtest.Item{begin},
				one(&event.BlockStart{Agent: a, Kind: event.Thinking}),
				one(&event.Delta{Agent: a, Kind: event.Thinking, Text: "hm"}),
				one(&event.BlockEnd{Agent: a, Kind: event.Thinking, Signature: "sig"}),
				[]eventtest.Item{end}),
		},
		{
			"subagent",
			sse(start, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"helper","parentToolCallId":"c"}`,
				`{"type":"TEXT_MESSAGE_START","subagentRunId":"s","messageId":"m"}`,
				`{"type":"TEXT_MESSAGE_CONTENT","subagentRunId":"s","messageId":"m","delta":"sub"}`,
				`{"type":"TEXT_MESSAGE_END","subagentRunId":"s","messageId":"m"}`,
				`{"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"boom","code":"E1"}`, finish),
			seq([]eventtest.Item{begin},
				one(&event.SessionStart{Agent: "s", ParentAgent: a, ParentToolID: "c", Name: "helper"}),
				text("s", "sub"),
				one(&event.Error{Agent: "s", Message: "boom", Type: "E1", Fatal: true, Raw: json.RawMessage(`{"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"boom","code":"E1"}`)}),
				one(&event.RunEnd{Agent: "s", IsError: true}),
				[]eventtest.Item{end}),
		},
		{
			"run error ends the open message, as the client keeps it",
			sse(start, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"ha"}`,
				`{"type":"RUN_ERROR","message":"overloaded","code":"529"}`),
			seq([]eventtest.Item{begin},
				text(a, "ha"),
				one(&event.Error{Agent: a, Message: "overloaded", Type: "529", Fatal: true, Raw: json.RawMessage(`{"type":"RUN_ERROR","message":"overloaded","code":"529"}`)}),
				one(&event.RunEnd{Agent: a, IsError: true})),
		},
		{
			"chunks",
			sse(start, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`, `{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`,
				`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f","delta":"{}"}`, finish),
			seq([]eventtest.Item{begin},
				one(&event.BlockStart{Agent: a, Kind: event.Text}),
				one(&event.Delta{Agent: a, Kind: event.Text, Text: "ab"}), // Collect joins deltas
				one(&event.BlockEnd{Agent: a, Kind: event.Text}),
				one(&event.ToolCall{Agent: a, ID: "c", Name: "f", Input: json.RawMessage(`{}`)}),
				[]eventtest.Item{end}),
		},
		{
			"kept as data: custom, state, a user message, an unknown type",
			sse(start, `{"type":"CUSTOM","name":"n","value":1}`, `{"type":"STATE_DELTA","delta":[]}`,
				`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user"}`, `{"type":"TEXT_MESSAGE_END","messageId":"u"}`,
				`{"type":"FUTURE_EVENT","x":1}`, `{"type":"CUSTOM","name":"agentstream.error","value":{"message":"retrying","type":"rate_limit"}}`, finish),
			seq([]eventtest.Item{begin},
				one(&event.Unknown{Agent: a, Format: Name, Type: "CUSTOM", Raw: []byte(`{"type":"CUSTOM","name":"n","value":1}`)}),
				one(&event.Unknown{Agent: a, Format: Name, Type: "STATE_DELTA", Raw: []byte(`{"type":"STATE_DELTA","delta":[]}`)}),
				one(&event.Unknown{Agent: a, Format: Name, Type: "TEXT_MESSAGE_START", Raw: []byte(`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user"}`)}),
				one(&event.Unknown{Agent: a, Format: Name, Type: "TEXT_MESSAGE_END", Raw: []byte(`{"type":"TEXT_MESSAGE_END","messageId":"u"}`)}),
				one(&event.Unknown{Agent: a, Format: Name, Type: "FUTURE_EVENT", Raw: []byte(`{"type":"FUTURE_EVENT","x":1}`)}),
				one(&event.Error{Agent: a, Message: "retrying", Type: "rate_limit", Raw: json.RawMessage(`{"type":"CUSTOM","name":"agentstream.error","value":{"message":"retrying","type":"rate_limit"}}`)}),
				[]eventtest.Item{end}),
		},
		{
			"THINKING events of producers older than 1.0",
			sse(start, `{"type":"THINKING_START","title":"t"}`, `{"type":"THINKING_TEXT_MESSAGE_START"}`,
				`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hm"}`, `{"type":"THINKING_TEXT_MESSAGE_END"}`, `{"type":"THINKING_END"}`, finish),
			seq([]eventtest.Item{begin},
				one(&event.BlockStart{Agent: a, Kind: event.Thinking}),
				one(&event.Delta{Agent: a, Kind: event.Thinking, Text: "hm"}),
				one(&event.BlockEnd{Agent: a, Kind: event.Thinking}),
				[]eventtest.Item{end}),
		},
		{
			"problems: bad JSON, no type, a required member missing, content without start",
			sse(start, `{nope`, `{"x":1}`, `{"type":"TOOL_CALL_START","toolCallId":"c"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}`, finish),
			seq([]eventtest.Item{begin},
				eventtest.Problem("in:3:1: data is not a JSON object: invalid character 'n' looking for beginning of object key string"),
				eventtest.Problem("in:5:1: event has no type"),
				eventtest.Problem("in:7:1: TOOL_CALL_START without toolCallName"),
				one(&event.BlockStart{Agent: a, Kind: event.Text}),
				one(&event.Delta{Agent: a, Kind: event.Text, Text: "x"}),
				eventtest.Problem(`in:9:1: TEXT_MESSAGE_CONTENT of message "m", which is not open`),
				one(&event.BlockEnd{Agent: a, Kind: event.Text}),
				[]eventtest.Item{end}),
		},
		{
			"truncated inside a message and a tool call",
			sse(start, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"ha"}`,
				`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`, `{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"a"}`),
			seq([]eventtest.Item{begin}, text(a, "ha")[:2],
				one(&event.ToolCall{Agent: a, ID: "c", Name: "f", Input: json.RawMessage(`"{\"a"`), Truncated: true}),
				eventtest.Problem(`in:9:1: stream ended in run "r": no RUN_FINISHED or RUN_ERROR, inside message m, tool call c`)),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for name, r := range map[string]io.Reader{
				"whole":         strings.NewReader(tt.input),
				"OneByteReader": iotest.OneByteReader(strings.NewReader(tt.input)),
				"HalfReader":    iotest.HalfReader(strings.NewReader(tt.input)),
			} {
				if diff := cmp.Diff(tt.want, eventtest.Collect(NewDecoder(r, &Config{Source: "in"}))); diff != "" {
					t.Errorf("%s: events differ (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{sse(start), true},
		{sse(`{"type":"TEXT_MESSAGE_CHUNK","delta":"x"}`), true},
		{"data:" + start + "\r\n\r\n", true},
		{sse(`{"type":"start"}`), false},                                         // the AI SDK's UI message stream
		{sse(`{"type":"response.created","response":{}}`), false},                // OpenAI Responses
		{sse(`{"id":"c","object":"chat.completion.chunk","choices":[]}`), false}, // OpenAI Chat
		{sse(`{"type":"text","agent":"a","final":false,"delta":"x"}`), false},    // the JSON envelope
		{"event: message_start\ndata: {\"type\":\"message_start\"}\n", false},    // Anthropic
		{"event: RUN_STARTED\ndata: " + start + "\n\n", false},                   // an event: line AG-UI never writes
		{start + "\n", false}, // not SSE
		{`{"type":"thread.started","thread_id":"x"}` + "\n", false}, // Codex
	}
	for _, tt := range tests {
		h, _ := format.Sniff([]byte(tt.in), true)
		if got := Detect(h); got != tt.want {
			t.Errorf("Detect(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	msg := func(typ, id string) string { return `{"type":"` + typ + `","messageId":"` + id + `"}` }
	tests := []struct {
		name, in string
		want     []string
	}{
		{"valid", sse(start, msg("TEXT_MESSAGE_START", "m"), msg("TEXT_MESSAGE_END", "m"), finish, start, `{"type":"RUN_ERROR","message":"x"}`, start), nil},
		{"first event", sse(msg("TEXT_MESSAGE_START", "m"), msg("TEXT_MESSAGE_END", "m"), finish), []string{"AGU001 1 the first event is TEXT_MESSAGE_START, not RUN_STARTED"}},
		{"run started twice", sse(start, start, finish), []string{"AGU001 3 RUN_STARTED while a run is going on"}},
		{
			"after finish and error", sse(start, finish, msg("TEXT_MESSAGE_START", "m"), start, `{"type":"RUN_ERROR","message":"x"}`, finish),
			[]string{"AGU002 5 TEXT_MESSAGE_START after RUN_FINISHED", "AGU002 11 RUN_FINISHED after RUN_ERROR"},
		},
		{
			"not open", sse(start, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":""}`, `{"type":"TOOL_CALL_END","toolCallId":"c"}`, msg("REASONING_END", "q"), finish),
			[]string{`AGU003 3 TEXT_MESSAGE_CONTENT of "m", which is not open`, `AGU003 5 TOOL_CALL_END of "c", which is not open`, `AGU003 7 REASONING_END of "q", which is not open`},
		},
		{
			"open at finish", sse(start, msg("TEXT_MESSAGE_START", "m"), `{"type":"STEP_STARTED","stepName":"s"}`, finish),
			[]string{`AGU004 7 RUN_FINISHED while open: text message "m", step "s"`},
		},
		{
			"steps", sse(start, `{"type":"STEP_FINISHED","stepName":"s"}`, `{"type":"STEP_STARTED","stepName":"s","subagentRunId":"a"}`, `{"type":"STEP_FINISHED","stepName":"s"}`),
			[]string{`AGU005 3 STEP_FINISHED of step "s", which the parent agent has not open`, `AGU005 7 STEP_FINISHED of step "s", which the parent agent has not open`},
		},
		{
			"subagents", sse(start, `{"type":"SUBAGENT_FINISHED","subagentRunId":"a"}`, `{"type":"SUBAGENT_STARTED","subagentRunId":"b","name":"n","parentSubagentRunId":"z"}`),
			[]string{`AGU006 3 SUBAGENT_FINISHED of subagent "a", which is not active`, `AGU006 5 SUBAGENT_STARTED with parent "z", which was not started in this run`},
		},
		{
			"attribution", sse(start, msg("TEXT_MESSAGE_START", "m"), `{"type":"TEXT_MESSAGE_END","messageId":"m","subagentRunId":"a"}`),
			[]string{`AGU007 5 TEXT_MESSAGE_END of "m" is attributed to subagent "a", its opener to the parent agent`},
		},
		{
			"fields", sse(start, `{"type":"TOOL_CALL_START","toolCallId":"c","parentMessageId":null}`),
			[]string{"AGU008 3 TOOL_CALL_START without toolCallName", "AGU008 3 TOOL_CALL_START with parentMessageId null (absent is the only spelling)"},
		},
		{"type", sse(start, `{"type":"THINKING_START"}`), []string{`AGU009 3 unknown event type "THINKING_START"`}},
	}
	for _, tt := range tests {
		var got eventtest.Reports
		check(strings.NewReader(tt.in), &format.CheckConfig{}, &got)
		if diff := cmp.Diff(tt.want, []string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestCorpus: every recording gives the events of its golden file,
// however its bytes arrive.
func TestCorpus(t *testing.T) {
	t.Parallel()
	files := eventtest.Corpus(t, corpus, "*.sse")
	eventtest.GoldenFiles(t, files, ".sse", *update, func(r io.Reader, source string) event.Decoder {
		return NewDecoder(r, &Config{Source: source})
	})
	eventtest.SplitInvariance(t, files, func(r io.Reader) event.Decoder { return NewDecoder(r, nil) })
}

func FuzzDecoder(f *testing.F) {
	for _, file := range eventtest.Corpus(f, corpus, "*.sse") {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		eventtest.FuzzSplit(t, data, func(r io.Reader) event.Decoder { return NewDecoder(r, &Config{MaxEventBytes: 4096}) })
		var got eventtest.Reports
		check(bytes.NewReader(data), &format.CheckConfig{MaxEventBytes: 4096}, &got)
	})
}

func BenchmarkDecode(b *testing.B) {
	eventtest.BenchDecode(b, eventtest.Corpus(b, corpus, "*.sse"), func(r io.Reader) event.Decoder { return NewDecoder(r, nil) })
}
