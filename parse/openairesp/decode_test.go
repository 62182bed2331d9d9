package openairesp

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

const corpus = "../../testdata/openai-responses"

func FuzzDecoder(f *testing.F) { openaitest.FuzzDecoder(f, corpus, decoder) }

func BenchmarkDecode(b *testing.B) { openaitest.BenchDecode(b, corpus, decoder) }

func decoder(r io.Reader, source string, max int) event.Decoder {
	return NewDecoder(r, &Config{Source: source, MaxEventBytes: max})
}

// TestCorpus: every recording gives the events of its golden file,
// however its bytes arrive.
func TestCorpus(t *testing.T) { openaitest.Corpus(t, corpus, *update, decoder) }

// body frames events as SSE, numbering them from 0.
func body(events ...string) string {
	var b strings.Builder
	for i, ev := range events {
		var head struct {
			Type string `json:"type"`
		}
		json.Unmarshal([]byte(ev), &head)
		ev = strings.Replace(ev, "{", `{"sequence_number":`+strconv.Itoa(i)+",", 1)
		b.WriteString("event: " + head.Type + "\ndata: " + ev + "\n\n")
	}
	return b.String()
}

const (
	created   = `{"type":"response.created","response":{"id":"r1","model":"m","status":"in_progress","output":[]}}`
	msgAdded  = `{"type":"response.output_item.added","output_index":0,"item":{"id":"msg","type":"message","role":"assistant","content":[]}}`
	partAdded = `{"type":"response.content_part.added","item_id":"msg","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}`
	textDelta = `{"type":"response.output_text.delta","item_id":"msg","output_index":0,"content_index":0,"delta":"hi"}`
	partDone  = `{"type":"response.content_part.done","item_id":"msg","output_index":0,"content_index":0,"part":{"type":"output_text","text":"hi","annotations":[]}}`
	msgDone   = `{"type":"response.output_item.done","output_index":0,"item":{"id":"msg","type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}}`
	completed = `{"type":"response.completed","response":{"id":"r1","model":"m","status":"completed","usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":4},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":2},"total_tokens":15}}}`
)

