package openaichat

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/openaistream/openaitest"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/chatwire"
	parse "github.com/agentstream/agentstream/parse/openaichat"
)

const corpus = "../../testdata/openai-chat"

// TestDeltas: long text and tool arguments are streamed in pieces of at
// most openai.MaxDelta bytes, and a client reassembles them.
func TestDeltas(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("é日👩‍💻 ", 40)
	args := `{"command":"` + strings.Repeat("x", 300) + `"}`
	in := []event.Event{
		&event.TurnStart{MessageID: "c1", Model: "m"},
		&event.Delta{Kind: event.Text, Text: text},
		&event.BlockEnd{Kind: event.Text},
		&event.ToolCall{ID: "t1", Name: "Bash", Input: json.RawMessage(args)},
		&event.TurnEnd{MessageID: "c1", StopReason: "tool_use"},
	}
	out, _ := openaitest.Encode(t, NewEncoder, in)
	n := 0
	for _, msg := range strings.Split(strings.TrimSpace(string(out)), "\n\n") {
		data := strings.TrimPrefix(msg, "data: ")
		if data == wire.Done {
			continue
		}
		var c wire.Chunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatal(err)
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil && len(*ch.Delta.Content) > openai.MaxDelta {
				t.Errorf("content delta of %d bytes", len(*ch.Delta.Content))
			}
			for _, tc := range ch.Delta.ToolCalls {
				if len(tc.Function.Arguments) > openai.MaxDelta {
					t.Errorf("arguments delta of %d bytes", len(tc.Function.Arguments))
				}
				n++
			}
		}
	}
	if n < 300/openai.MaxDelta {
		t.Errorf("%d tool call deltas: the arguments were not streamed", n)
	}
	got := eventtest.Collect(parse.NewDecoder(bytes.NewReader(out), nil))
	want := []eventtest.Item{
		{Event: &event.TurnStart{MessageID: "c1", Model: "m"}},
		{Event: &event.BlockStart{Kind: event.Text}},
		{Event: &event.Delta{Kind: event.Text, Text: text}},
		{Event: &event.BlockEnd{Kind: event.Text}},
		{Event: &event.ToolCall{ID: "t1", Name: "Bash", Input: json.RawMessage(args)}},
		{Event: &event.TurnEnd{MessageID: "c1", StopReason: "tool_use"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

// TestTurns: an agent run becomes one completion per model turn, and what
// the body cannot carry is warned about once per kind.
func TestTurns(t *testing.T) {
	t.Parallel()
	in := []event.Event{
		&event.SessionStart{Agent: "a", Model: "claude"},
		&event.TurnStart{Agent: "a", MessageID: "m1"},
		&event.BlockStart{Agent: "a", Kind: event.Thinking},
		&event.Delta{Agent: "a", Kind: event.Thinking, Text: "hmm"},
		&event.BlockEnd{Agent: "a", Kind: event.Thinking, Signature: "sig"},
		&event.ToolCall{Agent: "a", ID: "t1", Name: "Bash", Input: json.RawMessage(`{}`)},
		&event.TurnEnd{Agent: "a", MessageID: "m1", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 3, CacheReadTokens: 2, OutputTokens: 1, Has: event.HasInput | event.HasOutput | event.HasCacheRead}},
		&event.ToolResult{Agent: "a", ID: "t1", Content: []event.Part{{Type: "text", Text: "ok"}}},
		&event.TurnStart{Agent: "a", MessageID: "m2"},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "done"},
		&event.Delta{Agent: "sub", Kind: event.Text, Text: "lost"},
		&event.TurnEnd{Agent: "a", MessageID: "m2", StopReason: "pause_turn"},
		&event.RunEnd{Agent: "a", StopReason: "end_turn"},
	}
	out, warnings := openaitest.Encode(t, NewEncoder, in)
	if n := strings.Count(string(out), "data: [DONE]"); n != 2 {
		t.Errorf("%d completions, want 2:\n%s", n, out)
	}
	if !strings.Contains(string(out), `"model":"claude"`) || !strings.Contains(string(out), `"cached_tokens":2`) || !strings.Contains(string(out), `"prompt_tokens":5`) {
		t.Errorf("model or usage not written:\n%s", out)
	}
	want := []string{
		"openai-chat cannot carry session metadata",
		"openai-chat cannot carry thinking signatures",
		"openai-chat cannot carry client tool results (the client sends them in the next request)",
		"openai-chat cannot carry subagents (only the main agent's turns are written)",
		"openai-chat cannot carry stop reason pause_turn (written as finish_reason unknown)",
		"openai-chat cannot carry run summaries",
	}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestErrorAfterTurnEnd: an error right after a turn end without stop
// reason (how decoders report a response an error cut off) takes the
// place of the finish chunk.
func TestErrorAfterTurnEnd(t *testing.T) {
	t.Parallel()
	in := []event.Event{
		&event.TurnStart{MessageID: "c1"},
		&event.Delta{Kind: event.Text, Text: "Part"},
		&event.BlockEnd{Kind: event.Text},
		&event.TurnEnd{MessageID: "c1"},
		&event.Error{Message: "boom", Type: "server_error", Fatal: true},
	}
	out, _ := openaitest.Encode(t, NewEncoder, in)
	if strings.Contains(string(out), "finish_reason\":\"") || !strings.HasSuffix(string(out), `data: {"error":{"message":"boom","type":"server_error"}}`+"\n\n") {
		t.Errorf("output:\n%s", out)
	}
}

// TestCorpus: every recording read, written and read again gives the
// same events.
func TestCorpus(t *testing.T) { openaitest.EncoderCorpus(t, corpus, parse.NewDecoder, NewEncoder, nil) }

func BenchmarkEncode(b *testing.B) { openaitest.BenchEncode(b, corpus, parse.NewDecoder, NewEncoder) }

func TestNoAllocPerDelta(t *testing.T) { openaitest.NoAllocPerDelta(t, NewEncoder) }

// TestServiceTier: an OpenAI tier goes on the usage chunk and is read back;
// another provider's is lost, warned.
func TestServiceTier(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		tier, want string
		warned     bool
	}{{"flex", "flex", false}, {"standard", "", true}} {
		out, warnings := openaitest.Encode(t, NewEncoder, []event.Event{
			&event.TurnStart{MessageID: "c1"},
			&event.Delta{Kind: event.Text, Text: "hi"},
			&event.TurnEnd{MessageID: "c1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, ServiceTier: tt.tier, Has: event.HasInput | event.HasOutput}},
		})
		var got string
		for _, it := range eventtest.Collect(parse.NewDecoder(bytes.NewReader(out), nil)) {
			if te, ok := it.Event.(*event.TurnEnd); ok && te.Usage != nil {
				got = te.Usage.ServiceTier
			}
		}
		if got != tt.want {
			t.Errorf("tier %q read back as %q, want %q:\n%s", tt.tier, got, tt.want, out)
		}
		if warned := slices.Contains(warnings, "openai-chat cannot carry service tiers of other providers"); warned != tt.warned {
			t.Errorf("tier %q: warned %v, want %v (%q)", tt.tier, warned, tt.warned, warnings)
		}
	}
}
