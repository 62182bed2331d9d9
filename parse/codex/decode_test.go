package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// samples are the codex streams under the repository's testdata.
func samples(t testing.TB) []string { return eventtest.Corpus(t, "../../testdata/codex", "*.jsonl") }

func newDecoder(r io.Reader) event.Decoder { return NewDecoder(r, nil) }

// decodeAll reads every event and problem from r.
func decodeAll(r io.Reader, cfg *Config) ([]event.Event, []error) {
	d := NewDecoder(r, cfg)
	var evs []event.Event
	var errs []error
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return evs, errs
		}
		if err != nil {
			errs = append(errs, err)
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				return evs, errs
			}
			continue
		}
		evs = append(evs, ev)
	}
}

// dump writes events one per line, for golden files: the event's Go
// type, then its fields as JSON (Unknown.Raw as text); then the problems.
func dump(evs []event.Event, errs []error) []byte {
	var b bytes.Buffer
	for _, ev := range evs {
		var v any = ev
		if u, ok := ev.(*event.Unknown); ok {
			v = struct {
				Agent, Format, Type, Raw string
			}{u.Agent, u.Format, u.Type, string(u.Raw)}
		}
		j, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&b, "%s %s\n", strings.TrimPrefix(fmt.Sprintf("%T", ev), "*event."), j)
	}
	for _, err := range errs {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.Bytes()
}

// trace dumps events and problems in the order the decoder yields them.
func trace(r io.Reader, cfg *Config) []byte {
	var b bytes.Buffer
	for _, it := range eventtest.All(NewDecoder(r, cfg)) {
		if it.Event == nil {
			fmt.Fprintf(&b, "error: %s\n", strings.TrimPrefix(it.Err, "fatal: "))
			continue
		}
		b.Write(dump([]event.Event{it.Event}, nil))
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, file := range samples(t) {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := trace(bytes.NewReader(data), &Config{Source: name})
			eventtest.GoldenFile(t, filepath.Join("testdata", "golden", strings.TrimSuffix(name, ".jsonl")+".events"), got, *update)
		})
	}
}

// TestReaders reads every sample whole, one byte at a time and in halves:
// the events and problems must be the same.
func TestReaders(t *testing.T) {
	t.Parallel()
	eventtest.SplitInvariance(t, samples(t), newDecoder)
}

func errStrings(errs []error) []string {
	var s []string
	for _, err := range errs {
		s = append(s, err.Error())
	}
	return s
}

func intp(n int) *int { return &n }

