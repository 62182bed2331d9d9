package anthropic

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const corpus = "../../testdata/anthropic"

func corpusFiles(t testing.TB) []string {
	t.Helper()
	return eventtest.Corpus(t, corpus, "*.sse")
}

// item is one result of Next: an event or a problem.
type item = eventtest.Item

func decodeAll(r io.Reader, cfg *Config) []item { return eventtest.All(NewDecoder(r, cfg)) }

func TestGolden(t *testing.T) {
	t.Parallel()
	eventtest.DumpFiles(t, corpusFiles(t), *update, func(r io.Reader, source string) event.Decoder {
		return NewDecoder(r, &Config{Source: source})
	})
}

// TestReaders: every recording gives the same events however its bytes
// arrive.
func TestReaders(t *testing.T) {
	t.Parallel()
	eventtest.AllReads(t, corpusFiles(t), func(r io.Reader) event.Decoder { return NewDecoder(r, nil) })
}

func frameSSE(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }

const (
	start   = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"usage":{"input_tokens":7,"output_tokens":1,"service_tier":"standard"}}}`
	tStart  = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	tDelta  = `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`
	stop0   = `{"type":"content_block_stop","index":0}`
	mDelta  = `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`
	mStop   = `{"type":"message_stop"}`
	errData = `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
)

func TestDecode(t *testing.T) {
	t.Parallel()
	a := "agent-1"
	turn := []item{
		{Event: &event.TurnStart{Agent: a, MessageID: "msg_1", Model: "m", Usage: &event.Usage{InputTokens: 7, OutputTokens: 1, ServiceTier: "standard", Has: event.HasInput | event.HasOutput}}},
		{Event: &event.BlockStart{Agent: a, Kind: event.Text}},
		{Event: &event.Delta{Agent: a, Kind: event.Text, Text: "hi"}},
		{Event: &event.BlockEnd{Agent: a, Kind: event.Text}},
		{Event: &event.TurnEnd{Agent: a, MessageID: "msg_1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 7, OutputTokens: 5, ServiceTier: "standard", Has: event.HasInput | event.HasOutput}}},
	}
	body := frameSSE("message_start", start) + frameSSE("content_block_start", tStart) + frameSSE("ping", `{"type":"ping"}`) +
		frameSSE("content_block_delta", tDelta) + frameSSE("content_block_stop", stop0) + frameSSE("message_delta", mDelta) + frameSSE("message_stop", mStop)
	tests := []struct {
		name  string
		input string
		want  []item
	}{
		{"one response", body, turn},
		{"two responses", body + body, append(append([]item{}, turn...), turn...)},
		{"CR line ends, no space, no event field", strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(body, "data: ", "data:"), "\n", "\r"), "event: ping\r", ""), turn},
		{"CRLF", strings.ReplaceAll(body, "\n", "\r\n"), turn},
		{
			"error event",
			frameSSE("message_start", start) + frameSSE("content_block_start", tStart) + frameSSE("content_block_delta", tDelta) + frameSSE("error", errData),
			[]item{
				turn[0], turn[1], turn[2], turn[3],
				{Event: &event.TurnEnd{Agent: a, MessageID: "msg_1", Usage: &event.Usage{InputTokens: 7, OutputTokens: 1, ServiceTier: "standard", Has: event.HasInput | event.HasOutput}}},
				{Event: &event.Error{Agent: a, Message: "Overloaded", Type: "overloaded_error", Fatal: true, Raw: json.RawMessage(`{"type":"overloaded_error","message":"Overloaded"}`)}},
			},
		},
		{
			"truncated inside a block",
			frameSSE("message_start", start) + frameSSE("content_block_start", tStart) + frameSSE("content_block_delta", tDelta),
			[]item{turn[0], turn[1], turn[2], {Err: "in:7:1: stream ended without message_stop, inside message msg_1 of agent \"agent-1\" (inside a text block)"}},
		},
		{
			"truncated inside an SSE message",
			frameSSE("message_start", start) + "event: content_block_start\ndata: {\"type\":\"cont",
			[]item{turn[0], {Err: "in:1:1: stream ended without message_stop, inside message msg_1 of agent \"agent-1\""}},
		},
		{
			"truncated tool input",
			frameSSE("message_start", start) + frameSSE("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"Bash","input":{}}}`) +
				frameSSE("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":"}}`),
			[]item{
				turn[0],
				{Event: &event.ToolCall{Agent: a, ID: "t1", Name: "Bash", Input: json.RawMessage(`"{\"a\":"`)}},
				{Err: "in:7:1: stream ended without message_stop, inside message msg_1 of agent \"agent-1\" (in the input of tool call t1)"},
			},
		},
		{
			"bad data and a delta for no block",
			frameSSE("message_start", start) + frameSSE("content_block_start", "{nope") + frameSSE("content_block_delta", tDelta) + frameSSE("message_stop", mStop),
			[]item{
				turn[0],
				{Err: "in:4:1: data is not a JSON object: invalid character 'n' looking for beginning of object key string"},
				{Err: "in:7:1: content_block_delta for block 0, which was not started"},
				{Event: &event.TurnEnd{Agent: a, MessageID: "msg_1", Usage: &event.Usage{InputTokens: 7, OutputTokens: 1, ServiceTier: "standard", Has: event.HasInput | event.HasOutput}}},
			},
		},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for name, r := range map[string]io.Reader{
				"whole":         strings.NewReader(tt.input),
				"OneByteReader": iotest.OneByteReader(strings.NewReader(tt.input)),
				"HalfReader":    iotest.HalfReader(strings.NewReader(tt.input)),
			} {
				got := decodeAll(r, &Config{Source: "in", Agent: a})
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s: events differ (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

func FuzzDecoder(f *testing.F) {
	eventtest.FuzzPieces(f, corpusFiles(f), "\n\n", 512)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Check(t, data, func(r io.Reader) event.Decoder { return NewDecoder(r, &Config{MaxEventBytes: 4096}) })
		want := decodeAll(bytes.NewReader(data), &Config{MaxEventBytes: 4096})
		got := decodeAll(iotest.OneByteReader(bytes.NewReader(data)), &Config{MaxEventBytes: 4096})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("OneByteReader gives other events:\n%s", diff)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(corpus, "long-text-turn1.sse"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d := NewDecoder(bytes.NewReader(data), nil)
		for {
			if _, err := d.Next(); err == io.EOF {
				break
			}
		}
	}
}
