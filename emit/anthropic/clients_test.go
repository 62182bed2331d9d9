package anthropic

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/messages"
)

// The tests in this file are one per class of mismatch the official
// clients showed on our output (issue 19, make test-clients): each
// builds the shape of stream that showed it and checks what a client
// reads from the body.

// sseTypes returns the event types of a body, in order.
func sseTypes(body []byte) []string {
	var types []string
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			types = append(types, v)
		}
	}
	return types
}

// sseData returns the data of every event of type typ.
func sseData(t *testing.T, body []byte, typ string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, msg := range strings.Split(string(body), "\n\n") {
		if !strings.HasPrefix(msg, "event: "+typ+"\n") {
			continue
		}
		_, data, _ := strings.Cut(msg, "\ndata: ")
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// messageUsage returns, per message, the usage a client ends with:
// message_start's, updated by message_delta's non-zero fields and its
// output_tokens (as the SDKs accumulate it); -1 for a count given as
// null (unknown).
func messageUsage(t *testing.T, body []byte) [][2]float64 {
	t.Helper()
	count := func(v any) float64 {
		if f, ok := v.(float64); ok {
			return f
		}
		if v != nil {
			t.Fatalf("usage count %v is neither a number nor null", v)
		}
		return -1
	}
	var out [][2]float64
	for _, msg := range strings.Split(string(body), "\n\n") {
		typ, data, _ := strings.Cut(strings.TrimPrefix(msg, "event: "), "\ndata: ")
		var m map[string]any
		json.Unmarshal([]byte(data), &m)
		switch typ {
		case "message_start":
			u := m["message"].(map[string]any)["usage"].(map[string]any)
			out = append(out, [2]float64{count(u["input_tokens"]), count(u["output_tokens"])})
		case "message_delta":
			u := m["usage"].(map[string]any)
			if in, ok := u["input_tokens"].(float64); ok && in != 0 {
				out[len(out)-1][0] = in
			}
			out[len(out)-1][1] = count(u["output_tokens"])
		}
	}
	return out
}

func TestUsageCarried(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []event.Event
		want [][2]float64
		tier string
	}{
		{
			name: "a turn's start usage (Claude assistant line, message_start) with its service tier",
			in: []event.Event{
				&event.TurnStart{MessageID: "m1", Model: "claude", Usage: &event.Usage{InputTokens: 42, OutputTokens: 1, ServiceTier: "standard", Has: event.HasInput | event.HasOutput}},
				&event.Delta{Kind: event.Text, Text: "hi"},
				&event.BlockEnd{Kind: event.Text},
				&event.TurnEnd{MessageID: "m1", StopReason: "end_turn"},
			},
			want: [][2]float64{{42, 1}},
			tier: "standard",
		},
		{
			name: "envelope run: no turns, the meta_final cumulative usage on its message",
			in: []event.Event{
				&event.SessionStart{Agent: "A", Model: "m"},
				&event.Delta{Agent: "A", Kind: event.Text, Text: "hi"},
				&event.BlockEnd{Agent: "A", Kind: event.Text},
				&event.RunEnd{Agent: "A", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 84, OutputTokens: 50, Has: event.HasInput | event.HasOutput}},
			},
			want: [][2]float64{{84, 50}},
		},
		{
			name: "Claude run: turns without final usage, the result's total summed over the messages",
			in: []event.Event{
				&event.TurnStart{MessageID: "m1", Usage: &event.Usage{InputTokens: 42, OutputTokens: 1, Has: event.HasInput | event.HasOutput}},
				&event.ToolCall{ID: "t", Name: "Bash", Input: json.RawMessage(`{}`)},
				&event.TurnEnd{MessageID: "m1"},
				&event.ToolResult{ID: "t"},
				&event.TurnStart{MessageID: "m2", Usage: &event.Usage{InputTokens: 42, OutputTokens: 1, Has: event.HasInput | event.HasOutput}},
				&event.Delta{Kind: event.Text, Text: "done"},
				&event.BlockEnd{Kind: event.Text},
				&event.TurnEnd{MessageID: "m2", StopReason: "end_turn"},
				&event.RunEnd{StopReason: "end_turn", Usage: &event.Usage{InputTokens: 84, OutputTokens: 50, Has: event.HasInput | event.HasOutput}},
			},
			want: [][2]float64{{42, 1}, {42, 49}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, _ := encode(t, tc.in)
			if diff := cmp.Diff(tc.want, messageUsage(t, out)); diff != "" {
				t.Errorf("usage per message (-want +got):\n%s\n%s", diff, out)
			}
			if tc.tier != "" {
				u := sseData(t, out, "message_start")[0]["message"].(map[string]any)["usage"].(map[string]any)
				if u["service_tier"] != tc.tier {
					t.Errorf("service_tier = %v, want %q\n%s", u["service_tier"], tc.tier, out)
				}
			}
		})
	}
}

