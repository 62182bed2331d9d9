package convert_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

func ptr[T any](v T) *T { return &v }

// allEvents holds one of every event type, with every field set.
func allEvents() []event.Event {
	exit := 2
	return []event.Event{
		&event.SessionStart{Agent: "a1", SessionID: "s1", Model: "m", Tools: []string{"Bash"}, Cwd: "/w", Prompt: "hi"},
		&event.TurnStart{Agent: "a1", MessageID: "msg_1", Model: "m"},
		&event.BlockStart{Agent: "a1", Kind: event.Thinking},
		&event.Delta{Agent: "a1", Kind: event.Thinking, Text: "hmm "},
		&event.BlockEnd{Agent: "a1", Kind: event.Thinking, Signature: "sig"},
		&event.BlockStart{Agent: "a1", Kind: event.Text},
		&event.Delta{Agent: "a1", Kind: event.Text, Text: "Hello <b>&</b> 🦊"},
		&event.BlockEnd{Agent: "a1", Kind: event.Text},
		&event.Citations{Agent: "a1", Items: []event.Citation{{
			Type: "char_location", CitedText: "c", DocumentIndex: ptr[int64](0),
			DocumentTitle: ptr("d"), StartCharIndex: ptr[int64](0), EndCharIndex: ptr[int64](1),
		}}},
		&event.ToolCall{Agent: "a1", ID: "t1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.ToolResult{
			Agent: "a1", ID: "t1", Name: "Bash", Content: []event.Part{
				{Type: "text", Text: "out"},
				{Type: "image", Source: "data:image/png;base64,AA==", MediaType: "image/png"},
			}, IsError: true, ExitCode: &exit,
			Status: "failed", Structured: json.RawMessage(`{"stdout":"out"}`),
		},
		&event.ToolCall{Agent: "a1", ID: "s1", Name: "web_search", Input: json.RawMessage(`{"query":"q"}`), Server: true},
		&event.ToolResult{
			Agent: "a1", ID: "s1", Name: "web_search_tool_result", Server: true,
			Content: []event.Part{{Type: "text", Text: `[{"title":"r"}]`}},
		},
		&event.ToolCall{Agent: "a1", ID: "m1", Name: "fetch", MCPServer: "srv", Input: json.RawMessage(`{}`)},
		&event.ToolResult{Agent: "a1", ID: "m1", Name: "fetch", Content: []event.Part{{Type: "text", Text: "ok"}}},
		&event.SessionStart{Agent: "a2", ParentAgent: "a1", ParentToolID: "t1", Name: "sub", Description: "d"},
		&event.BlockStart{Agent: "a2", Kind: event.Text},
		&event.Delta{Agent: "a2", Kind: event.Text, Text: "child"},
		&event.BlockEnd{Agent: "a2", Kind: event.Text},
		&event.AwaitingTools{Agent: "a1", Tools: []event.PendingTool{{ID: "t9", Name: "confirm", Input: json.RawMessage(`{}`)}}},
		&event.Files{Agent: "a1", Files: []event.File{{ID: "f", Name: "r.pdf", Location: "https://x"}}},
		&event.FileChange{Agent: "a1", ID: "fc", Changes: []event.Change{{Path: "a.go", Kind: "update"}}, Status: "completed"},
		&event.TodoList{Agent: "a1", ID: "td", Items: []event.TodoItem{{Text: "x", Status: "completed"}}},
		&event.Notice{Agent: "a1", Kind: "api_retry", Message: "retry 1/3"},
		&event.Error{Agent: "a1", Message: "overloaded", Type: "overloaded_error"},
		&event.Unknown{Agent: "a1", Format: "nosuch", Type: "x", Raw: []byte(`{"type":"x"}`)},
		&event.TurnEnd{Agent: "a1", MessageID: "msg_1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, Has: event.HasInput | event.HasOutput}},
		&event.TurnEnd{Agent: "a1", Error: "turn failed"},
		&event.RunEnd{
			Agent: "a1", StopReason: "end_turn", Turns: 1, DurationMS: 5, CostUSD: ptr(0.01),
			Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, Has: event.HasInput | event.HasOutput}, IsError: false, Result: "Hello",
		},
	}
}

