package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
	parse "github.com/agentstream/agentstream/parse/claude"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const corpus = "../../testdata/claude"

func decode(t testing.TB, file string) []event.Event {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return decodeBytes(t, file, data)
}

// decodeBytes reads stream-json from data, named source.
func decodeBytes(t testing.TB, source string, data []byte) []event.Event {
	t.Helper()
	d := parse.NewDecoder(bytes.NewReader(data), &parse.Config{Source: source})
	var evs []event.Event
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
}

// foreign makes events look as if they came from a format without Claude
// Code's metadata and turn boundaries (the JSON envelope, say).
func foreign(evs []event.Event) []event.Event {
	var out []event.Event
	for _, ev := range evs {
		switch ev := ev.(type) {
		case *event.TurnStart, *event.TurnEnd, *event.Notice:
			continue
		case *event.SessionStart:
			c := *ev
			c.Meta, c.MetaKind = nil, ""
			out = append(out, &c)
		case *event.RunEnd:
			c := *ev
			c.Meta, c.MetaKind = nil, ""
			out = append(out, &c)
		default:
			out = append(out, ev)
		}
	}
	return out
}

func encode(t testing.TB, cfg *Config, evs []event.Event) ([]byte, []string) {
	t.Helper()
	var out bytes.Buffer
	var warnings []string
	c := *cfg
	c.Warn = func(err error) {
		var loss *event.LossError
		if !errors.As(err, &loss) {
			t.Errorf("warning is not a *event.LossError: %v", err)
		}
		warnings = append(warnings, err.Error())
	}
	e := NewEncoder(&out, &c)
	for _, ev := range evs {
		if err := e.Encode(ev); err != nil {
			t.Fatalf("Encode(%T): %v", ev, err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return out.Bytes(), warnings
}

func TestGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input string
		cfg         Config
		foreign     bool
	}{
		{"tooluse", "tooluse.jsonl", Config{}, false},
		{"tooluse-partial", "tooluse.jsonl", Config{Partial: true}, false},
		{"partial-thinking", "partial-thinking.jsonl", Config{Partial: true}, false},
		{"subagent-partial", "subagent.jsonl", Config{Partial: true}, false},
		{"hand-all-types", "hand-all-types.jsonl", Config{}, false},
		{"multi-tool-foreign", "multi-tool.jsonl", Config{}, true},
		{"multi-tool-foreign-partial", "multi-tool.jsonl", Config{Partial: true}, true},
		{"error-529-foreign", "error-529.jsonl", Config{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs := decode(t, filepath.Join(corpus, tt.input))
			if tt.foreign {
				evs = foreign(evs)
			}
			got, _ := encode(t, &tt.cfg, evs)
			again, _ := encode(t, &tt.cfg, evs)
			if !bytes.Equal(got, again) {
				t.Errorf("two encodings of the same events differ")
			}
			golden := filepath.Join("testdata", tt.name+".jsonl")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (run go test -update and review the diff)", golden)
			}
		})
	}
}

// shape is a line's kind and the keys it has.
type shape struct {
	kind string // type, or type/subtype
	keys map[string]bool
	msg  map[string]bool // keys of message, if any
}

func shapes(t *testing.T, data []byte) []shape {
	t.Helper()
	var out []shape
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line is not a JSON object: %v: %s", err, sc.Bytes())
		}
		var typ, sub string
		json.Unmarshal(m["type"], &typ)
		json.Unmarshal(m["subtype"], &sub)
		s := shape{kind: typ, keys: map[string]bool{}}
		if sub != "" {
			s.kind += "/" + sub
		}
		for k := range m {
			s.keys[k] = true
		}
		var msg map[string]json.RawMessage
		if json.Unmarshal(m["message"], &msg) == nil && msg != nil {
			s.msg = map[string]bool{}
			for k := range msg {
				s.msg[k] = true
			}
		}
		out = append(out, s)
	}
	return out
}

// Keys the real CLI writes that our lines leave out: timing, request ids
// and account state agentstream does not know. A consumer must not need
// them: the SDK marks them optional, or they are diagnostics.
var notWritten = map[string]bool{
	"request_id": true, "timestamp": true, "ttft_ms": true, "api_error_status": true, "duration_api_ms": true,
	"ttft_stream_ms": true, "time_to_request_ms": true, "terminal_reason": true, "fast_mode_state": true,
	"memory_paths": true, "analytics_disabled": true, "product_feedback_disabled": true,
	"context_management": true, "container": true, "stop_details": true,
	"subagent_type": true, "task_description": true, // optional on subagent lines
}

// TestConsumerAccepts checks that every line we write has the keys that
// every line of its kind has in the real recordings (those a consumer
// written for the real CLI may rely on), for events from Claude Code
// itself and from a format without its metadata.
func TestConsumerAccepts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]map[string]bool{} // kind -> keys every real line has
	requiredMsg := map[string]map[string]bool{}
	var inputs []string
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "hand-") {
			continue
		}
		inputs = append(inputs, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range shapes(t, data) {
			required[s.kind] = intersect(required[s.kind], s.keys)
			if s.msg != nil {
				requiredMsg[s.kind] = intersect(requiredMsg[s.kind], s.msg)
			}
		}
	}
	for _, f := range inputs {
		for _, partial := range []bool{false, true} {
			for _, isForeign := range []bool{false, true} {
				evs := decode(t, f)
				if isForeign {
					evs = foreign(evs)
				}
				out, _ := encode(t, &Config{Partial: partial}, evs)
				for i, s := range shapes(t, out) {
					for _, k := range slices.Sorted(maps.Keys(required[s.kind])) {
						if !s.keys[k] && !notWritten[k] {
							t.Errorf("%s (partial %v, foreign %v): line %d (%s) has no %q", filepath.Base(f), partial, isForeign, i+1, s.kind, k)
						}
					}
					for _, k := range slices.Sorted(maps.Keys(requiredMsg[s.kind])) {
						if s.msg != nil && !s.msg[k] && !notWritten[k] {
							t.Errorf("%s (partial %v, foreign %v): line %d (%s) has no message.%s", filepath.Base(f), partial, isForeign, i+1, s.kind, k)
						}
					}
				}
				// And our own reader takes it without a problem.
				d := parse.NewDecoder(bytes.NewReader(out), nil)
				for {
					_, err := d.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("%s (partial %v, foreign %v): reading our output: %v", filepath.Base(f), partial, isForeign, err)
					}
				}
			}
		}
	}
}

