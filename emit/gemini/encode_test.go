package gemini_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	emit "github.com/agentstream/agentstream/emit/gemini"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/gemini"
)

// streams are the stream-json recordings of testdata/gemini and of the
// shared corpus, when it is there.
func streams(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{"../../testdata/gemini", "../../../shared/corpus/gemini"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		for _, f := range files {
			if !strings.Contains(filepath.Base(f), ".session.") {
				out = append(out, f)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no recordings")
	}
	return out
}

// convert decodes data and encodes its events, skipping problems.
func convert(t testing.TB, data []byte, warn func(error)) []byte {
	t.Helper()
	dec := gemini.NewDecoder(bytes.NewReader(data), &gemini.Config{Source: "in"})
	var out bytes.Buffer
	enc := emit.NewEncoder(&out, &emit.Config{Warn: warn})
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				t.Fatal(err)
			}
			continue
		}
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// timestamp is the timestamp member of a stream-json line as the CLI
// writes it (second member, after type).
var timestamp = regexp.MustCompile(`^(\{"type":"[a-z_]+","timestamp":)"[^"]*"`)

// TestSelfConvert: a recording converted to stream-json is the recording,
// byte for byte, but for one field: the timestamp of the message,
// tool_use, tool_result and error lines, which the event model does not
// keep (events carry no time), written as "" (the init and result lines
// come back whole: they are kept verbatim as the run's Meta, and lines of
// unknown types are kept verbatim as Unknown events).
func TestSelfConvert(t *testing.T) {
	t.Parallel()
	for _, path := range streams(t) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var losses []string
			out := convert(t, data, func(err error) { losses = append(losses, err.Error()) })
			if len(losses) > 0 {
				t.Errorf("losses converting to its own format: %q", losses)
			}
			want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			for i, line := range want {
				var h struct {
					Type, Role string
					Delta      *bool
				}
				json.Unmarshal([]byte(line), &h)
				switch h.Type {
				case "message", "tool_use", "tool_result", "error":
					if !timestamp.MatchString(line) {
						t.Fatalf("line %d has no timestamp where the CLI writes it: %s", i+1, line)
					}
					want[i] = timestamp.ReplaceAllString(line, `$1""`)
				}
				if h.Type == "message" && h.Role == "assistant" && h.Delta == nil {
					// A whole assistant message (hand-edges; Gemini CLI
					// 0.61.0 streams every answer as deltas) comes back
					// as one delta: events do not say whether text was
					// streamed.
					want[i] = strings.TrimSuffix(want[i], "}") + `,"delta":true}`
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("converted differs from the recording, timestamps aside (-recording +converted):\n%s", diff)
			}
		})
	}
}

