package openairesp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/openaistream/openaitest"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/respwire"
	parse "github.com/agentstream/agentstream/parse/openairesp"
)

const corpus = "../../testdata/openai-responses"

func BenchmarkEncode(b *testing.B) { openaitest.BenchEncode(b, corpus, parse.NewDecoder, NewEncoder) }

// TestCorpus: every recording read, written and read again gives the
// same events, but for unknown event types.
func TestCorpus(t *testing.T) {
	openaitest.EncoderCorpus(t, corpus, parse.NewDecoder, NewEncoder, written)
}

// written drops what the encoder reports lost: unknown event types (not
// items), which the SDKs reject.
func written(items []eventtest.Item) []eventtest.Item {
	var out []eventtest.Item
	for _, it := range items {
		if u, ok := it.Event.(*event.Unknown); ok && strings.HasPrefix(u.Type, "response.") {
			continue
		}
		out = append(out, it)
	}
	return out
}

// TestDeltas: long text and arguments are streamed in pieces of at most
// openai.MaxDelta bytes, with sequence numbers 0, 1, 2, ...
func TestDeltas(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("é日👩‍💻 ", 40)
	args := `{"command":"` + strings.Repeat("x", 300) + `"}`
	in := []event.Event{
		&event.TurnStart{MessageID: "r1", Model: "m"},
		&event.Delta{Kind: event.Text, Text: text},
		&event.BlockEnd{Kind: event.Text},
		&event.ToolCall{ID: "t1", Name: "Bash", Input: json.RawMessage(args)},
		&event.ToolCall{ID: "t2", Name: "apply_patch", Input: json.RawMessage(`"*** Begin Patch"`)},
		&event.TurnEnd{MessageID: "r1", StopReason: "max_tokens"},
	}
	out, _ := openaitest.Encode(t, NewEncoder, in)
	seq, deltas := int64(0), 0
	for _, msg := range strings.Split(strings.TrimSpace(string(out)), "\n\n") {
		_, data, _ := strings.Cut(msg, "\ndata: ")
		var ev wire.StreamEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.SequenceNumber == nil || *ev.SequenceNumber != seq {
			t.Errorf("%s: sequence_number %v, want %d", ev.Type, ev.SequenceNumber, seq)
		}
		seq++
		if len(ev.Delta) > openai.MaxDelta {
			t.Errorf("%s of %d bytes", ev.Type, len(ev.Delta))
		}
		if ev.Type == wire.EvArgsDelta {
			deltas++
		}
	}
	got := eventtest.Collect(parse.NewDecoder(bytes.NewReader(out), nil))
	want := []eventtest.Item{
		{Event: &event.TurnStart{MessageID: "r1", Model: "m"}},
		{Event: &event.BlockStart{Kind: event.Text}},
		{Event: &event.Delta{Kind: event.Text, Text: text}},
		{Event: &event.BlockEnd{Kind: event.Text}},
		{Event: &event.ToolCall{ID: "t1", Name: "Bash", Input: json.RawMessage(args)}},
		{Event: &event.ToolCall{ID: "t2", Name: "apply_patch", Input: json.RawMessage(`"*** Begin Patch"`)}},
		{Event: &event.TurnEnd{MessageID: "r1", StopReason: "max_tokens"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if deltas < 300/openai.MaxDelta {
		t.Errorf("%d argument deltas: the arguments were not streamed", deltas)
	}
}

// TestTurns: an agent run becomes one response per model turn; thinking
// keeps its signature as encrypted_content; what the body cannot carry is
// warned about once per kind.
func TestTurns(t *testing.T) {
	t.Parallel()
	url := "https://example.com"
	in := []event.Event{
		&event.SessionStart{Agent: "a", Model: "claude"},
		&event.TurnStart{Agent: "a", MessageID: "m1"},
		&event.Delta{Agent: "a", Kind: event.Thinking, Text: "hmm"},
		&event.BlockEnd{Agent: "a", Kind: event.Thinking, Signature: "sig"},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "see"},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
		&event.Citations{Agent: "a", Items: []event.Citation{{Type: "web_search_result_location", URL: &url}, {Type: "char_location"}}},
		&event.ToolCall{Agent: "a", ID: "t1", Name: "Bash", Input: json.RawMessage(`{}`)},
		&event.ToolCall{Agent: "a", ID: "s1", Name: "web_search", Server: true, Input: json.RawMessage(`{}`)},
		&event.TurnEnd{Agent: "a", MessageID: "m1", StopReason: "tool_use"},
		&event.ToolResult{Agent: "a", ID: "t1"},
		&event.TurnStart{Agent: "a", MessageID: "m2"},
		&event.Delta{Agent: "sub", Kind: event.Text, Text: "lost"},
		&event.TurnEnd{Agent: "a", MessageID: "m2", StopReason: "end_turn"},
	}
	out, warnings := openaitest.Encode(t, NewEncoder, in)
	s := string(out)
	if n := strings.Count(s, "event: response.completed\n"); n != 2 {
		t.Errorf("%d responses, want 2:\n%s", n, out)
	}
	for _, sub := range []string{`"encrypted_content":"sig"`, `"model":"claude"`, `"url":"https://example.com"`} {
		if !strings.Contains(s, sub) {
			t.Errorf("output lacks %s", sub)
		}
	}
	want := []string{
		"openai-responses cannot carry session metadata",
		"openai-responses cannot carry citations without a URL or file",
		"openai-responses cannot carry server tool calls of other providers",
		"openai-responses cannot carry client tool results (the client sends them in the next request)",
		"openai-responses cannot carry subagents (only the main agent's turns are written)",
	}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestFailed: a failed turn is response.failed; an error right after a
// turn end without stop reason is an error event in its place.
func TestFailed(t *testing.T) {
	t.Parallel()
	out, _ := openaitest.Encode(t, NewEncoder, []event.Event{
		&event.TurnStart{MessageID: "r1"},
		&event.TurnEnd{MessageID: "r1", Error: "boom"},
		&event.TurnStart{MessageID: "r2"},
		&event.TurnEnd{MessageID: "r2"},
		&event.Error{Message: "went on", Type: "error"}, // non-fatal: not written
		&event.Error{Message: "slow down", Type: "rate_limit_exceeded", Fatal: true},
	})
	s := string(out)
	if !strings.Contains(s, `"status":"failed","error":{"message":"boom","code":"turn_failed"}`) {
		t.Errorf("no response.failed:\n%s", s)
	}
	if strings.Contains(s, "went on") || strings.Count(s, "response.completed") != 0 || !strings.HasSuffix(s, `{"type":"error","sequence_number":2,"code":"rate_limit_exceeded","message":"slow down","param":null}`+"\n\n") {
		t.Errorf("the error does not take the turn end's place:\n%s", s)
	}
}

func TestNoAllocPerDelta(t *testing.T) { openaitest.NoAllocPerDelta(t, NewEncoder) }

// TestServiceTier: an OpenAI tier goes on the final response and is read
// back; another provider's is lost, warned.
func TestServiceTier(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		tier, want string
		warned     bool
	}{{"priority", "priority", false}, {"batch", "", true}} {
		out, warnings := openaitest.Encode(t, NewEncoder, []event.Event{
			&event.TurnStart{MessageID: "r1"},
			&event.Delta{Kind: event.Text, Text: "hi"},
			&event.TurnEnd{MessageID: "r1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, ServiceTier: tt.tier, Has: event.HasInput | event.HasOutput}},
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
		if warned := slices.Contains(warnings, "openai-responses cannot carry service tiers of other providers"); warned != tt.warned {
			t.Errorf("tier %q: warned %v, want %v (%q)", tt.tier, warned, tt.warned, warnings)
		}
	}
}

// TestDeltaHeads: each delta event names the item and part the last
// added event of a part named (the head the encoder keeps for the
// deltas of a part is made again for each part): the parts of one item,
// a reasoning item between two message items (whose block memory is
// reused), a refusal part.
func TestDeltaHeads(t *testing.T) {
	t.Parallel()
	in := []event.Event{
		&event.TurnStart{MessageID: "r1", Model: "m"},
		&event.BlockStart{Kind: event.Text, ID: "m1"},
		&event.Delta{Kind: event.Text, Text: "a"},
		&event.BlockEnd{Kind: event.Text},
		&event.BlockStart{Kind: event.Text, ID: "m1"},
		&event.Delta{Kind: event.Text, Text: "b"},
		&event.BlockEnd{Kind: event.Text},
		&event.Delta{Kind: event.Thinking, Text: "c"},
		&event.BlockEnd{Kind: event.Thinking},
		&event.Delta{Kind: event.Text, Text: "d"},
		&event.BlockEnd{Kind: event.Text},
		&event.BlockStart{Kind: event.Text, Refusal: true},
		&event.Delta{Kind: event.Text, Text: "e"},
		&event.BlockEnd{Kind: event.Text},
		&event.TurnEnd{MessageID: "r1", StopReason: "end_turn"},
	}
	out, _ := openaitest.Encode(t, NewEncoder, in)
	type head struct {
		Type         string `json:"type"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		ContentIndex *int   `json:"content_index"`
		SummaryIndex *int   `json:"summary_index"`
		Delta        string `json:"delta"`
	}
	where := func(h head) string {
		return fmt.Sprintf("%s %d %v %v", h.ItemID, h.OutputIndex, deref(h.ContentIndex), deref(h.SummaryIndex))
	}
	var part string
	var deltas []string
	for _, msg := range strings.Split(strings.TrimSpace(string(out)), "\n\n") {
		_, data, _ := strings.Cut(msg, "\ndata: ")
		var h head
		if err := json.Unmarshal([]byte(data), &h); err != nil {
			t.Fatal(err)
		}
		switch h.Type {
		case wire.EvPartAdded, wire.EvSummaryPartAdded:
			part = where(h)
		case wire.EvTextDelta, wire.EvSummaryDelta, wire.EvRefusalDelta:
			if got := where(h); got != part {
				t.Errorf("%s %q at %s, its part at %s", h.Type, h.Delta, got, part)
			}
			deltas = append(deltas, h.Delta)
		}
	}
	if want := []string{"a", "b", "c", "d", "e"}; !slices.Equal(deltas, want) {
		t.Errorf("deltas %q, want %q", deltas, want)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