func intersect(a, b map[string]bool) map[string]bool {
	if a == nil {
		return maps.Clone(b)
	}
	for k := range a {
		if !b[k] {
			delete(a, k)
		}
	}
	return a
}

func ptr[T any](v T) *T { return &v }

// TestEveryEventType walks one event of every type through the encoder:
// it writes what it can, warns once per kind of loss, and its output reads
// back without a problem.
func TestEveryEventType(t *testing.T) {
	t.Parallel()
	a := "main"
	evs := []event.Event{
		&event.SessionStart{Agent: a, SessionID: "s", Model: "m", Tools: []string{"Bash"}, Cwd: "/w"},
		&event.TurnStart{Agent: a, MessageID: "msg_1", Model: "m"},
		&event.BlockStart{Agent: a, Kind: event.Thinking},
		&event.Delta{Agent: a, Kind: event.Thinking, Text: "hmm"},
		&event.BlockEnd{Agent: a, Kind: event.Thinking, Signature: "sig"},
		&event.BlockStart{Agent: a, Kind: event.Text},
		&event.Delta{Agent: a, Kind: event.Text, Text: "Paris"},
		&event.BlockEnd{Agent: a, Kind: event.Text},
		&event.Citations{Agent: a, Items: []event.Citation{{Type: "char_location", CitedText: "Paris", DocumentIndex: ptr[int64](0), StartCharIndex: ptr[int64](0), EndCharIndex: ptr[int64](5)}}},
		&event.ToolCall{Agent: a, ID: "srv", Name: "web_search", Input: json.RawMessage(`{"q":"x"}`), Server: true},
		&event.ToolResult{Agent: a, ID: "srv", Name: "web_search_tool_result", Server: true, Content: []event.Part{{Type: "text", Text: `[{"type":"web_search_result","url":"u"}]`}}},
		&event.ToolCall{Agent: a, ID: "mcp", Name: "read", Input: json.RawMessage(`{}`), MCPServer: "fs"},
		&event.ToolResult{Agent: a, ID: "mcp", Name: "read", Content: []event.Part{{Type: "text", Text: "file"}}},
		&event.ToolCall{Agent: a, ID: "t1", Name: "Agent", Input: json.RawMessage(`{"prompt":"go"}`)},
		&event.Unknown{Agent: a, Format: "anthropic", Type: "redacted_thinking", Raw: []byte(`{"type":"redacted_thinking","data":"x"}`)},
		&event.TurnEnd{Agent: a, MessageID: "msg_1", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, Has: event.HasInput | event.HasOutput}},
		&event.SessionStart{Agent: "t1", ParentAgent: a, ParentToolID: "t1", Prompt: "go", Name: "general-purpose"},
		&event.ToolCall{Agent: "t1", ID: "t2", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.ToolResult{Agent: "t1", ID: "t2", Name: "Bash", Content: []event.Part{{Type: "text", Text: "a"}}, ExitCode: ptr(0), Status: "completed"},
		&event.RunEnd{Agent: "t1"},
		&event.ToolResult{
			Agent: a, ID: "t1", Name: "Agent", IsError: true, Structured: json.RawMessage(`{"status":"failed"}`),
			Content: []event.Part{{Type: "text", Text: "see"}, {Type: "image", Source: "data:image/png;base64,AAAA", MediaType: "image/png"}},
		},
		&event.AwaitingTools{Agent: a},
		&event.Files{Agent: a},
		&event.FileChange{Agent: a},
		&event.TodoList{Agent: a},
		&event.Notice{Agent: a, Kind: "api_retry", Message: "attempt 1/2"},
		&event.Unknown{Agent: a, Format: "codex", Type: "x", Raw: []byte(`{}`)},
		&event.Unknown{Agent: a, Format: "claude", Type: "future", Raw: []byte(`{"type":"future","session_id":"s"}`)},
		&event.Error{Agent: a, Message: "Overloaded", Type: "overloaded_error", Fatal: true},
		&event.RunEnd{Agent: a, StopReason: "end_turn", Turns: 1, IsError: true, Errors: []string{"boom"}},
	}
	out, warnings := encode(t, &Config{}, evs)
	want := []string{
		"claude cannot carry per-turn usage known only at the turn's end (assistant lines carry the usage of the message's start; the result line has the sum)",
		"claude cannot carry tool result exit codes and status",
		"claude cannot carry the run summary of a subagent",
		"claude cannot carry awaiting tools",
		"claude cannot carry generated files",
		"claude cannot carry file changes",
		"claude cannot carry todo lists",
		"claude cannot carry unknown codex events",
	}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings differ (-want +got):\n%s", diff)
	}
	golden := filepath.Join("testdata", "every-event-type.jsonl")
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if wantOut, err := os.ReadFile(golden); err != nil || !bytes.Equal(out, wantOut) {
		t.Errorf("output differs from %s (run go test -update and review the diff)", golden)
	}
	d := parse.NewDecoder(bytes.NewReader(out), nil)
	for {
		_, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading our output: %v", err)
		}
	}
}

func TestTruncated(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := NewEncoder(&out, nil)
	for _, ev := range []event.Event{
		&event.BlockStart{Agent: "a", Kind: event.Text},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "Hel"},
	} {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	err := e.Close()
	if !errors.Is(err, event.ErrTruncated) {
		t.Fatalf("Close() = %v, want an error wrapping event.ErrTruncated", err)
	}
	if !strings.Contains(out.String(), `"aborted":true`) || strings.Contains(out.String(), `"type":"result"`) {
		t.Errorf("want an aborted snapshot and no result, got:\n%s", out.String())
	}
}

