package geminisession_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/geminisession"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

// logs are the session logs of testdata/gemini-session and of the shared
// corpus (corpus/gemini/*.session.jsonl), when it is there.
func logs(t testing.TB) []string {
	t.Helper()
	out, _ := filepath.Glob("../../testdata/gemini-session/*.jsonl")
	more, _ := filepath.Glob("../../../shared/corpus/gemini/*.session.jsonl")
	out = append(out, more...)
	if len(out) == 0 {
		t.Fatal("no session logs")
	}
	return out
}

func newDecoder(r io.Reader, name string) event.Decoder {
	return geminisession.NewDecoder(r, &geminisession.Config{Source: name})
}

type item struct {
	Kind, ID, Name, Text string
	Input                any
	IsError              bool
}

// fromLines reads the content of a log from its raw lines, independently
// of the decoder: each gemini message's thoughts and text, then its tool
// calls and their results (a message written again adds what it did not
// have), the message list patches and user lines left out.
func fromLines(t *testing.T, data []byte) []item {
	t.Helper()
	var out []item
	seen := map[string]bool{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		if m["type"] != "gemini" {
			continue
		}
		id := m["id"].(string)
		if !seen[id] {
			seen[id] = true
			thoughts, _ := m["thoughts"].([]any)
			for _, th := range thoughts {
				th := th.(map[string]any)
				out = append(out, item{Kind: "thinking", Text: th["subject"].(string) + "\n\n" + th["description"].(string)})
			}
			text := ""
			switch c := m["content"].(type) {
			case string:
				text = c
			case []any:
				for _, p := range c {
					text += p.(map[string]any)["text"].(string)
				}
			}
			if text != "" {
				out = append(out, item{Kind: "text", Text: text})
			}
		}
		calls, _ := m["toolCalls"].([]any)
		for _, c := range calls {
			c := c.(map[string]any)
			if !seen[c["id"].(string)] {
				seen[c["id"].(string)] = true
				out = append(out, item{Kind: "tool_call", ID: c["id"].(string), Name: c["name"].(string), Input: c["args"]})
			}
		}
		for _, c := range calls {
			c := c.(map[string]any)
			if seen["result "+c["id"].(string)] {
				continue
			}
			seen["result "+c["id"].(string)] = true
			display, _ := c["resultDisplay"].(string)
			out = append(out, item{Kind: "tool_result", ID: c["id"].(string), Name: c["name"].(string), Text: display, IsError: c["status"] == "error"})
		}
	}
	return out
}

func fromBlocks(t *testing.T, blocks []*assemble.Block) []item {
	t.Helper()
	var out []item
	for _, b := range blocks {
		switch b.Type {
		case assemble.TypeText, assemble.TypeThinking:
			out = append(out, item{Kind: b.Type, Text: b.Text})
		case assemble.TypeToolCall:
			var in any
			if err := json.Unmarshal(b.Input, &in); err != nil {
				t.Fatal(err)
			}
			out = append(out, item{Kind: "tool_call", ID: b.ID, Name: b.Name, Input: in})
		case assemble.TypeToolResult:
			r := item{Kind: "tool_result", ID: b.ID, Name: b.Name, IsError: b.IsError}
			if b.Content != nil {
				r.Text = *b.Content
			}
			out = append(out, r)
		}
	}
	return out
}

// TestLogs: every log reads with no problem and assembles to the
// thoughts, text, tool calls and results its lines hold.
func TestLogs(t *testing.T) {
	t.Parallel()
	for _, path := range logs(t) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			evs, problems := eventtest.EventsAndProblems(t, newDecoder(bytes.NewReader(data), path))
			if len(problems) > 0 {
				t.Errorf("problems: %q", problems)
			}
			a := assemble.New(0)
			var blocks []*assemble.Block
			for _, ev := range evs {
				bs, err := a.Add(ev)
				if err != nil {
					t.Fatal(err)
				}
				blocks = append(blocks, bs...)
			}
			blocks = append(blocks, a.Flush()...)
			if diff := cmp.Diff(fromLines(t, data), fromBlocks(t, blocks)); diff != "" {
				t.Errorf("content differs from the lines' (-lines +assembled):\n%s", diff)
			}
		})
	}
}

// TestReads: how the input is split into reads changes nothing.
func TestReads(t *testing.T) {
	t.Parallel()
	for _, path := range logs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			fuzzcheck.Check(t, data, func(r io.Reader) event.Decoder { return newDecoder(r, "in") })
		})
	}
}