// TestEncode: what is written for events stream-json has no place for,
// and the losses reported.
func TestEncode(t *testing.T) {
	t.Parallel()
	const a = "run"
	tests := []struct {
		name   string
		evs    []event.Event
		want   string
		losses []string
	}{
		{
			name: "a run of another format: no made-up stop reason, cost or model",
			evs: []event.Event{
				&event.SessionStart{Agent: a, Model: "claude-x", Prompt: "hi"},
				&event.TurnStart{Agent: a, MessageID: "m1", Model: "claude-x"},
				&event.BlockStart{Agent: a, Kind: event.Thinking},
				&event.Delta{Agent: a, Kind: event.Thinking, Text: "hmm"},
				&event.BlockEnd{Agent: a, Kind: event.Thinking, Signature: "sig"},
				&event.BlockStart{Agent: a, Kind: event.Text},
				&event.Delta{Agent: a, Kind: event.Text, Text: "<ok> & done"},
				&event.BlockEnd{Agent: a, Kind: event.Text},
				&event.ToolCall{Agent: a, ID: "t1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
				&event.ToolResult{Agent: a, ID: "t1", Name: "Bash", IsError: true, ExitCode: ptr(2), Content: []event.Part{{Type: "text", Text: "no"}}},
				&event.TurnEnd{Agent: a, MessageID: "m1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 10, OutputTokens: 5, CacheReadTokens: 2, Has: event.HasInput | event.HasOutput | event.HasCacheRead}},
				&event.RunEnd{Agent: a, StopReason: "end_turn", CostUSD: ptr(0.5), DurationMS: 9, Usage: &event.Usage{InputTokens: 10, OutputTokens: 5, CacheReadTokens: 2, Has: event.HasInput | event.HasOutput | event.HasCacheRead}},
			},
			want: `{"type":"init","timestamp":"","session_id":"run","model":"claude-x"}
{"type":"message","timestamp":"","role":"user","content":"hi"}
{"type":"message","timestamp":"","role":"assistant","content":"<ok> & done","delta":true}
{"type":"tool_use","timestamp":"","tool_name":"Bash","tool_id":"t1","parameters":{"command":"ls"}}
{"type":"tool_result","timestamp":"","tool_id":"t1","status":"error","output":"no","error":{"type":"","message":"no"}}
{"type":"result","timestamp":"","status":"success","stats":{"total_tokens":15,"input_tokens":10,"output_tokens":5,"cached":2,"input":8,"duration_ms":9,"tool_calls":1,"models":{"claude-x":{"total_tokens":15,"input_tokens":10,"output_tokens":5,"cached":2,"input":8}}}}
`,
			losses: []string{
				"gemini cannot carry thinking (stream-json has none; the session log keeps thoughts)",
				"gemini cannot carry thinking signatures",
				"gemini cannot carry exit codes",
				"gemini cannot carry stop reasons",
				"gemini cannot carry cost",
			},
		},
		{
			name: "only the output count given: input_tokens and total_tokens null, not 0",
			evs: []event.Event{
				&event.TurnStart{Agent: a, Model: "m"},
				&event.TurnEnd{Agent: a, Usage: &event.Usage{OutputTokens: 5, CacheReadTokens: 2, Has: event.HasOutput | event.HasCacheRead}},
				&event.RunEnd{Agent: a, Usage: &event.Usage{OutputTokens: 5, CacheReadTokens: 2, Has: event.HasOutput | event.HasCacheRead}},
			},
			want: `{"type":"init","timestamp":"","session_id":"run","model":""}
{"type":"result","timestamp":"","status":"success","stats":{"total_tokens":null,"input_tokens":null,"output_tokens":5,"cached":2,"input":null,"tool_calls":0,"models":{"m":{"total_tokens":null,"input_tokens":null,"output_tokens":5,"cached":2,"input":null}}}}
`,
		},
		{
			name: "only the input count given: output_tokens and total_tokens null, not 0",
			evs: []event.Event{
				&event.RunEnd{Agent: a, Usage: &event.Usage{InputTokens: 7, Has: event.HasInput}},
			},
			want: `{"type":"init","timestamp":"","session_id":"run","model":""}
{"type":"result","timestamp":"","status":"success","stats":{"total_tokens":null,"input_tokens":7,"output_tokens":null,"cached":null,"input":null,"tool_calls":0}}
`,
		},
		{
			name: "a fatal error is the result's; a subagent is not written; no usage, no stats",
			evs: []event.Event{
				&event.SessionStart{Agent: a, SessionID: "s"},
				&event.SessionStart{Agent: "sub", ParentAgent: a, ParentToolID: "t"},
				&event.Delta{Agent: "sub", Kind: event.Text, Text: "x"},
				&event.Error{Agent: a, Message: "overloaded", Type: "overloaded_error", Fatal: true},
				&event.RunEnd{Agent: a, IsError: true, Errors: []string{"overloaded"}},
			},
			want: `{"type":"init","timestamp":"","session_id":"s","model":""}
{"type":"result","timestamp":"","status":"error","error":{"type":"overloaded_error","message":"overloaded"}}
`,
			losses: []string{"gemini cannot carry subagent scope (stream-json has one agent; a subagent's events are not written)"},
		},
		{
			name: "a stream without its end gets the result it said nothing against; tool input that is no object is wrapped",
			evs: []event.Event{
				&event.ToolCall{Agent: a, ID: "t", Name: "apply_patch", Input: json.RawMessage(`"*** Begin Patch"`)},
				&event.Error{Agent: a, Message: "slow down", Type: "warning"},
			},
			want: `{"type":"init","timestamp":"","session_id":"run","model":""}
{"type":"tool_use","timestamp":"","tool_name":"apply_patch","tool_id":"t","parameters":{"input":"*** Begin Patch"}}
{"type":"error","timestamp":"","severity":"warning","message":"slow down"}
{"type":"result","timestamp":"","status":"success"}
`,
			losses: []string{`gemini cannot carry tool input that is not a JSON object (written as {"input": ...})`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			var losses []string
			enc := emit.NewEncoder(&out, &emit.Config{Warn: func(err error) { losses = append(losses, err.Error()) }})
			eventtest.Encode(t, enc, tt.evs)
			if diff := cmp.Diff(tt.want, out.String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.losses, losses); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCut: an assistant message left open is a cut: reported, no result.
func TestCut(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	enc := emit.NewEncoder(&out, nil)
	for _, ev := range []event.Event{
		&event.SessionStart{Agent: "a", SessionID: "a", Model: "m"},
		&event.BlockStart{Agent: "a", Kind: event.Text},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "Hal"},
	} {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); !errors.Is(err, event.ErrTruncated) {
		t.Errorf("Close = %v, want a truncation", err)
	}
	if strings.Contains(out.String(), `"result"`) {
		t.Errorf("a result line was written:\n%s", out.String())
	}
}

func ptr[T any](v T) *T { return &v }

// FuzzRoundTrip: whatever the decoder makes of an input, the encoder
// writes lines the decoder reads without a problem, and a second pass
// through both changes nothing.
func FuzzRoundTrip(f *testing.F) {
	for _, path := range streams(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		once := pass(t, data)
		twice := pass(t, once)
		if diff := cmp.Diff(string(once), string(twice)); diff != "" {
			t.Fatalf("a second pass changed the output (-first +second):\n%s", diff)
		}
	})
}

// pass decodes data, skipping problems, and encodes what it read; what
// the encoder writes of an input read without a problem reads back
// without one (unknown lines are written back as they were, with theirs).
func pass(t *testing.T, data []byte) []byte {
	dec := gemini.NewDecoder(bytes.NewReader(data), &gemini.Config{MaxEventBytes: 4096})
	var out bytes.Buffer
	enc := emit.NewEncoder(&out, nil)
	clean := true
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				t.Fatal(err)
			}
			clean = false
			continue
		}
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	cut := enc.Close() != nil
	if clean && out.Len() > 0 {
		_, problems := eventtest.EventsAndProblems(t, gemini.NewDecoder(bytes.NewReader(out.Bytes()), &gemini.Config{Source: "out", MaxEventBytes: 1 << 20}))
		for _, p := range problems {
			if !(cut && strings.Contains(p, "without its result line")) {
				t.Fatalf("our output has a problem: %s\n%s", p, out.String())
			}
		}
	}
	return out.Bytes()
}