// TestPartialCut: with --partial, a stream cut inside a block ends as the
// source did: its deltas and nothing after them (no content_block_stop,
// message_delta or message_stop, no assistant snapshot the source never
// had), and Cut reports the truncation.
func TestPartialCut(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := NewEncoder(&out, &Config{Partial: true})
	for _, ev := range []event.Event{
		&event.SessionStart{Agent: "s", SessionID: "s", Model: "m"},
		&event.TurnStart{Agent: "s", MessageID: "msg_1", Model: "m", Usage: &event.Usage{InputTokens: 3, OutputTokens: 1, Has: event.HasInput | event.HasOutput}},
		&event.BlockStart{Agent: "s", Kind: event.Text},
		&event.Delta{Agent: "s", Kind: event.Text, Text: "Hel"},
	} {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Cut(); !errors.Is(err, event.ErrTruncated) {
		t.Fatalf("Cut() = %v, want an error wrapping event.ErrTruncated", err)
	}
	for _, not := range []string{`"content_block_stop"`, `"message_delta"`, `"message_stop"`, `"type":"assistant"`, `"type":"result"`} {
		if strings.Contains(out.String(), not) {
			t.Errorf("the cut output has %s:\n%s", not, out.String())
		}
	}
	if !strings.Contains(out.String(), `"text":"Hel"`) {
		t.Errorf("the delta that arrived is not written:\n%s", out.String())
	}
}

func BenchmarkEncode(b *testing.B) {
	evs := decode(b, filepath.Join(corpus, "partial-long-text.jsonl"))
	size, _ := encode(b, &Config{Partial: true}, evs)
	for _, partial := range []bool{false, true} {
		name := "snapshots"
		if partial {
			name = "partial"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(size)))
			for b.Loop() {
				e := NewEncoder(io.Discard, &Config{Partial: partial})
				for _, ev := range evs {
					e.Encode(ev)
				}
				e.Close()
			}
		})
	}
}

// FuzzEncoder feeds the events of arbitrary stream-json to the encoder
// and reads its output back: whatever the events, the output must be
// stream-json our reader takes without a problem (but the truncation it
// reports when a block was left open).
func FuzzEncoder(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*.json*"))
	eventtest.FuzzPieces(f, files, "\n", 512, false)
	f.Fuzz(func(t *testing.T, data []byte, partial bool) {
		var out bytes.Buffer
		in := func(r io.Reader) event.Decoder { return parse.NewDecoder(r, &parse.Config{MaxEventBytes: 4096}) }
		back := func(r io.Reader) event.Decoder { return parse.NewDecoder(r, nil) }
		eventtest.RoundTrip(t, data, in, back, NewEncoder(&out, &Config{Partial: partial}), &out)
	})
}

// TestInvalidToolInput: a tool call whose input is not JSON (possible
// through the library API) is written, as a JSON string, not a panic.
func TestInvalidToolInput(t *testing.T) {
	t.Parallel()
	for _, partial := range []bool{false, true} {
		t.Run(fmt.Sprintf("partial=%v", partial), func(t *testing.T) {
			t.Parallel()
			out, _ := encode(t, &Config{Partial: partial}, []event.Event{
				&event.ToolCall{Agent: "a", ID: "toolu_1", Name: "Bash", Input: []byte("{bad")},
			})
			d := parse.NewDecoder(bytes.NewReader(out), nil)
			var got []json.RawMessage
			for {
				ev, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("reading back: %v\n%s", err, out)
				}
				if c, ok := ev.(*event.ToolCall); ok {
					got = append(got, c.Input)
				}
			}
			want := []json.RawMessage{json.RawMessage(`"{bad"`)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tool call inputs read back (-want +got):\n%s\n%s", diff, out)
			}
		})
	}
}