func TestErrorPlacement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []event.Event
		want []string
	}{
		{
			name: "a non-fatal error (Codex error item) is not written before message_start",
			in: []event.Event{
				&event.Error{Message: "careful", Type: "error_item"},
				&event.Delta{Kind: event.Text, Text: "answer"},
				&event.BlockEnd{Kind: event.Text},
			},
			want: []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"},
		},
		{
			name: "a real mid-stream error: no block stop, message_delta or message_stop inserted before it",
			in: []event.Event{
				&event.TurnStart{MessageID: "m1"},
				&event.Delta{Kind: event.Text, Text: "Half"},
				// What the decoder emits for a message an error cut short.
				&event.BlockEnd{Kind: event.Text},
				&event.TurnEnd{MessageID: "m1"},
				&event.Error{Message: "Overloaded", Type: "overloaded_error", Fatal: true},
			},
			want: []string{"message_start", "content_block_start", "content_block_delta", "error"},
		},
		{
			name: "a failed envelope run: the producer's error line (no agent) ends the body, no message_stop",
			in: []event.Event{
				&event.SessionStart{Agent: "A", Model: "m"},
				&event.Delta{Agent: "A", Kind: event.Text, Text: "Partial"},
				&event.Error{Message: "boom", Type: "RuntimeError", Fatal: true},
			},
			want: []string{"message_start", "content_block_start", "content_block_delta", "error"},
		},
		{
			name: "no empty response after a fatal error",
			in: []event.Event{
				&event.TurnStart{MessageID: "m1"},
				&event.Delta{Kind: event.Text, Text: "Half"},
				&event.Error{Message: "API Error: 529", Type: "server_error", Fatal: true},
				&event.BlockEnd{Kind: event.Text},
				&event.Citations{Items: []event.Citation{{Type: "char_location", CitedText: "x"}}},
				&event.RunEnd{StopReason: "stop_sequence", IsError: true},
			},
			want: []string{"message_start", "content_block_start", "content_block_delta", "error"},
		},
		{
			name: "a failed last turn: its error before the stream ends, in place of message_stop",
			in: []event.Event{
				&event.TurnStart{MessageID: "m1"},
				&event.Delta{Kind: event.Text, Text: "ok"},
				&event.BlockEnd{Kind: event.Text},
				&event.TurnEnd{MessageID: "m1", StopReason: "tool_use"},
				&event.TurnStart{MessageID: "m2"},
				&event.TurnEnd{MessageID: "m2", Error: "API Error: 500"},
				&event.RunEnd{IsError: true, Errors: []string{"API Error: 500"}},
			},
			want: []string{
				"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop",
				"message_start", "error",
			},
		},
		{
			name: "a failed run with no error event ends with one",
			in: []event.Event{
				&event.SessionStart{Agent: "A"},
				&event.Delta{Agent: "A", Kind: event.Text, Text: "x"},
				&event.BlockEnd{Agent: "A", Kind: event.Text},
				&event.RunEnd{Agent: "A", IsError: true, Errors: []string{"max turns"}},
			},
			want: []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "error"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, _ := encode(t, tc.in)
			if diff := cmp.Diff(tc.want, sseTypes(out)); diff != "" {
				t.Errorf("events (-want +got):\n%s\n%s", diff, out)
			}
		})
	}
}