func FuzzDecoder(f *testing.F) {
	for _, path := range logs(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Check(t, data, func(r io.Reader) event.Decoder {
			return geminisession.NewDecoder(r, &geminisession.Config{Source: "in", MaxEventBytes: 4096})
		})
	})
}

// TestMapping: the session's start, a message written twice, usage with
// thoughts, and what is not the format.
func TestMapping(t *testing.T) {
	t.Parallel()
	const header = `{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","kind":"main"}`
	const g1 = `{"id":"g","timestamp":"t","type":"gemini","content":"ok","thoughts":[],"tokens":{"input":10,"output":2,"cached":4,"thoughts":3,"tool":0,"total":15},"model":"m"}`
	const g1calls = `{"id":"g","timestamp":"t","type":"gemini","content":"ok","thoughts":[],"tokens":{"input":10,"output":2,"cached":4,"thoughts":3,"tool":0,"total":15},"model":"m","toolCalls":[{"id":"c","name":"read_file","args":{"file_path":"x"},"result":[{"functionResponse":{"id":"c","name":"read_file","response":{"error":"no x"}}}],"status":"error","timestamp":"t","resultDisplay":"File not found."}]}`
	tests := []struct {
		name     string
		in       string
		want     []event.Event
		problems []string
	}{
		{
			name: "a message written again adds its tool calls, inside its turn",
			in: header + "\n" + `{"id":"u","timestamp":"t","type":"user","content":[{"text":"hi"}]}` + "\n" + g1 + "\n" + g1calls + "\n" +
				`{"id":"u2","timestamp":"t","type":"user","content":[{"functionResponse":{"id":"c","name":"read_file","response":{"error":"no x"}}}]}` + "\n",
			want: []event.Event{
				&event.SessionStart{Agent: "s", SessionID: "s", Prompt: "hi", Meta: json.RawMessage(header), MetaKind: geminisession.MetaKind},
				&event.TurnStart{Agent: "s", MessageID: "g", Model: "m"},
				&event.BlockStart{Agent: "s", Kind: event.Text},
				&event.Delta{Agent: "s", Kind: event.Text, Text: "ok"},
				&event.BlockEnd{Agent: "s", Kind: event.Text},
				&event.ToolCall{Agent: "s", ID: "c", Name: "read_file", Input: json.RawMessage(`{"file_path":"x"}`)},
				&event.ToolResult{
					Agent: "s", ID: "c", Name: "read_file", IsError: true,
					Content: []event.Part{{Type: "text", Text: "File not found."}}, Structured: json.RawMessage(`{"error":"no x"}`),
				},
				&event.TurnEnd{Agent: "s", MessageID: "g", Usage: &event.Usage{InputTokens: 10, OutputTokens: 5, CacheReadTokens: 4, ReasoningTokens: 3, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasReasoning}},
			},
		},
		{
			name:     "a stream-json line is not the log's",
			in:       `{"type":"init","timestamp":"t","session_id":"s","model":"auto"}` + "\n",
			problems: []string{"in:1:1: a init line of Gemini CLI stream-json, not of its session log (read it with --from gemini); skipped", "in: no Gemini CLI session log line in the input"},
		},
		{
			name: "a log still being written",
			in:   header + "\n" + `{"id":"u","timestamp":"t","type":"user","con`,
			want: []event.Event{
				&event.SessionStart{Agent: "s", SessionID: "s", Meta: json.RawMessage(header), MetaKind: geminisession.MetaKind},
			},
			problems: []string{"in:2:1: log ends inside line 2 (still being written?)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, problems := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(tt.in), "in"))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want bool
	}{
		{`{"sessionId":"s","projectHash":"h","startTime":"t"}`, true},
		{`{"$set":{"lastUpdated":"t"}}`, true},
		{`{"id":"g","timestamp":"t","type":"gemini","content":"x"}`, true},
		{`{"type":"user","sessionId":"s","uuid":"u","parentUuid":null}`, false},
		{`{"type":"init","timestamp":"t","session_id":"s","model":"m"}`, false},
		{`{"timestamp":"t","type":"session_meta","payload":{}}`, false},
	}
	for _, tt := range tests {
		if got := geminisession.Detect(format.Head{Payload: []byte(tt.line)}); got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