// TestMaxBlockBytes checks that a block's text, held to write its
// assistant line, is capped so that the line fits in Config.MaxBlockBytes
// (a cap of 16 leaves half, 8 bytes of JSON text, for the text; a larger
// one keeps 4 KiB for the line's other fields): the rest is dropped from
// the snapshot and from the stream events alike, without splitting a
// rune, and reported once.
func TestMaxBlockBytes(t *testing.T) {
	t.Parallel()
	const warning = "claude cannot carry text beyond MaxEventBytes in one block"
	tests := []struct {
		name     string
		evs      []event.Event
		want     []string // the text of the blocks read back
		warnings []string
	}{
		{
			name: "under the cap",
			evs: []event.Event{
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "abcd"},
				&event.Delta{Kind: event.Text, Text: "efgh"},
				&event.BlockEnd{Kind: event.Text},
			},
			want: []string{"abcdefgh"},
		},
		{
			name: "over the cap",
			evs: []event.Event{
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "abcd"},
				&event.Delta{Kind: event.Text, Text: "efghij"},
				&event.Delta{Kind: event.Text, Text: "klmn"},
				&event.BlockEnd{Kind: event.Text},
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "0123456789"},
				&event.BlockEnd{Kind: event.Text},
			},
			want:     []string{"abcdefgh", "01234567"},
			warnings: []string{warning},
		},
		{
			name: "a rune at the cap",
			evs: []event.Event{
				&event.BlockStart{Kind: event.Thinking},
				&event.Delta{Kind: event.Thinking, Text: "abcdef€"}, // € is 3 bytes: 6..9
				&event.BlockEnd{Kind: event.Thinking},
			},
			want:     []string{"abcdef"},
			warnings: []string{warning},
		},
		{
			name: "escapes count",
			evs: []event.Event{
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: `ab"cd"ef`}, // ab\"cd\"ef
				&event.BlockEnd{Kind: event.Text},
			},
			want:     []string{`ab"cd"`},
			warnings: []string{warning},
		},
	}
	for _, tt := range tests {
		for _, partial := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/partial=%v", tt.name, partial), func(t *testing.T) {
				t.Parallel()
				out, warnings := encode(t, &Config{MaxBlockBytes: 16, Partial: partial}, tt.evs)
				d := parse.NewDecoder(bytes.NewReader(out), nil)
				var got []string
				text := ""
				for {
					ev, err := d.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("reading back: %v\n%s", err, out)
					}
					switch ev := ev.(type) {
					case *event.Delta:
						text += ev.Text
					case *event.BlockEnd:
						got, text = append(got, text), ""
					}
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("text read back (-want +got):\n%s\n%s", diff, out)
				}
				if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
					t.Errorf("warnings (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestRunFailed checks that every error is written as a synthetic error
// line, a failed turn as one of type turn_failed, and that the result line
// made at the end says the run failed, with the messages, when the main
// agent had a fatal error or a failed turn, or the RunEnd says so.
func TestRunFailed(t *testing.T) {
	t.Parallel()
	start := []event.Event{
		&event.SessionStart{Agent: "main"},
		&event.TurnStart{Agent: "main", MessageID: "m1"},
	}
	type want struct {
		Errors  []string // types of the error lines
		Subtype string
		IsError bool
		Listed  []string // result.errors
	}
	tests := []struct {
		name string
		evs  []event.Event
		want want
	}{
		{
			name: "fatal error and failed turn",
			evs: []event.Event{
				&event.Error{Agent: "main", Message: "bad request", Type: "invalid_request_error", Fatal: true},
				&event.TurnEnd{Agent: "main", MessageID: "m1", Error: "bad request"},
			},
			want: want{Errors: []string{"invalid_request_error", "turn_failed"}, Subtype: "error_during_execution", IsError: true, Listed: []string{"bad request"}},
		},
		{
			name: "failed turn",
			evs: []event.Event{
				&event.TurnEnd{Agent: "main", MessageID: "m1", Error: "boom"},
				&event.RunEnd{Agent: "main", StopReason: "end_turn"},
			},
			want: want{Errors: []string{"turn_failed"}, Subtype: "error_during_execution", IsError: true, Listed: []string{"boom"}},
		},
		{
			name: "non-fatal error",
			evs: []event.Event{
				&event.Error{Agent: "main", Message: "hiccup"},
				&event.TurnEnd{Agent: "main", MessageID: "m1", StopReason: "end_turn"},
			},
			want: want{Errors: []string{"unknown"}, Subtype: "success"},
		},
		{
			name: "RunEnd is_error with its errors",
			evs: []event.Event{
				&event.Error{Agent: "main", Message: "x", Fatal: true},
				&event.RunEnd{Agent: "main", IsError: true, Errors: []string{"y"}},
			},
			want: want{Errors: []string{"unknown"}, Subtype: "error_during_execution", IsError: true, Listed: []string{"y"}},
		},
		{
			name: "RunEnd is_error without messages",
			evs: []event.Event{
				&event.TurnEnd{Agent: "main", MessageID: "m1", StopReason: "end_turn"},
				&event.RunEnd{Agent: "main", IsError: true},
			},
			want: want{Subtype: "success", IsError: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, _ := encode(t, &Config{}, append(slices.Clone(start), tt.evs...))
			var got want
			d := parse.NewDecoder(bytes.NewReader(out), nil)
			for {
				ev, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("reading back: %v\n%s", err, out)
				}
				switch ev := ev.(type) {
				case *event.Error:
					got.Errors = append(got.Errors, ev.Type)
				case *event.RunEnd:
					var r wire.Result
					if err := json.Unmarshal(ev.Meta, &r); err != nil {
						t.Fatal(err)
					}
					got.Subtype, got.IsError, got.Listed = r.Subtype, r.IsError, r.Errors
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\n%s", diff, out)
			}
		})
	}
}

// TestImageMediaType: a tool result's images keep their media type, for a
// URL source as for a data: URI, when read back.
func TestImageMediaType(t *testing.T) {
	t.Parallel()
	parts := []event.Part{
		{Type: "text", Text: "two images"},
		{Type: "image", Source: "/agent/a/images/img_1", MediaType: "image/png"},
		{Type: "image", Source: "data:image/jpeg;base64,AAAA", MediaType: "image/jpeg"},
	}
	out, _ := encode(t, &Config{}, []event.Event{
		&event.ToolCall{ID: "t1", Name: "Screenshot", Input: json.RawMessage(`{}`)},
		&event.ToolResult{ID: "t1", Name: "Screenshot", Content: parts},
	})
	var got []event.Part
	d := parse.NewDecoder(bytes.NewReader(out), nil)
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, out)
		}
		if r, ok := ev.(*event.ToolResult); ok {
			got = r.Content
		}
	}
	if diff := cmp.Diff(parts, got); diff != "" {
		t.Errorf("parts read back (-want +got):\n%s\n%s", diff, out)
	}
}