func TestMCPBlocks(t *testing.T) {
	t.Parallel()
	in := []event.Event{
		&event.TurnStart{MessageID: "m"},
		&event.ToolCall{ID: "mcp1", Name: "read", Input: json.RawMessage(`{"path":"/a"}`), MCPServer: "fs"},
		&event.ToolResult{ID: "mcp1", Content: []event.Part{{Type: "text", Text: "file a"}}},
		&event.TurnEnd{MessageID: "m", StopReason: "end_turn"},
	}
	blockTypes := func(body []byte) []string {
		var types []string
		for _, d := range sseData(t, body, "content_block_start") {
			types = append(types, d["content_block"].(map[string]any)["type"].(string))
		}
		return types
	}
	out, _ := encode(t, in)
	if diff := cmp.Diff([]string{"tool_use", "tool_result"}, blockTypes(out)); diff != "" {
		t.Errorf("default block types (-want +got):\n%s", diff)
	}
	// Read back: the same call and result.
	var got []string
	for _, ev := range decode(t, out) {
		switch ev := ev.(type) {
		case *event.ToolCall:
			got = append(got, "call "+ev.MCPServer+" "+ev.Name+" "+string(ev.Input))
		case *event.ToolResult:
			got = append(got, "result "+ev.ID+" "+ev.Content[0].Text)
		}
	}
	if diff := cmp.Diff([]string{`call fs read {"path":"/a"}`, "result mcp1 file a"}, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	var beta strings.Builder
	e := NewEncoder(&beta, &Config{MCPBeta: true})
	for _, ev := range in {
		e.Encode(ev)
	}
	e.Close()
	if diff := cmp.Diff([]string{"mcp_tool_use", "mcp_tool_result"}, blockTypes([]byte(beta.String()))); diff != "" {
		t.Errorf("MCPBeta block types (-want +got):\n%s", diff)
	}
}

// TestStopReasons: Claude's assistant lines carry no stop reason; the
// turn with tool calls the run goes on from stopped for tool_use, the
// last takes the result line's, and nothing is made up at Close.
func TestStopReasons(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, []event.Event{
		&event.TurnStart{MessageID: "m1"},
		&event.ToolCall{ID: "t", Name: "Bash", Input: json.RawMessage(`{}`)},
		&event.TurnEnd{MessageID: "m1"},
		&event.ToolResult{ID: "t"},
		&event.TurnStart{MessageID: "m2"},
		&event.Delta{Kind: event.Text, Text: "done"},
		&event.BlockEnd{Kind: event.Text},
		&event.TurnEnd{MessageID: "m2"},
		&event.RunEnd{StopReason: "max_tokens"},
	})
	var got []any
	for _, d := range sseData(t, out, "message_delta") {
		got = append(got, d["delta"].(map[string]any)["stop_reason"])
	}
	// The first turn's source names no stop reason: null, never a
	// made-up tool_use.
	if diff := cmp.Diff([]any{nil, "max_tokens"}, got); diff != "" {
		t.Errorf("stop reasons (-want +got):\n%s\n%s", diff, out)
	}
}

// TestLateSignature: the envelope carries a thinking block's signature
// only in meta_final's conversation_history; with Config.LateSignatures
// it is written as the block's signature_delta before the message ends.
func TestLateSignature(t *testing.T) {
	t.Parallel()
	meta := `{"conversation_history":[{"role":"user","content":[{"type":"text","text":"q"}]},` +
		`{"role":"assistant","content":[{"signature":"SIG1","thinking":"hmm","type":"thinking"},{"text":"a","type":"text"}]}],` +
		`"stop_reason":"end_turn","cumulative_usage":{"input_tokens":1,"output_tokens":2}}`
	evs := []event.Event{
		&event.SessionStart{Agent: "A", MetaKind: "anthropic_agent"},
		&event.Delta{Agent: "A", Kind: event.Thinking, Text: "hmm"},
		&event.BlockEnd{Agent: "A", Kind: event.Thinking},
		&event.Delta{Agent: "A", Kind: event.Text, Text: "a"},
		&event.BlockEnd{Agent: "A", Kind: event.Text},
		&event.RunEnd{Agent: "A", StopReason: "end_turn", Meta: json.RawMessage(meta), MetaKind: "anthropic_agent"},
	}
	out, warnings := encode(t, evs)
	if strings.Contains(string(out), "signature_delta") {
		t.Errorf("a late signature without Config.LateSignatures:\n%s", out)
	}
	if !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, "thinking signatures given only in the run summary") }) {
		t.Errorf("the signature left out is not reported as lost: %q", warnings)
	}
	var buf strings.Builder
	e := NewEncoder(&buf, &Config{LateSignatures: true})
	for _, ev := range evs {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	out = []byte(buf.String())
	var sigs []string
	for _, d := range sseData(t, out, "content_block_delta") {
		if delta := d["delta"].(map[string]any); delta["type"] == "signature_delta" {
			sigs = append(sigs, delta["signature"].(string))
		}
	}
	if diff := cmp.Diff([]string{"SIG1"}, sigs); diff != "" {
		t.Errorf("signatures (-want +got):\n%s\n%s", diff, out)
	}
	types := sseTypes(out)
	if i := slices.Index(types, "message_delta"); i < 0 || types[i-1] != "content_block_delta" {
		t.Errorf("the signature is not written before message_delta: %v", types)
	}
}

