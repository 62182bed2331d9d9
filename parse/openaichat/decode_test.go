package openaichat

import (
	"encoding/json"
	"flag"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/openaistream/openaitest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const corpus = "../../testdata/openai-chat"

func chunk(id string, choices string, extra string) string {
	return `data: {"id":"` + id + `","object":"chat.completion.chunk","created":1,"model":"m","choices":` + choices + extra + "}\n\n"
}

func TestDecode(t *testing.T) {
	t.Parallel()
	const a = "A"
	role := chunk("c", `[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]`, "")
	text := func(s string) string {
		return chunk("c", `[{"index":0,"delta":{"content":`+strings.TrimSpace(mustJSON(s))+`},"finish_reason":null}]`, "")
	}
	finish := func(r string) string {
		return chunk("c", `[{"index":0,"delta":{},"finish_reason":"`+r+`"}]`, "")
	}
	usage := chunk("c", `[]`, `,"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":2}}`)
	usageNull := chunk("c", `null`, `,"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}`)
	start := eventtest.Item{Event: &event.TurnStart{Agent: a, MessageID: "c", Model: "m", Created: 1}}
	hi := []eventtest.Item{
		{Event: &event.BlockStart{Agent: a, Kind: event.Text}},
		{Event: &event.Delta{Agent: a, Kind: event.Text, Text: "hi"}},
		{Event: &event.BlockEnd{Agent: a, Kind: event.Text}},
	}
	end := func(stop string, u *event.Usage) eventtest.Item {
		return eventtest.Item{Event: &event.TurnEnd{Agent: a, MessageID: "c", StopReason: stop, Usage: u}}
	}
	u := &event.Usage{InputTokens: 6, CacheReadTokens: 4, OutputTokens: 5, ReasoningTokens: 2, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasReasoning}
	join := func(parts ...[]eventtest.Item) []eventtest.Item {
		var out []eventtest.Item
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	one := func(it eventtest.Item) []eventtest.Item { return []eventtest.Item{it} }
	tests := []struct {
		name  string
		input string
		cfg   Config
		want  []eventtest.Item
	}{
		{"text, usage, done", role + text("hi") + finish("stop") + usage + "data: [DONE]\n\n", Config{}, join(one(start), hi, one(end("end_turn", u)))},
		{"no role chunk, no done: a cut body", text("hi") + finish("length"), Config{}, join(one(start), hi, one(end("max_tokens", nil)), one(eventtest.Item{Err: "in:3:1: stream ended without data: [DONE] after completion c"}))},
		{
			"service tier: the last said, on the usage",
			text("hi") + finish("stop") + chunk("c", `[]`, `,"service_tier":"flex","usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}`) + "data: [DONE]\n\n",
			Config{},
			join(one(start), hi, one(end("end_turn", &event.Usage{InputTokens: 10, OutputTokens: 5, ServiceTier: "flex", Has: event.HasInput | event.HasOutput}))),
		},
		{"usage chunk with choices null", text("hi") + finish("content_filter") + usageNull + "data: [DONE]\n\n", Config{}, join(one(start), hi, one(end("refusal", &event.Usage{InputTokens: 10, OutputTokens: 5, Has: event.HasInput | event.HasOutput})))},
		{
			"interleaved tool calls, arguments split anywhere",
			role +
				chunk("c", `[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t0","type":"function","function":{"name":"a","arguments":"{\"x\""}}]}}]`, "") +
				chunk("c", `[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"t1","type":"function","function":{"name":"b","arguments":""}}]}}]`, "") +
				chunk("c", `[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]}}]`, "") +
				chunk("c", `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":": 1}"}}]}}]`, "") +
				finish("tool_calls") + "data: [DONE]\n\n",
			Config{},
			[]eventtest.Item{
				start,
				{Event: &event.ToolCall{Agent: a, ID: "t0", Name: "a", Input: json.RawMessage(`{"x": 1}`)}},
				{Event: &event.ToolCall{Agent: a, ID: "t1", Name: "b", Input: json.RawMessage(`{}`)}},
				end("tool_use", nil),
			},
		},
		{
			"reasoning_content then content",
			chunk("c", `[{"index":0,"delta":{"reasoning_content":"hmm"}}]`, "") + text("hi") + finish("stop") + "data: [DONE]\n\n",
			Config{},
			join(one(start), []eventtest.Item{
				{Event: &event.BlockStart{Agent: a, Kind: event.Thinking}},
				{Event: &event.Delta{Agent: a, Kind: event.Thinking, Text: "hmm"}},
				{Event: &event.BlockEnd{Agent: a, Kind: event.Thinking}},
			}, hi, one(end("end_turn", nil))),
		},
		{
			"refusal: a text block marked as one",
			chunk("c", `[{"index":0,"delta":{"refusal":"hi"}}]`, "") + finish("content_filter") + "data: [DONE]\n\n",
			Config{},
			join(one(start), []eventtest.Item{{Event: &event.BlockStart{Agent: a, Kind: event.Text, Refusal: true}}}, hi[1:], one(end("refusal", nil))),
		},
		{
			"n = 2: choice 1 is its own scope",
			chunk("c", `[{"index":0,"delta":{"content":"hi"}},{"index":1,"delta":{"content":"yo"}}]`, "") +
				chunk("c", `[{"index":1,"delta":{},"finish_reason":"stop"}]`, "") + finish("stop") + usage + "data: [DONE]\n\n",
			Config{},
			[]eventtest.Item{
				start, hi[0], hi[1],
				{Event: &event.TurnStart{Agent: a + "/choice-1", MessageID: "c", Model: "m", Created: 1}},
				{Event: &event.BlockStart{Agent: a + "/choice-1", Kind: event.Text}},
				{Event: &event.Delta{Agent: a + "/choice-1", Kind: event.Text, Text: "yo"}},
				{Event: &event.BlockEnd{Agent: a + "/choice-1", Kind: event.Text}},
				hi[2],
				end("end_turn", u),
				{Event: &event.TurnEnd{Agent: a + "/choice-1", MessageID: "c", StopReason: "end_turn"}},
			},
		},
		{
			"error object mid-stream",
			text("hi") + `data: {"error":{"message":"boom","type":"server_error","code":null}}` + "\n\n",
			Config{},
			join(one(start), hi[:2], []eventtest.Item{
				hi[2], end("", nil),
				{Event: &event.Error{Agent: a, Message: "boom", Type: "server_error", Fatal: true, Raw: json.RawMessage(`{"message":"boom","type":"server_error","code":null}`)}},
			}),
		},
		{
			"two completions without done between",
			text("hi") + finish("stop") + strings.ReplaceAll(text("hi")+finish("stop"), `"id":"c"`, `"id":"d"`) + "data: [DONE]\n\n",
			Config{},
			join(one(start), hi, one(end("end_turn", nil)), one(eventtest.Item{Event: &event.TurnStart{Agent: a, MessageID: "d", Model: "m", Created: 1}}), hi,
				one(eventtest.Item{Event: &event.TurnEnd{Agent: a, MessageID: "d", StopReason: "end_turn"}})),
		},
		{
			"usage on every chunk, an empty chunk after the finish",
			strings.Replace(text("hi"), `]}`, `],"usage":{"prompt_tokens":1,"completion_tokens":1}}`, 1) +
				chunk("c", `[{"index":0,"delta":{},"finish_reason":"stop"}]`, `,"usage":{"prompt_tokens":10,"completion_tokens":4}`) +
				chunk("c", `[{"index":0,"delta":{}}]`, "") + usageNull + "data: [DONE]\n\n",
			Config{},
			join(one(start), hi, one(end("end_turn", &event.Usage{InputTokens: 10, OutputTokens: 5, Has: event.HasInput | event.HasOutput}))),
		},
		{
			"content after the finish",
			finish("stop") + text("hi") + "data: [DONE]\n\n",
			Config{},
			[]eventtest.Item{start, {Err: "in:3:1: choice 0 has content after its finish_reason"}, end("end_turn", nil)},
		},
		{
			"stop at done",
			text("hi") + finish("stop") + "data: [DONE]\n\n" + "data: {not json\n\n",
			Config{StopAtDone: true},
			join(one(start), hi, one(end("end_turn", nil))),
		},
		{
			"bad json and an unknown object",
			"data: {not json\n\n" + `data: {"object":"chat.completion.future","x":1}` + "\n\n",
			Config{},
			[]eventtest.Item{
				{Err: "in:1:1: data is not a JSON object: invalid character 'n' looking for beginning of object key string"},
				{Event: &event.Unknown{Agent: a, Format: Name, Type: "chat.completion.future", Raw: []byte(`{"object":"chat.completion.future","x":1}`)}},
			},
		},
		{
			"truncated inside a tool call",
			role + chunk("c", `[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t0","type":"function","function":{"name":"a","arguments":"{\"x\""}}]}}]`, ""),
			Config{},
			[]eventtest.Item{
				start,
				// Cut: the call is truncated, and no TurnEnd says the
				// completion ended.
				{Event: &event.ToolCall{Agent: a, ID: "t0", Name: "a", Input: json.RawMessage(`"{\"x\""`), Truncated: true}},
				{Err: "in:3:1: stream ended without finish_reason, inside completion c: choice 0"},
			},
		},
		{"empty", "", Config{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := tt.cfg
			cfg.Source, cfg.Agent = "in", a
			for name, r := range map[string]io.Reader{
				"whole":         strings.NewReader(tt.input),
				"OneByteReader": iotest.OneByteReader(strings.NewReader(tt.input)),
			} {
				if diff := cmp.Diff(tt.want, eventtest.Collect(NewDecoder(r, &cfg))); diff != "" {
					t.Errorf("%s: events differ (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{chunk("c", `[]`, ""), true},
		{`data: {"error":{"message":"x"}}` + "\n", true},
		{"event: message_start\ndata: {\"type\":\"message_start\"}\n", false},
		{"event: response.created\ndata: {\"type\":\"response.created\"}\n", false},
		{`data: {"type":"error","error":{"type":"overloaded_error"}}` + "\n", false},
		{`{"object":"chat.completion.chunk"}` + "\n", false}, // not SSE
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
	tool := func(idx int, first bool) string {
		if first {
			return chunk("c", `[{"index":0,"delta":{"tool_calls":[{"index":`+strconv.Itoa(idx)+`,"id":"t","type":"function","function":{"name":"a","arguments":""}}]}}]`, "")
		}
		return chunk("c", `[{"index":0,"delta":{"tool_calls":[{"index":`+strconv.Itoa(idx)+`,"function":{"arguments":"{}"}}]}}]`, "")
	}
	fin := chunk("c", `[{"index":0,"delta":{},"finish_reason":"stop"}]`, "")
	use := chunk("c", `[]`, `,"usage":{"prompt_tokens":1,"completion_tokens":1}`)
	tests := []struct {
		name, in string
		want     []string
	}{
		{"valid", tool(0, true) + tool(0, false) + tool(1, true) + fin + use + "data: [DONE]\n\n", nil},
		{"index skipped", tool(1, true) + fin + "data: [DONE]\n\n", []string{"OAC002 1 tool call index 1 skips index 0"}},
		{"first delta without name", tool(0, false) + fin + "data: [DONE]\n\n", []string{"OAC002 1 the first delta of tool call 0 lacks its id, type function or name"}},
		{"usage before finish", use + fin + "data: [DONE]\n\n", []string{"OAC001 1 usage chunk before the finish_reason chunk", "OAC001 3 choice chunk after the usage chunk"}},
		{"chunk after finish", fin + fin + "data: [DONE]\n\n", []string{"OAC001 3 choice 0 has a chunk after its finish_reason"}},
		{"no done", fin, []string{"OAC003 1 the body ends without data: [DONE]"}},
		{"done alone", "data: [DONE]\n\n", []string{"OAC003 1 [DONE] without a completion before it"}},
		{"error ends it", fin + `data: {"error":{"message":"x"}}` + "\n\n", nil},
		{"other object", `data: {"id":"c","object":"x","choices":[]}` + "\n\n" + "data: [DONE]\n\n", []string{`OAC004 1 object is "x", not chat.completion.chunk`}},
	}
	for _, tt := range tests {
		var got eventtest.Reports
		check(strings.NewReader(tt.in), &format.CheckConfig{}, &got)
		if diff := cmp.Diff(tt.want, []string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

func FuzzDecoder(f *testing.F) { openaitest.FuzzDecoder(f, corpus, decoder) }

func BenchmarkDecode(b *testing.B) { openaitest.BenchDecode(b, corpus, decoder) }

func decoder(r io.Reader, source string, max int) event.Decoder {
	return NewDecoder(r, &Config{Source: source, MaxEventBytes: max})
}

// TestCorpus: every recording gives the events of its golden file,
// however its bytes arrive.
func TestCorpus(t *testing.T) { openaitest.Corpus(t, corpus, *update, decoder) }

// TestToolInput: a tool call's Input, its arguments checked by the
// decoder's reader, is what event.JSONText makes of them.
func TestToolInput(t *testing.T) {
	t.Parallel()
	d := NewDecoder(strings.NewReader(""), nil)
	for _, args := range []string{
		`{}`, `{"a":[1,2.5e3,"x"],"b":null}`, ` {"a" : true} `, `"s"`, `12`, `[`, `{"a":}`, `{"a":1}{}`,
		"{\"a\":\"bad \xff\"}", "plain \xff text", strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
	} {
		if got, want := d.toolInput(args), event.JSONText(args); string(got) != string(want) {
			t.Errorf("%.40q: Input %.60s, event.JSONText %.60s", args, got, want)
		}
	}
	if got := d.toolInput(""); string(got) != "{}" {
		t.Errorf("no arguments: Input %s, want {}", got)
	}
}