// TestSubagent checks a subagent's lines: parent_tool_use_id is the tool
// call that started it (its ParentToolID, or else its parent's latest call
// without a result, as the envelope names none), and its messages carry
// its own model, which reading takes back.
func TestSubagent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		parentTool string
		wantParent string
	}{
		{name: "ParentToolID", parentTool: "t1", wantParent: "t1"},
		{name: "latest call without a result", wantParent: "t2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs := []event.Event{
				&event.SessionStart{Agent: "main", Model: "claude-sonnet-4-5"},
				&event.ToolCall{Agent: "main", ID: "t0", Name: "Bash", Input: json.RawMessage(`{}`)},
				&event.ToolCall{Agent: "main", ID: "t1", Name: "Task", Input: json.RawMessage(`{}`)},
				&event.ToolCall{Agent: "main", ID: "t2", Name: "Task", Input: json.RawMessage(`{}`)},
				&event.ToolCall{Agent: "main", ID: "t3", Name: "Bash", Input: json.RawMessage(`{}`)},
				&event.ToolResult{Agent: "main", ID: "t3", Content: []event.Part{{Type: "text", Text: "ok"}}},
				&event.SessionStart{Agent: "sub-uuid", ParentAgent: "main", ParentToolID: tt.parentTool, Model: "claude-haiku-4-5", Prompt: "do it"},
				&event.Delta{Agent: "sub-uuid", Kind: event.Text, Text: "done"},
				&event.BlockEnd{Agent: "sub-uuid", Kind: event.Text},
				&event.ToolResult{Agent: "main", ID: tt.wantParent, Content: []event.Part{{Type: "text", Text: "done"}}},
			}
			out, warnings := encode(t, &Config{}, evs)
			var starts []string
			d := parse.NewDecoder(bytes.NewReader(out), nil)
			for {
				ev, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("reading back: %v\n%s", err, out)
				}
				if s, ok := ev.(*event.SessionStart); ok {
					starts = append(starts, fmt.Sprintf("%s parent tool %q model %q prompt %q", s.Agent, s.ParentToolID, s.Model, s.Prompt))
				}
			}
			want := []string{
				`main parent tool "" model "claude-sonnet-4-5" prompt ""`,
				fmt.Sprintf("%s parent tool %q model \"claude-haiku-4-5\" prompt \"do it\"", tt.wantParent, tt.wantParent),
			}
			if diff := cmp.Diff(want, starts); diff != "" {
				t.Errorf("sessions read back (-want +got):\n%s\n%s", diff, out)
			}
			wantWarn := []string{"claude cannot carry subagent ids (Claude Code names a subagent by the tool call that started it)"}
			if diff := cmp.Diff(wantWarn, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMaxBlockBytesReadBack: the assistant line of a block over the cap,
// escapes and all, is read back by a decoder with the same cap.
func TestMaxBlockBytesReadBack(t *testing.T) {
	t.Parallel()
	const max = 64 << 10
	text := strings.Repeat("say \"hi\"\n\x01\u2028é", 20<<10)
	out, warnings := encode(t, &Config{MaxBlockBytes: max}, []event.Event{
		&event.SessionStart{Agent: "main", Model: "claude-sonnet-4-5"},
		&event.Delta{Agent: "main", Kind: event.Text, Text: text},
		&event.BlockEnd{Agent: "main", Kind: event.Text},
	})
	if len(warnings) != 1 {
		t.Errorf("warnings = %q, want one", warnings)
	}
	d := parse.NewDecoder(bytes.NewReader(out), &parse.Config{MaxEventBytes: max})
	got := ""
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if ev, ok := ev.(*event.Delta); ok {
			got += ev.Text
		}
	}
	if len(got) < max/4 || !strings.HasPrefix(text, got) {
		t.Errorf("read back %d bytes, want a prefix of the text of at least %d", len(got), max/4)
	}
}

// TestInputFragments: claude -> claude --partial of a partial recording
// keeps one input_json_delta per fragment of the input, with its text.
func TestInputFragments(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(corpus + "/partial-*.jsonl")
	if len(files) == 0 {
		t.Fatal("no partial recordings")
	}
	fragments := func(data []byte) []string {
		var out []string
		for line := range bytes.Lines(data) {
			var l struct {
				Event struct {
					Delta struct {
						Type        string  `json:"type"`
						PartialJSON *string `json:"partial_json"`
					} `json:"delta"`
				} `json:"event"`
			}
			if json.Unmarshal(line, &l) == nil && l.Event.Delta.Type == "input_json_delta" && l.Event.Delta.PartialJSON != nil {
				out = append(out, *l.Event.Delta.PartialJSON)
			}
		}
		return out
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := encode(t, &Config{Partial: true}, decodeBytes(t, file, data))
			if diff := cmp.Diff(fragments(data), fragments(out)); diff != "" {
				t.Errorf("input_json_delta fragments (-recorded +written):\n%s", diff)
			}
		})
	}
}

// header holds the fields every line ends with, as the lines written
// without reflection write them.
type header struct {
	ParentToolUseID *string `json:"parent_tool_use_id"`
	SessionID       string  `json:"session_id"`
	UUID            string  `json:"uuid"`
}

// uuid returns the next line's uuid (see appendUUID).
func (e *Encoder) uuid() string { return string(e.appendUUID(nil)) }

func (e *Encoder) header(a *agent) header {
	return header{ParentToolUseID: a.parent, SessionID: e.session, UUID: e.uuid()}
}