// TestCodexTurnStop: a Codex turn (turn.completed names no stop reason)
// that ends the stream stops with null, never a made-up end_turn, and
// keeps its usage.
func TestCodexTurnStop(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, []event.Event{
		&event.TurnStart{},
		&event.ToolCall{ID: "item_1", Name: "command_execution", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.ToolResult{ID: "item_1", Content: []event.Part{{Type: "text", Text: "a"}}},
		&event.Delta{Kind: event.Text, Text: "done"},
		&event.BlockEnd{Kind: event.Text},
		&event.TurnEnd{Usage: &event.Usage{InputTokens: 2400, OutputTokens: 32, Has: event.HasInput | event.HasOutput}},
	})
	d := sseData(t, out, "message_delta")
	if len(d) != 1 || d[0]["delta"].(map[string]any)["stop_reason"] != nil {
		t.Errorf("stop reason is not null:\n%s", out)
	}
	if diff := cmp.Diff([][2]float64{{2400, 32}}, messageUsage(t, out)); diff != "" {
		t.Errorf("usage (-want +got):\n%s", diff)
	}
}

// TestAbandoned: a message the source gave up and began again (a retried
// Claude API call) ends where it stopped, as the body its reader read:
// no content_block_stop, message_delta or message_stop, no error event;
// the next message follows whole.
func TestAbandoned(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, []event.Event{
		&event.TurnStart{MessageID: "msg_a", Model: "m"},
		&event.BlockStart{Kind: event.Text},
		&event.Delta{Kind: event.Text, Text: "Hel"},
		&event.Notice{Kind: event.NoticeAbandoned, Message: "message msg_a was abandoned"},
		&event.TurnEnd{MessageID: "msg_a"},
		&event.TurnStart{MessageID: "msg_b", Model: "m"},
		&event.BlockStart{Kind: event.Text},
		&event.Delta{Kind: event.Text, Text: "Hello"},
		&event.BlockEnd{Kind: event.Text},
		&event.TurnEnd{MessageID: "msg_b", StopReason: "end_turn"},
	})
	var types []string
	for _, ev := range strings.Split(strings.TrimSpace(string(out)), "\n\n") {
		typ, _, _ := strings.Cut(strings.TrimPrefix(ev, "event: "), "\n")
		types = append(types, typ)
	}
	want := []string{
		"message_start", "content_block_start", "content_block_delta",
		"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop",
	}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Errorf("events (-want +got):\n%s\n%s", diff, out)
	}
}

// TestLateSignaturesCapped: of a message with more thinking blocks
// without a signature than the encoder keeps (messages.MaxUnsigned), the
// last MaxUnsigned get their late signature, each its own, and the
// others are reported lost, once.
func TestLateSignaturesCapped(t *testing.T) {
	t.Parallel()
	n := messages.MaxUnsigned + 3
	var history strings.Builder
	evs := []event.Event{&event.SessionStart{Agent: "A", MetaKind: "anthropic_agent"}}
	for i := range n {
		if i > 0 {
			history.WriteByte(',')
		}
		fmt.Fprintf(&history, `{"signature":"S%d","thinking":"t","type":"thinking"}`, i)
		evs = append(evs, &event.Delta{Agent: "A", Kind: event.Thinking, Text: "t"}, &event.BlockEnd{Agent: "A", Kind: event.Thinking})
	}
	meta := `{"conversation_history":[{"role":"assistant","content":[` + history.String() + `]}],"stop_reason":"end_turn"}`
	evs = append(evs, &event.RunEnd{Agent: "A", StopReason: "end_turn", Meta: json.RawMessage(meta), MetaKind: "anthropic_agent"})
	var buf strings.Builder
	var warnings []string
	e := NewEncoder(&buf, &Config{LateSignatures: true, Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	for _, ev := range evs {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, d := range sseData(t, []byte(buf.String()), "content_block_delta") {
		if delta := d["delta"].(map[string]any); delta["type"] == "signature_delta" {
			got = append(got, fmt.Sprintf("%v %v", d["index"], delta["signature"]))
		}
	}
	for i := n - messages.MaxUnsigned; i < n; i++ {
		want = append(want, fmt.Sprintf("%d S%d", i, i))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("late signatures (-want +got):\n%s", diff)
	}
	lost := "anthropic cannot carry late thinking signatures of more than 1024 thinking blocks of one message (the oldest get none)"
	if c := slices.Index(warnings, lost); c < 0 || slices.Index(warnings[c+1:], lost) >= 0 {
		t.Errorf("warnings %q, want %q once", warnings, lost)
	}
}