// TestEveryEventThroughEveryEncoder: every encoder accepts every event
// type, writes something or warns that it cannot, and its output (for the
// formats it can read back) decodes without a problem.
func TestEveryEventThroughEveryEncoder(t *testing.T) {
	t.Parallel()
	for _, f := range convert.Formats() {
		if f.NewEncoder == nil {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			var warnings []string
			enc := f.NewEncoder(&buf, &format.Options{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
			for _, ev := range allEvents() {
				if err := enc.Encode(ev); err != nil {
					t.Fatalf("Encode(%T): %v", ev, err)
				}
			}
			if err := enc.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			if buf.Len() == 0 {
				t.Fatal("no output")
			}
			for _, w := range warnings {
				var le *event.LossError
				_ = le
				if !strings.Contains(w, "cannot carry") {
					t.Errorf("warning %q does not say what is lost", w)
				}
			}
			if f.NewDecoder == nil {
				return
			}
			dec := f.NewDecoder(&buf, &format.Options{Source: "out"})
			n := 0
			for {
				_, err := dec.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Errorf("reading our own output back: %v", err)
					var perr *event.ParseError
					if !errors.As(err, &perr) {
						break
					}
					continue
				}
				n++
			}
			if n == 0 {
				t.Error("no events read back")
			}
		})
	}
}

// TestDetect: every testdata stream is detected as the format of its
// directory.
func TestDetect(t *testing.T) {
	t.Parallel()
	for _, f := range convert.Formats() {
		if f.Detect == nil {
			continue
		}
		paths, _ := filepath.Glob(filepath.Join("../testdata", f.Name, "*"))
		for _, p := range paths {
			if strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".events") || strings.HasSuffix(p, ".json") ||
				strings.Contains(filepath.Base(p), "truncated") {
				continue
			}
			in, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := convert.Detect(bufio.NewReader(in))
			in.Close()
			if err != nil {
				t.Errorf("%s: %v", p, err)
				continue
			}
			if got.Name != f.Name {
				t.Errorf("%s: detected %s, want %s", p, got.Name, f.Name)
			}
		}
	}
}

// TestDetectLive: detection reads no more than the first unit, so a live
// stream is not held up waiting for more.
func TestDetectLive(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	go pw.Write([]byte("data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"x\"}\n"))
	f, _, err := convert.Detect(bufio.NewReader(pr))
	if err != nil || f.Name != "jsonenv" {
		t.Fatalf("Detect = %v, %v", f.Name, err)
	}
	pw.Close()
}

// TestDetectPartialHead: detection works from what the first unit shows
// even when it is longer than detection reads or the input ends inside it.
func TestDetectPartialHead(t *testing.T) {
	t.Parallel()
	claude, err := os.ReadFile("../testdata/claude/plain-text.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, in, want string }{
		{"jsonenv first envelope over 64 KiB", `data: {"type":"text","agent":"a","final":true,"delta":"` + strings.Repeat("x", 70000) + "\"}\n\n", "jsonenv"},
		{"claude cut inside its first line", string(claude[:500]), "claude"},
		{"codex cut inside its first line", `{"type":"thread.started","thread_id":"01a1ff8`, "codex"},
		{"anthropic body that is only an error", "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", "anthropic"},
		{"anthropic without event lines", "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n", "anthropic"},
		{"the producer's error line", "data: {\"error\": \"RuntimeError\", \"message\": \"boom\", \"traceback\": \"...\"}\n\n", "jsonenv"},
	}
	for _, tt := range tests {
		f, _, err := convert.Detect(bufio.NewReader(strings.NewReader(tt.in)))
		if err != nil || f.Name != tt.want {
			t.Errorf("%s: detected %q, %v; want %s", tt.name, f.Name, err, tt.want)
		}
	}
}