// TestLinesAsMarshal: the lines written without reflection are what
// encoding/json writes for them.
func TestLinesAsMarshal(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "q\"b\\<&>\u2028\u2029\x01é", "bad \xff"} {
		var out bytes.Buffer
		e := NewEncoder(&out, nil)
		e.setSession(s)
		sub := s + "parent"
		for _, a := range []*agent{{id: s}, {id: "sub", parent: &sub}} {
			block := []byte(`{"type":"text","text":"x"}`)
			e.n = 0
			want, err := messages.Marshal(struct {
				Type    string `json:"type"`
				Message any    `json:"message"`
				header
			}{Type: wire.TypeAssistant, Message: json.RawMessage(messages.AppendMessage(nil, s, s, nil, block)), header: e.header(a)})
			if err != nil {
				t.Fatal(err)
			}
			e.n = 0
			if diff := cmp.Diff(string(want), string(e.appendAssistant(nil, a, messages.MessageInfo{ID: s, Model: s}, block))+"}"); diff != "" {
				t.Errorf("%q: assistant line (-Marshal +appendAssistant):\n%s", s, diff)
			}
			// An error line: one of Claude Code's synthetic messages, its
			// id a uuid made as the lines' are.
			e.n = 0
			noUsage := event.Usage{Has: event.HasTokens | event.HasCacheRead | event.HasCacheWrite}
			msg := messages.AppendMessage(nil, e.uuid(), wire.SyntheticModel, &noUsage, appendTextBlock(nil, s+"!", false))
			want, _ = messages.Marshal(struct {
				Type    string          `json:"type"`
				Message json.RawMessage `json:"message"`
				header
				Error string `json:"error"`
			}{Type: wire.TypeAssistant, Message: msg, header: e.header(a), Error: s + "t"})
			e.n = 0
			out.Reset()
			e.errorLine(&agent{id: a.id, parent: a.parent, st: &messages.Streamer{}}, &event.Error{Message: s + "!", Type: s + "t"})
			if !cmp.Equal(string(want)+"\n", out.String()) {
				t.Errorf("%q: error line (-Marshal +errorLine):\n%s", s, cmp.Diff(string(want)+"\n", out.String()))
			}
			e.n = 0
			want, _ = messages.Marshal(struct {
				Type  string          `json:"type"`
				Event json.RawMessage `json:"event"`
				header
			}{Type: wire.TypeStreamEvent, Event: block, header: e.header(a)})
			e.n, e.cfg.Partial = 0, true
			out.Reset()
			e.streamEvent(&agent{id: a.id}, block)
			if a.parent == nil && !cmp.Equal(string(want)+"\n", out.String()) {
				t.Errorf("%q: stream_event line (-Marshal +streamEvent):\n%s", s, cmp.Diff(string(want)+"\n", out.String()))
			}
		}
	}
}

var marshalledSeeds = []string{
	`""`, `"plain"`, `"q\"b\\ \n\r\t\b\f"`, `"\u0000\u001f"`, `"\u0008"`, `"\u000a"`, `"\/"`, `"\u0041"`,
	`"\u00e9"`, `"\u00E9"`, `"\u001F"`, `"\u2028\u2029"`, "\"\u2028\"", `"\ufffd"`, "\"\ufffd\"", `"\ud83d\ude00"`,
	"\"é 日本 🎌\"", "\"bad \xff\"", `"<&>"`,
}

// checkMarshalled: marshalled says a JSON string is what Marshal writes
// for its text exactly when it is.
func checkMarshalled(t *testing.T, s string) {
	var text string
	if json.Unmarshal([]byte(s), &text) != nil || !strings.HasPrefix(strings.TrimSpace(s), `"`) || !json.Valid([]byte(s)) {
		return
	}
	b, _ := messages.Marshal(text)
	if want := string(b) == s; marshalled([]byte(s)) != want {
		t.Errorf("marshalled(%q) = %v, want %v (Marshal writes %q)", s, !want, want, b)
	}
}

// checkMarshalledEscapes: on what jsontext.AppendMarshalString writes
// (the text blocks of a Streamer), marshalledEscapes says what
// marshalled says.
func checkMarshalledEscapes(t *testing.T, s string) {
	b := jsontext.AppendMarshalString(nil, s)
	if got, want := marshalledEscapes(b), marshalled(b); got != want {
		t.Errorf("marshalledEscapes(%q) = %v, marshalled %v", b, got, want)
	}
}

func TestMarshalled(t *testing.T) {
	t.Parallel()
	for _, s := range marshalledSeeds {
		checkMarshalled(t, s)
		checkMarshalledEscapes(t, s)
		checkMarshalledEscapes(t, s[1:])
	}
}

func FuzzMarshalled(f *testing.F) {
	for _, s := range marshalledSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkMarshalled(t, s)
		checkMarshalledEscapes(t, s)
	})
}

// TestBigBlocks: a block written around (not copied into) its line
// gives the same bytes as one copied.
func TestBigBlocks(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(corpus, "*.json*"))
	if len(files) == 0 {
		t.Fatal("no recordings")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		evs := eventtest.Events(eventtest.All(parse.NewDecoder(bytes.NewReader(data), nil)))
		for _, partial := range []bool{false, true} {
			var outs [2]bytes.Buffer
			for i, big := range []int{1 << 30, 0} {
				e := NewEncoder(&outs[i], &Config{Partial: partial})
				e.bigBlock = big
				for _, ev := range evs {
					e.Encode(ev)
				}
				e.Close()
			}
			if diff := cmp.Diff(outs[0].String(), outs[1].String()); diff != "" {
				t.Errorf("%s, partial %v: blocks written around their line differ (-copied +around):\n%s", file, partial, diff)
			}
		}
	}
}