func TestDecode(t *testing.T) {
	t.Parallel()
	const thread = `{"type":"thread.started","thread_id":"T"}` + "\n"
	tests := []struct {
		name string
		in   string
		cfg  *Config
		want []event.Event
	}{
		{
			name: "cumulative usage becomes per-turn",
			in: thread +
				`{"type":"turn.started"}` + "\n" +
				`{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":10,"cache_write_input_tokens":5,"output_tokens":20,"reasoning_output_tokens":8}}` + "\n" +
				`{"type":"turn.started"}` + "\n" +
				`{"type":"turn.completed","usage":{"input_tokens":250,"cached_input_tokens":90,"cache_write_input_tokens":5,"output_tokens":30,"reasoning_output_tokens":9}}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "T", SessionID: "T"},
				&event.TurnStart{Agent: "T"},
				&event.TurnEnd{Agent: "T", Usage: &event.Usage{InputTokens: 100, CacheReadTokens: 10, CacheWriteTokens: 5, OutputTokens: 20, ReasoningTokens: 8, Has: all}},
				&event.TurnStart{Agent: "T"},
				&event.TurnEnd{Agent: "T", Usage: &event.Usage{InputTokens: 150, CacheReadTokens: 80, CacheWriteTokens: 0, OutputTokens: 10, ReasoningTokens: 1, Has: all}},
			},
		},
		{
			name: "a counter going down restarts the count",
			in: thread +
				`{"type":"turn.completed","usage":{"input_tokens":100,"output_tokens":20}}` + "\n" +
				`{"type":"turn.completed","usage":{"input_tokens":40,"output_tokens":30}}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "T", SessionID: "T"},
				&event.TurnEnd{Agent: "T", Usage: &event.Usage{InputTokens: 100, OutputTokens: 20, Has: event.HasTokens}},
				&event.TurnEnd{Agent: "T", Usage: &event.Usage{InputTokens: 40, OutputTokens: 30, Has: event.HasTokens}},
			},
		},
		{
			name: "a count left out is not given, not 0",
			cfg:  &Config{UsagePerTurn: true},
			in: thread +
				`{"type":"turn.completed","usage":{"output_tokens":7}}` + "\n" +
				`{"type":"turn.completed","usage":{"input_tokens":9,"output_tokens":null}}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "T", SessionID: "T"},
				&event.TurnEnd{Agent: "T", Usage: &event.Usage{OutputTokens: 7, Has: event.HasOutput}},
				&event.TurnEnd{Agent: "T", Usage: &event.Usage{InputTokens: 9, Has: event.HasInput}},
			},
		},
		{
			name: "UsagePerTurn takes counts as they are",
			cfg:  &Config{UsagePerTurn: true},
			in: thread +
				`{"type":"turn.completed","usage":{"input_tokens":100,"output_tokens":20}}` + "\n" +
				`{"type":"turn.completed","usage":{"input_tokens":150,"output_tokens":30}}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "T", SessionID: "T"},
				&event.TurnEnd{Agent: "T", Usage: &event.Usage{InputTokens: 100, OutputTokens: 20, Has: event.HasTokens}},
				&event.TurnEnd{Agent: "T", Usage: &event.Usage{InputTokens: 150, OutputTokens: 30, Has: event.HasTokens}},
			},
		},
		{
			name: "items left open by their turn come out before its end",
			in: thread + `{"type":"turn.started"}` + "\n" +
				`{"type":"item.started","item":{"id":"item_0","type":"web_search","query":"q"}}` + "\n" +
				`{"type":"item.started","item":{"id":"item_1","type":"agent_message","text":"half"}}` + "\n" +
				`{"type":"turn.completed"}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "T", SessionID: "T"},
				&event.TurnStart{Agent: "T"},
				&event.ToolCall{Agent: "T", ID: "item_0", Name: "web_search", Input: json.RawMessage(`{"query":"q"}`)},
				&event.BlockStart{Agent: "T", Kind: event.Text},
				&event.Delta{Agent: "T", Kind: event.Text, Text: "half"},
				&event.BlockEnd{Agent: "T", Kind: event.Text},
				&event.TurnEnd{Agent: "T"},
			},
		},
		{
			name: "turn.failed and a non-fatal error",
			in: thread + `{"type":"turn.started"}` + "\n" +
				`{"type":"error","message":"Reconnecting... 1/5"}` + "\n" +
				`{"type":"turn.failed","error":{"message":"boom"}}` + "\n" +
				`{"type":"turn.failed"}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "T", SessionID: "T"},
				&event.TurnStart{Agent: "T"},
				&event.Error{Agent: "T", Message: "Reconnecting... 1/5", Raw: json.RawMessage(`{"type":"error","message":"Reconnecting... 1/5"}`)},
				&event.TurnEnd{Agent: "T", Error: "boom"},
				&event.TurnEnd{Agent: "T", Error: "turn failed"},
			},
		},
		{
			name: "an item seen only at completion is complete",
			in: thread +
				`{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"a\n","exit_code":0,"status":"completed"}}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "T", SessionID: "T"},
				&event.ToolCall{Agent: "T", ID: "item_0", Name: "command_execution", Input: json.RawMessage(`{"command":"ls"}`)},
				&event.ToolResult{Agent: "T", ID: "item_0", Name: "command_execution", Content: []event.Part{{Type: "text", Text: "a\n"}}, ExitCode: intp(0), Status: "completed"},
			},
		},
		{
			name: "declined command is an error result",
			in: `{"type":"item.started","item":{"id":"c","type":"command_execution","command":"rm -rf /","aggregated_output":"","exit_code":null,"status":"in_progress"}}` + "\n" +
				`{"type":"item.updated","item":{"id":"c","type":"command_execution","command":"rm -rf /","aggregated_output":"","exit_code":null,"status":"in_progress"}}` + "\n" +
				`{"type":"item.completed","item":{"id":"c","type":"command_execution","command":"rm -rf /","aggregated_output":"","exit_code":null,"status":"declined"}}` + "\n",
			cfg: &Config{Agent: "A"},
			want: []event.Event{
				&event.ToolCall{Agent: "A", ID: "c", Name: "command_execution", Input: json.RawMessage(`{"command":"rm -rf /"}`)},
				&event.ToolResult{Agent: "A", ID: "c", Name: "command_execution", Status: "declined", IsError: true},
			},
		},
		{
			name: "item_type and assistant_message",
			in:   `{"type":"item.completed","item":{"id":"item_0","item_type":"assistant_message","text":"hi"}}` + "\n",
			want: []event.Event{
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "hi"},
				&event.BlockEnd{Kind: event.Text},
			},
		},
		{
			name: "duplicate keys: the last wins, but an item's id is its first",
			in: `{"type":"thread.started","thread_id":"a","thread_id":"b"}` + "\n" +
				`{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"x","text":"y","id":"other"}}` + "\n" +
				`{"type":"item.completed","item":{"id":"item_1","type":"web_search","id":"ws_1","query":"q"}}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "b", SessionID: "b"},
				&event.BlockStart{Agent: "b", Kind: event.Text},
				&event.Delta{Agent: "b", Kind: event.Text, Text: "y"},
				&event.BlockEnd{Agent: "b", Kind: event.Text},
				&event.ToolCall{Agent: "b", ID: "item_1", Name: "web_search", Input: json.RawMessage(`{"id":"ws_1","query":"q"}`)},
				&event.ToolResult{Agent: "b", ID: "item_1", Name: "web_search"},
			},
		},
		{
			name: "empty agent message",
			in:   `{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":""}}` + "\n",
			want: []event.Event{
				&event.BlockStart{Kind: event.Thinking},
				&event.BlockEnd{Kind: event.Thinking},
			},
		},
		{
			name: "todo list re-emitted when it changes only",
			in: `{"type":"item.started","item":{"id":"t","type":"todo_list","items":[{"text":"a","completed":false}]}}` + "\n" +
				`{"type":"item.updated","item":{"id":"t","type":"todo_list","items":[{"text":"a","completed":true}]}}` + "\n" +
				`{"type":"item.completed","item":{"id":"t","type":"todo_list","items":[{"text":"a","completed":true}]}}` + "\n",
			want: []event.Event{
				&event.TodoList{ID: "t", Items: []event.TodoItem{{Text: "a", Status: "pending"}}},
				&event.TodoList{ID: "t", Items: []event.TodoItem{{Text: "a", Status: "completed"}}},
			},
		},
		{
			name: "mcp call with content kinds and structured content",
			in: `{"type":"item.completed","item":{"id":"m","type":"mcp_tool_call","server":"s","tool":"t","arguments":{"a":1},"result":{"content":[{"type":"text","text":"hi"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"x","annotations":{}}],"structured_content":{"k":true}},"error":null,"status":"completed"}}` + "\n" +
				`{"type":"item.completed","item":{"id":"n","type":"mcp_tool_call","server":"s","tool":"u","result":null,"error":{"message":"nope"},"status":"failed"}}` + "\n",
			want: []event.Event{
				&event.ToolCall{ID: "m", Name: "t", MCPServer: "s", Input: json.RawMessage(`{"a":1}`)},
				&event.ToolResult{ID: "m", Name: "t", Status: "completed", Structured: json.RawMessage(`{"k":true}`), Content: []event.Part{
					{Type: "text", Text: "hi"},
					{Type: "image", Source: "data:image/png;base64,AAAA", MediaType: "image/png"},
					{Type: "mcp", Text: `{"type":"text","text":"x","annotations":{}}`},
				}},
				&event.ToolCall{ID: "n", Name: "u", MCPServer: "s", Input: json.RawMessage(`{}`)},
				&event.ToolResult{ID: "n", Name: "u", Status: "failed", IsError: true, Content: []event.Part{{Type: "text", Text: "nope"}}},
			},
		},
		{
			name: "collab spawn opens the receiver's scope",
			in: thread +
				`{"type":"item.started","item":{"id":"c","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"T","receiver_thread_ids":[],"prompt":"go","agents_states":{},"status":"in_progress"}}` + "\n" +
				`{"type":"item.completed","item":{"id":"c","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"T","receiver_thread_ids":["R"],"prompt":"go","agents_states":{"R":{"status":"completed","message":"done"}},"status":"completed"}}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "T", SessionID: "T"},
				&event.ToolCall{Agent: "T", ID: "c", Name: "spawn_agent", Input: json.RawMessage(`{"sender_thread_id":"T","receiver_thread_ids":[],"prompt":"go"}`)},
				&event.SessionStart{Agent: "R", ParentAgent: "T", ParentToolID: "c", SessionID: "R", Prompt: "go"},
				&event.ToolResult{
					Agent: "T", ID: "c", Name: "spawn_agent", Status: "completed",
					Content: []event.Part{{Type: "text", Text: "done"}}, Structured: json.RawMessage(`{"R":{"status":"completed","message":"done"}}`),
				},
			},
		},
		{
			name: "collab call with no known sender opens no scope",
			in:   `{"type":"item.completed","item":{"id":"c","type":"collab_tool_call","tool":"wait","receiver_thread_ids":["R"],"status":"completed"}}` + "\n",
			want: []event.Event{
				&event.ToolCall{ID: "c", Name: "wait", Input: json.RawMessage(`{"receiver_thread_ids":["R"]}`)},
				&event.ToolResult{ID: "c", Name: "wait", Status: "completed"},
			},
		},
		{
			name: "file change, plan, error item",
			in: `{"type":"item.completed","item":{"id":"f","type":"file_change","changes":[{"path":"a.go","kind":"update"}],"status":"completed"}}` + "\n" +
				`{"type":"item.completed","item":{"id":"p","type":"plan","text":"1. x"}}` + "\n" +
				`{"type":"item.completed","item":{"id":"e","type":"error","message":"warned"}}` + "\n",
			want: []event.Event{
				&event.FileChange{ID: "f", Changes: []event.Change{{Path: "a.go", Kind: "update"}}, Status: "completed"},
				&event.Notice{Kind: "plan", Message: "1. x", Raw: json.RawMessage(`{"id":"p","type":"plan","text":"1. x"}`)},
				&event.Error{Type: "error_item", Message: "warned", Raw: json.RawMessage(`{"id":"e","type":"error","message":"warned"}`)},
			},
		},
		{
			name: "unknown events and items are kept",
			in: `{"type":"item.plan.delta","item_id":"p","delta":"x"}` + "\n" +
				`{"type":"item.completed","item":{"id":"i","type":"image_view","path":"a.png"}}` + "\n" +
				`{"model":"gpt-5","sandbox":"read-only"}` + "\n",
			want: []event.Event{
				&event.Unknown{Format: "codex", Type: "item.plan.delta", Raw: []byte(`{"type":"item.plan.delta","item_id":"p","delta":"x"}`)},
				&event.Unknown{Format: "codex", Type: "image_view", Raw: []byte(`{"type":"item.completed","item":{"id":"i","type":"image_view","path":"a.png"}}`)},
				&event.Unknown{Format: "codex", Raw: []byte(`{"model":"gpt-5","sandbox":"read-only"}`)},
			},
		},
		{
			name: "CRLF, BOM and blank lines",
			in:   "\xef\xbb\xbf" + `{"type":"turn.started"}` + "\r\n\r\n  \n" + `{"type":"turn.completed"}`,
			want: []event.Event{&event.TurnStart{}, &event.TurnEnd{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, errs := decodeAll(r, tt.cfg)
				if len(errs) > 0 {
					t.Errorf("unexpected problems: %v", errs)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("events differ (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       string
		max      int
		want     []string // problems, in order
		sentinel error
		events   int
	}{
		{
			name:     "bad lines are reported with their position, the rest is read",
			in:       "{\"type\":\"turn.started\"}\nnot json\n{\"type\":\"turn.completed\"}\n[1]\n{\"type\":\"item.started\"}\n",
			want:     []string{"in:2:1: expected a JSON object", "in:4:1: expected a JSON object", "in:5:1: item.started has no item object"},
			sentinel: event.ErrSyntax,
			events:   3,
		},
		{
			name:     "a field of the wrong type keeps the line as unknown",
			in:       `{"type":"item.completed","item":{"id":"x","type":"command_execution","exit_code":"0"}}` + "\n",
			want:     []string{"in:1:1: item.completed: exit_code is a JSON string, not a number"},
			sentinel: event.ErrSyntax,
			events:   1,
		},
		{
			name:     "a line over the cap",
			in:       `{"type":"turn.started"}` + "\n" + `{"type":"item.completed","item":{"id":"x","type":"agent_message","text":"` + strings.Repeat("a", 100) + `"}}` + "\n" + `{"type":"turn.completed"}` + "\n",
			max:      64,
			want:     []string{"in:2:1: line longer than 64 bytes (raise the cap, MaxEventBytes)"},
			sentinel: event.ErrTooLarge,
			events:   2,
		},
		{
			name: "cut off inside a command",
			in: `{"type":"thread.started","thread_id":"T"}` + "\n" + `{"type":"turn.started"}` + "\n" +
				`{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"sleep 9","aggregated_output":"","exit_code":null,"status":"in_progress"}}`,
			want:     []string{`in:3:1: stream ended inside a turn of thread "T", command_execution "item_0"`},
			sentinel: event.ErrTruncated,
			events:   3,
		},
		{
			name:     "cut off inside a message",
			in:       `{"type":"item.started","item":{"id":"item_0","type":"agent_message","text":"partial"}}`,
			want:     []string{`in:1:1: stream ended inside agent_message "item_0"`},
			sentinel: event.ErrTruncated,
			events:   3, // the message as far as it went
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs, errs := decodeAll(strings.NewReader(tt.in), &Config{Source: "in", MaxEventBytes: tt.max})
			if diff := cmp.Diff(tt.want, errStrings(errs)); diff != "" {
				t.Errorf("problems differ (-want +got):\n%s", diff)
			}
			for _, err := range errs {
				var perr *event.ParseError
				if !errors.As(err, &perr) || !errors.Is(err, tt.sentinel) {
					t.Errorf("%v: not a *event.ParseError wrapping %v", err, tt.sentinel)
				}
			}
			if len(evs) != tt.events {
				t.Errorf("got %d events, want %d: %s", len(evs), tt.events, dump(evs, nil))
			}
		})
	}
}

// TestReadError checks that a failing reader is a fatal, sticky error.
func TestReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(`{"type":"turn.started"}`+"\n"), iotest.ErrReader(boom))
	d := NewDecoder(r, nil)
	if _, err := d.Next(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := d.Next(); !errors.Is(err, boom) {
			t.Fatalf("Next = %v, want %v", err, boom)
		}
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		head format.Head
		want bool
	}{
		{format.Head{Payload: []byte(`{"type":"thread.started","thread_id":"x"}`)}, true},
		{format.Head{Payload: []byte(`{"type":"session.created","session_id":"x"}`)}, true},
		{format.Head{Payload: []byte(`{"type":"turn.started"}`)}, true},
		{format.Head{Payload: []byte(`{"type":"item.completed","item":{}}`)}, true},
		{format.Head{Payload: []byte(`{"id":"0","item":{"item_type":"assistant_message"}}`)}, true},
		{format.Head{SSE: true, Payload: []byte(`{"type":"thread.started"}`)}, false},
		{format.Head{Payload: []byte(`{"type":"text","agent":"a","final":false,"delta":""}`)}, false},
		{format.Head{Payload: []byte(`{"type":"system","subtype":"init"}`)}, false},
		{format.Head{Payload: []byte(`not json`)}, false},
	}
	for _, tt := range tests {
		if got := Detect(tt.head); got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.head.Payload, got, tt.want)
		}
	}
}

func FuzzDecoder(f *testing.F) {
	eventtest.FuzzPieces(f, samples(f), "\n", 512)
	f.Fuzz(func(t *testing.T, data []byte) {
		newDec := func(r io.Reader) event.Decoder { return NewDecoder(r, &Config{MaxEventBytes: 4096}) }
		fuzzcheck.Check(t, data, newDec)
		eventtest.FuzzSplit(t, data, newDec)
		evs, errs := decodeAll(bytes.NewReader(data), &Config{MaxEventBytes: 4096})
		for _, err := range errs {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("not a ParseError: %v", err)
			}
		}
		for _, ev := range evs {
			if c, ok := ev.(*event.ToolCall); ok && !json.Valid(c.Input) {
				t.Fatalf("tool call input is not JSON: %q", c.Input)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) { benchDecode(b, 1) }

// BenchmarkDecodeLong reads the corpus 50 times over as one stream: the
// recordings are short (12 KB in all), where a long exec run is many
// turns through one decoder, whose setup (a 64 KiB line buffer) the
// short input does not amortize.
func BenchmarkDecodeLong(b *testing.B) { benchDecode(b, 50) }

func benchDecode(b *testing.B, times int) {
	var files []string
	for _, f := range samples(b) {
		if !strings.Contains(f, "hand-truncated") {
			files = append(files, f)
		}
	}
	eventtest.BenchDecode(b, slices.Repeat(files, times), newDecoder)
}

// TestProblemOrder checks that the events a line or the end of the input
// produced come out before the problem about it, and that the truncation
// is the last thing before io.EOF (see event.Decoder).
func TestProblemOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{
			name: "cut off inside a message",
			in:   `{"type":"item.started","item":{"id":"item_0","type":"agent_message","text":"partial"}}`,
			want: []string{
				`BlockStart {"Agent":"","Kind":"text"}`,
				`Delta {"Agent":"","Kind":"text","Text":"partial"}`,
				`BlockEnd {"Agent":"","Kind":"text","Signature":""}`,
				`error: in:1:1: stream ended inside agent_message "item_0"`,
			},
		},
		{
			name: "a line kept as unknown",
			in:   `{"type":"item.completed","item":{"id":"x","type":"command_execution","exit_code":"0"}}` + "\n" + `{"type":"turn.started"}` + "\n",
			want: []string{
				`Unknown {"Agent":"","Format":"codex","Type":"item.completed","Raw":"{\"type\":\"item.completed\",\"item\":{\"id\":\"x\",\"type\":\"command_execution\",\"exit_code\":\"0\"}}"}`,
				`error: in:1:1: item.completed: exit_code is a JSON string, not a number`,
				`TurnStart {"Agent":"","MessageID":"","Model":""}`,
				`error: in:2:1: stream ended inside a turn of thread ""`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := strings.Split(strings.TrimSuffix(string(trace(strings.NewReader(tt.in), &Config{Source: "in"})), "\n"), "\n")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("order differs (-want +got):\n%s", diff)
			}
		})
	}
}

// all is every count of a usage.
const all = event.HasTokens | event.HasCacheRead | event.HasCacheWrite | event.HasReasoning