func TestDecode(t *testing.T) {
	t.Parallel()
	const a = "A"
	start := eventtest.Item{Event: &event.TurnStart{Agent: a, MessageID: "r1", Model: "m"}}
	hi := []eventtest.Item{
		{Event: &event.BlockStart{Agent: a, Kind: event.Text, ID: "msg"}},
		{Event: &event.Delta{Agent: a, Kind: event.Text, Text: "hi"}},
		{Event: &event.BlockEnd{Agent: a, Kind: event.Text}},
	}
	u := &event.Usage{InputTokens: 6, CacheReadTokens: 4, OutputTokens: 5, ReasoningTokens: 2, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasReasoning}
	end := func(stop string, u *event.Usage) eventtest.Item {
		return eventtest.Item{Event: &event.TurnEnd{Agent: a, MessageID: "r1", StopReason: stop, Usage: u}}
	}
	text := body(created, msgAdded, partAdded, textDelta, partDone, msgDone, completed)
	fc := func(typ, delta string) []string {
		return []string{
			`{"type":"response.output_item.added","output_index":0,"item":{"id":"fc","type":"function_call","call_id":"c1","name":"f","arguments":""}}`,
			`{"type":"` + typ + `","item_id":"fc","output_index":0,"delta":` + delta + `}`,
		}
	}
	tests := []struct {
		name  string
		input string
		want  []eventtest.Item
	}{
		{"text", text, append(append([]eventtest.Item{start}, hi...), end("end_turn", u))},
		{
			"service tier and created_at",
			body(`{"type":"response.created","response":{"id":"r1","model":"m","created_at":1767225600,"status":"in_progress","output":[]}}`,
				`{"type":"response.completed","response":{"id":"r1","model":"m","status":"completed","service_tier":"priority","usage":{"input_tokens":1,"output_tokens":2}}}`),
			[]eventtest.Item{
				{Event: &event.TurnStart{Agent: a, MessageID: "r1", Model: "m", Created: 1767225600}},
				end("end_turn", &event.Usage{InputTokens: 1, OutputTokens: 2, ServiceTier: "priority", Has: event.HasInput | event.HasOutput}),
			},
		},
		{"two bodies", text + text, append(append(append(append([]eventtest.Item{start}, hi...), end("end_turn", u), start), hi...), end("end_turn", u))},
		{
			"function call",
			body(append(append([]string{created}, fc("response.function_call_arguments.delta", `"{\"a\":"`)...),
				`{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"1}"}`,
				`{"type":"response.output_item.done","output_index":0,"item":{"id":"fc","type":"function_call","call_id":"c1","name":"f","arguments":"{\"a\":1}"}}`,
				`{"type":"response.completed","response":{"id":"r1","status":"completed"}}`)...),
			[]eventtest.Item{start, {Event: &event.ToolCall{Agent: a, ID: "c1", Name: "f", Input: json.RawMessage(`{"a":1}`), ItemID: "fc"}}, end("tool_use", nil)},
		},
		{
			"incomplete: max_output_tokens",
			body(created, `{"type":"response.incomplete","response":{"id":"r1","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`),
			[]eventtest.Item{start, end("max_tokens", nil)},
		},
		{
			"failed",
			body(created, `{"type":"response.failed","response":{"id":"r1","status":"failed","error":{"code":"server_error","message":"boom"}}}`),
			[]eventtest.Item{start, {Event: &event.TurnEnd{Agent: a, MessageID: "r1", Error: "boom"}}},
		},
		{
			"error event",
			body(created, `{"type":"error","code":"rate_limit_exceeded","message":"slow down","param":null}`),
			[]eventtest.Item{
				start, end("", nil),
				{Event: &event.Error{Agent: a, Message: "slow down", Type: "rate_limit_exceeded", Fatal: true, Raw: json.RawMessage(`{"message":"slow down","code":"rate_limit_exceeded"}`)}},
			},
		},
		{
			"sequence gap and reorder",
			strings.Replace(strings.Replace(body(created, msgAdded, partAdded, textDelta), `"sequence_number":2`, `"sequence_number":5`, 1), `"sequence_number":3`, `"sequence_number":4`, 1),
			[]eventtest.Item{
				start,
				hi[0],
				{Err: "in:7:1: sequence_number 5 after 1: 3 events missing"},
				hi[1],
				{Err: "in:10:1: sequence_number 4 after 5: out of order"},
				{Err: "in:10:1: stream ended without response.completed, inside response r1 (inside a text part)"},
			},
		},
		{
			"unknown event and item",
			body(created, `{"type":"response.future.delta","x":1}`,
				`{"type":"response.output_item.done","output_index":0,"item":{"id":"z","type":"future_call"}}`, completed),
			[]eventtest.Item{
				start,
				{Event: &event.Unknown{Agent: a, Format: Name, Type: "response.future.delta", Raw: []byte(`{"sequence_number":1,"type":"response.future.delta","x":1}`)}},
				{Event: &event.Unknown{Agent: a, Format: Name, Type: "future_call", Raw: []byte(`{"id":"z","type":"future_call"}`)}},
				end("end_turn", u),
			},
		},
		{
			"truncated in arguments",
			body(append([]string{created}, fc("response.function_call_arguments.delta", `"{\"a\":"`)...)...),
			[]eventtest.Item{
				start,
				{Event: &event.ToolCall{Agent: a, ID: "c1", Name: "f", Input: json.RawMessage(`"{\"a\":"`), ItemID: "fc", Truncated: true}},
				{Err: "in:7:1: stream ended without response.completed, inside response r1 (in the arguments of tool call c1)"},
			},
		},
		{"not json", "event: response.created\ndata: {oops\n\n", []eventtest.Item{{Err: "in:1:1: data is not a JSON object: invalid character 'o' looking for beginning of object key string"}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for name, r := range map[string]io.Reader{
				"whole":         strings.NewReader(tt.input),
				"OneByteReader": iotest.OneByteReader(strings.NewReader(tt.input)),
			} {
				if diff := cmp.Diff(tt.want, eventtest.Collect(NewDecoder(r, &Config{Source: "in", Agent: a}))); diff != "" {
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
		{"event: response.created\ndata: {\"type\":\"response.created\"}\n", true},
		{"data: {\"type\":\"response.created\",\"sequence_number\":0}\n", true},
		{"event: error\ndata: {\"type\":\"error\",\"code\":\"x\",\"message\":\"y\"}\n", true},
		{"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n", false},
		{"event: message_start\ndata: {\"type\":\"message_start\"}\n", false},
		{"data: {\"object\":\"chat.completion.chunk\"}\n", false},
		{"event: response.created\ndata: {\"type\":\"message_start\"}\n", false},
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
	tests := []struct {
		name, in string
		want     []string
	}{
		{"valid", body(created, msgAdded, partAdded, textDelta, partDone, msgDone, completed), nil},
		{"no created", body(msgAdded, msgDone, completed), []string{"OAR001 1 response.output_item.added outside a response (no response.created before it)"}},
		{"no end", body(created), []string{"OAR001 1 the body ends without response.completed, response.incomplete, response.failed or error"}},
		{"done", body(created, completed) + "data: [DONE]\n\n", []string{"OAR003 7 data: [DONE] in a Responses API body"}},
		{"gap", strings.Replace(body(created, completed), `"sequence_number":1`, `"sequence_number":3`, 1), []string{"OAR002 4 sequence_number 3 after 0: 2 events missing"}},
		{"item not done", body(created, msgAdded, completed), []string{"OAR001 7 response.completed with item 0 not done"}},
		{"index skipped", body(created, strings.Replace(msgAdded, `"output_index":0`, `"output_index":1`, 1), completed), []string{"OAR004 4 item added at output_index 1, expected 0", "OAR001 7 response.completed with item 1 not done"}},
		{"delta outside its item", body(created, textDelta, completed), []string{"OAR001 4 response.output_text.delta for output_index 0 outside its output_item.added and output_item.done"}},
		{"error alone", body(`{"type":"error","code":"x","message":"y"}`), nil},
		{
			"function call arguments not an object", body(created,
				`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c1","name":"ls","arguments":""}}`,
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c1","name":"ls","arguments":"{bad"}}`,
				completed),
			[]string{"OAR005 7 the arguments of function_call c1 (ls) are not a JSON object"},
		},
		{"custom tool call free text", body(created,
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"custom_tool_call","call_id":"c1","name":"apply_patch","input":""}}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"custom_tool_call","call_id":"c1","name":"apply_patch","input":"*** Begin Patch\n*** End Patch"}}`,
			completed), nil},
	}
	for _, tt := range tests {
		var got eventtest.Reports
		check(strings.NewReader(tt.in), &format.CheckConfig{}, &got)
		if diff := cmp.Diff(tt.want, []string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