// TestUnknownBlockReadsBack: a content block of a type the reader does not
// know is kept whole (an Unknown of format anthropic), whatever its other
// fields hold, and written back as it came; what is written reads back to
// the same block, without a problem. A kept block of a known type that the
// reader could not take is not written (it would not read back): a loss.
func TestUnknownBlockReadsBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		problem  string   // of the input
		want     []string // the Unknown blocks read, as type and JSON
		back     []string // those read back from our output
		warnings []string
	}{
		{
			"case-variant keys, id an object",
			`{"tYpe":"assistant","messAge":{"Content":[{"tYpe":"00000000","id":{}}]}}`,
			"",
			[]string{`00000000 {"tYpe":"00000000","id":{}}`},
			[]string{`00000000 {"tYpe":"00000000","id":{}}`},
			nil,
		},
		{
			"fields of known names, other types",
			`{"type":"assistant","message":{"id":"m1","content":[{"type":"new_kind","id":{"a":1},"name":5,"text":[]}]},"session_id":"s"}`,
			"",
			[]string{`new_kind {"type":"new_kind","id":{"a":1},"name":5,"text":[]}`},
			[]string{`new_kind {"type":"new_kind","id":{"a":1},"name":5,"text":[]}`},
			nil,
		},
		{
			"known type, id an object",
			`{"tYpe":"assistant","messAge":{"Content":[{"tYpe":"tool_use","id":{}}]}}`,
			"<input>:1:1: content block of message (no id): id is a JSON object, not a string",
			[]string{` {"tYpe":"tool_use","id":{}}`},
			nil,
			[]string{"claude cannot carry unknown anthropic events"},
		},
	}
	unknowns := func(t *testing.T, data []byte) (evs []event.Event, got, problems []string) {
		t.Helper()
		for _, it := range eventtest.All(parse.NewDecoder(bytes.NewReader(data), nil)) {
			switch {
			case it.Err != "" && !strings.Contains(it.Err, "stream ended before the result line"):
				problems = append(problems, it.Err)
			case it.Event != nil:
				evs = append(evs, it.Event)
				if u, ok := it.Event.(*event.Unknown); ok {
					got = append(got, u.Type+" "+string(u.Raw))
				}
			}
		}
		return evs, got, problems
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs, got, problems := unknowns(t, []byte(tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("blocks read (-want +got):\n%s", diff)
			}
			var wantProblems []string
			if tt.problem != "" {
				wantProblems = []string{tt.problem}
			}
			if diff := cmp.Diff(wantProblems, problems); diff != "" {
				t.Errorf("problems of the input (-want +got):\n%s", diff)
			}
			for _, partial := range []bool{false, true} {
				out, warnings := encode(t, &Config{Partial: partial}, evs)
				if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
					t.Errorf("partial=%v: warnings (-want +got):\n%s", partial, diff)
				}
				_, back, problems := unknowns(t, out)
				if len(problems) > 0 {
					t.Errorf("partial=%v: reading our output: %q\n%s", partial, problems, out)
				}
				if diff := cmp.Diff(tt.back, back); diff != "" {
					t.Errorf("partial=%v: blocks read back (-want +got):\n%s\n%s", partial, diff, out)
				}
			}
		})
	}
}

// marshalsToSeeds are pairs of texts: the first is escaped, and
// marshalsTo asked whether the second escapes the same.
var marshalsToSeeds = [][2]string{
	{"plain", "plain"},
	{"plain", "plaim"},
	{"plain", "plai"},
	{"plain", "plainx"},
	{"", ""},
	{"", "x"},
	{"q\"b\\ \n\r\t\b\f", "q\"b\\ \n\r\t\b\f"},
	{"\n", "\r"},
	{"\x00\x1f", "\x00\x1f"},
	{"\x00", "\x01"},
	{"x\u2028y\u2029", "x\u2028y\u2029"},
	{"\u2028", "\u2029"},
	{"bad \xff", "bad \xff"},
	{"bad \xff", "bad \ufffd"},
	{"\xe2\x80x", "\xe2\x80x"},
	{"\xe2\x80", "\xe2\x80\xa8"},
	{"é 日本 🎌", "é 日本 🎌"},
	{"é", "è"},
	{"<&>", "<&>"},
}

// checkMarshalsTo: on what jsontext.AppendMarshalString writes for a,
// marshalsTo says whether it writes b the same.
func checkMarshalsTo(t *testing.T, a, b string) {
	q := jsontext.AppendMarshalString(nil, a)
	want := string(q) == string(jsontext.AppendMarshalString(nil, b))
	if got := marshalsTo(b, q); got != want {
		t.Errorf("marshalsTo(%q, %q) = %v, want %v", b, q, got, want)
	}
}

func TestMarshalsTo(t *testing.T) {
	t.Parallel()
	for _, s := range marshalsToSeeds {
		checkMarshalsTo(t, s[0], s[1])
		checkMarshalsTo(t, s[1], s[0])
		checkMarshalsTo(t, s[0], s[0])
	}
}

func FuzzMarshalsTo(f *testing.F) {
	for _, s := range marshalsToSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		checkMarshalsTo(t, a, b)
		checkMarshalsTo(t, a, a)
	})
}

// abandonedRun is a message given up and begun again (a retried API call),
// as the Claude reader gives it: the open block has no BlockEnd, a Notice
// says so, and the turn ends with no stop reason and no error.
var abandonedRun = []event.Event{
	&event.SessionStart{Agent: "s", SessionID: "s", Model: "m"},
	&event.TurnStart{Agent: "s", MessageID: "msg_a", Model: "m"},
	&event.BlockStart{Agent: "s", Kind: event.Text},
	&event.Delta{Agent: "s", Kind: event.Text, Text: "Hel"},
	&event.Notice{Agent: "s", Kind: event.NoticeAbandoned, Message: "message msg_a was abandoned"},
	&event.TurnEnd{Agent: "s", MessageID: "msg_a"},
	&event.TurnStart{Agent: "s", MessageID: "msg_b", Model: "m"},
	&event.BlockStart{Agent: "s", Kind: event.Text},
	&event.Delta{Agent: "s", Kind: event.Text, Text: "Hello"},
	&event.BlockEnd{Agent: "s", Kind: event.Text},
	&event.TurnEnd{Agent: "s", MessageID: "msg_b", StopReason: "end_turn"},
	&event.RunEnd{Agent: "s", StopReason: "end_turn"},
}

// TestAbandoned: an abandoned message is no failure and no content. With
// --partial it is written as it came (its deltas, then nothing of it);
// without, it is left out and the loss reported. No error line is made up.
func TestAbandoned(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, &Config{Partial: true}, abandonedRun)
	var stops []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var line struct {
			Type  string `json:"type"`
			Event struct {
				Type string `json:"type"`
			} `json:"event"`
			Message struct {
				ID    string `json:"id"`
				Model string `json:"model"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatal(err)
		}
		switch {
		case line.Type == "stream_event":
			stops = append(stops, line.Event.Type)
		case line.Type == "assistant" && (line.Message.ID == "msg_a" || line.Message.Model == "<synthetic>"):
			t.Errorf("partial: an assistant line for the abandoned message or a made-up error: %s", l)
		case line.Type == "system" && strings.Contains(l, "abandoned"):
			t.Errorf("partial: the reader's notice written as a line: %s", l)
		}
	}
	want := []string{
		"message_start", "content_block_start", "content_block_delta", // msg_a, given up
		"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop",
	}
	if diff := cmp.Diff(want, stops); diff != "" {
		t.Errorf("partial: stream events (-want +got):\n%s", diff)
	}

	out, warnings := encode(t, &Config{}, abandonedRun)
	if strings.Contains(string(out), `"Hel"`) || strings.Contains(string(out), "<synthetic>") {
		t.Errorf("without partial: the abandoned text or a made-up error is written:\n%s", out)
	}
	if !slices.Contains(warnings, "claude cannot carry abandoned partial messages (dropped: only --partial shows them)") {
		t.Errorf("without partial: the dropped message is not reported: %q", warnings)
	}
}

// TestResultUsageCounts: the usage of a made result line has the counts
// the source gave, a 0 among them, and no count it did not give (input
// or output null, a cache count absent), as the assistant lines' usage.
func TestResultUsageCounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		turn *event.Usage // the turn's usage, summed when the run end has none
		run  *event.Usage
		want string
	}{
		{
			name: "cache counts of 0 said",
			turn: &event.Usage{InputTokens: 3, OutputTokens: 4, Has: event.HasTokens | event.HasCacheRead | event.HasCacheWrite},
			want: `{"input_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":4}`,
		},
		{
			name: "run usage of output only",
			run:  &event.Usage{OutputTokens: 5, Has: event.HasOutput},
			want: `{"input_tokens":null,"output_tokens":5}`,
		},
		{
			name: "no usage",
			want: `{"input_tokens":null,"output_tokens":null}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs := []event.Event{
				&event.SessionStart{Agent: "s", SessionID: "s"},
				&event.TurnStart{Agent: "s", MessageID: "msg_1"},
				&event.Delta{Agent: "s", Kind: event.Text, Text: "hi"},
				&event.TurnEnd{Agent: "s", MessageID: "msg_1", StopReason: "end_turn", Usage: tt.turn},
				&event.RunEnd{Agent: "s", StopReason: "end_turn", Usage: tt.run},
			}
			out, _ := encode(t, &Config{}, evs)
			lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
			var res struct {
				Type  string          `json:"type"`
				Usage json.RawMessage `json:"usage"`
			}
			if err := json.Unmarshal(lines[len(lines)-1], &res); err != nil || res.Type != wire.TypeResult {
				t.Fatalf("last line is no result line (%v): %s", err, lines[len(lines)-1])
			}
			if diff := cmp.Diff(tt.want, string(res.Usage)); diff != "" {
				t.Errorf("result usage (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNoticeSourceLine: a notice's source line is written as it came only
// when it is a stream-json line (a session_id of its own); another
// format's line of that type, even one naming session_id deeper down, is
// written as an informational system line.
func TestNoticeSourceLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string
		verbatim  bool
	}{
		{"stream-json", `{"type":"system","subtype":"api_retry","attempt":1,"session_id":"s"}`, true},
		{"session log", `{"type":"queue-operation","operation":"enqueue","sessionId":"s"}`, false},
		{"nested session_id", `{"type":"plan","item":{"session_id":"s"}}`, false},
		{"session_id in a string", `{"type":"plan","text":"\"session_id\""}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var kind string
			var head struct{ Type, Subtype string }
			if err := json.Unmarshal([]byte(tt.raw), &head); err != nil {
				t.Fatal(err)
			}
			kind = head.Type
			if head.Subtype != "" {
				kind = head.Subtype
			}
			out, _ := encode(t, &Config{}, []event.Event{&event.Notice{Agent: "s", Kind: kind, Message: "m", Raw: json.RawMessage(tt.raw)}})
			if got := strings.Contains(string(out), tt.raw); got != tt.verbatim {
				t.Errorf("written as it came: %v, want %v:\n%s", got, tt.verbatim, out)
			}
			if !tt.verbatim && !strings.Contains(string(out), `"subtype":"informational"`) {
				t.Errorf("no informational line:\n%s", out)
			}
		})
	}
}

// TestLinesInOutputBuffer: lines built in a bufio.Writer's free space
// (lineBuf) are the lines built apart and copied, whatever room the
// buffer has left at each line.
func TestLinesInOutputBuffer(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(corpus, "*.json*"))
	if len(files) == 0 {
		t.Fatal("no recordings")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		evs := eventtest.Events(eventtest.All(parse.NewDecoder(bytes.NewReader(data), nil)))
		for _, partial := range []bool{false, true} {
			var apart bytes.Buffer
			run := func(w io.Writer) {
				e := NewEncoder(w, &Config{Partial: partial})
				for _, ev := range evs {
					e.Encode(ev)
				}
				e.Close()
			}
			run(struct{ io.Writer }{&apart}) // no AvailableBuffer: every line copied
			for _, size := range []int{lineRoomAvail + 100, 4 << 10, 64 << 10} {
				var out bytes.Buffer
				w := bufio.NewWriterSize(&out, size)
				run(w)
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(apart.String(), out.String()); diff != "" {
					t.Errorf("%s, partial %v, buffer %d: lines differ (-apart +in the buffer):\n%s", file, partial, size, diff)
				}
			}
		}
	}
}

// TestWarnOnce: each kind of loss is reported once, however many kinds
// come in turn (more than warn looks for first) and the empty kind too.
func TestWarnOnce(t *testing.T) {
	t.Parallel()
	var got []string
	e := NewEncoder(io.Discard, &Config{Warn: func(err error) {
		var loss *event.LossError
		if !errors.As(err, &loss) {
			t.Fatalf("warning is not a *event.LossError: %v", err)
		}
		got = append(got, loss.What)
	}})
	kinds := []string{"", "a", "b", "c", "d", "e", "f"}
	for range 3 {
		for _, k := range kinds {
			e.warn(k)
			e.warn(k)
		}
		for _, k := range slices.Backward(kinds) {
			e.warn(k)
		}
	}
	if diff := cmp.Diff(kinds, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
