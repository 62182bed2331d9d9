package claudesession

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// Lines of a hand-made session.
const (
	queueLine = `{"type":"queue-operation","operation":"enqueue","timestamp":"t","sessionId":"s1","content":"hi"}`
	userLine  = `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","cwd":"/w","sessionId":"s1","version":"2.1.197","gitBranch":"main"}`
	asst1     = `{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"m1","role":"assistant","model":"opus","content":[{"type":"text","text":"hello"}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}},"uuid":"a1","sessionId":"s1"}`
	asst1b    = `{"parentUuid":"a1","isSidechain":false,"type":"assistant","message":{"id":"m1","role":"assistant","model":"opus","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":7}},"uuid":"a2","sessionId":"s1"}`
	result1   = `{"parentUuid":"a2","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"x","is_error":false}]},"toolUseResult":{"stdout":"x"},"uuid":"r1","sessionId":"s1"}`
	asst2     = `{"parentUuid":"r1","isSidechain":false,"type":"assistant","message":{"id":"m2","role":"assistant","model":"opus","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":3,"cache_read_input_tokens":4}},"uuid":"a3","sessionId":"s1"}`
)

func TestDecode(t *testing.T) {
	t.Parallel()
	meta := []byte(`{"sessionId":"s1","cwd":"/w","version":"2.1.197","gitBranch":"main"}`)
	start := &event.SessionStart{
		Agent: "s1", SessionID: "s1", Model: "opus", Cwd: "/w", Prompt: "hi", Meta: meta, MetaKind: metaKind,
	}
	text := func(s string) []eventtest.Item {
		return []eventtest.Item{
			{Event: &event.BlockStart{Agent: "s1", Kind: event.Text}},
			{Event: &event.Delta{Agent: "s1", Kind: event.Text, Text: s}},
			{Event: &event.BlockEnd{Agent: "s1", Kind: event.Text}},
		}
	}
	cat := func(parts ...[]eventtest.Item) []eventtest.Item {
		var out []eventtest.Item
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	one := func(evs ...event.Event) []eventtest.Item {
		var out []eventtest.Item
		for _, ev := range evs {
			out = append(out, eventtest.Item{Event: ev})
		}
		return out
	}
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	session := lines(queueLine, userLine, asst1, asst1b, result1, asst2)
	tests := []struct {
		name string
		in   string
		want []eventtest.Item
	}{
		{
			// The prompt opens the session, before the queue notice
			// (held until the model is known); usage is counted once
			// per message id, with the message's last usage.
			name: "session",
			in:   session,
			want: cat(
				one(start,
					&event.Notice{Agent: "s1", Kind: wire.SessionQueueOperation, Message: "enqueue: hi", Raw: []byte(queueLine)},
					&event.TurnStart{Agent: "s1", MessageID: "m1", Model: "opus"}),
				text("hello"),
				one(
					&event.ToolCall{Agent: "s1", ID: "t1", Name: "Bash", Input: []byte(`{"command":"ls"}`)},
					&event.ToolResult{
						Agent: "s1", ID: "t1", Name: "Bash", Content: []event.Part{{Type: "text", Text: "x"}},
						Structured: []byte(`{"stdout":"x"}`),
					},
					&event.TurnEnd{Agent: "s1", MessageID: "m1", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 10, OutputTokens: 7, Has: event.HasInput | event.HasOutput}},
					&event.TurnStart{Agent: "s1", MessageID: "m2", Model: "opus"}),
				text("done"),
				one(
					&event.TurnEnd{Agent: "s1", MessageID: "m2", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 20, OutputTokens: 3, CacheReadTokens: 4, Has: event.HasInput | event.HasOutput | event.HasCacheRead}},
					&event.RunEnd{
						Agent: "s1", StopReason: "end_turn", Turns: 2, MetaKind: metaKind,
						Usage: &event.Usage{InputTokens: 30, OutputTokens: 10, CacheReadTokens: 4, Has: event.HasInput | event.HasOutput | event.HasCacheRead},
					}),
			),
		},
		{
			// A log still being written: read to its last whole line,
			// then the truncation.
			name: "cut mid-line",
			in:   lines(userLine, asst1) + asst2[:40],
			want: cat(
				one(start, &event.TurnStart{Agent: "s1", MessageID: "m1", Model: "opus"}),
				text("hello"),
				one(&event.TurnEnd{Agent: "s1", MessageID: "m1", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 10, OutputTokens: 5, Has: event.HasInput | event.HasOutput}}),
				[]eventtest.Item{{Err: "cut mid-line:3:1: log ends inside line 3 (still being written?)"}},
			),
		},
		{
			// A bad line in the middle is reported where it is, and
			// reading goes on.
			name: "bad line",
			in:   lines(userLine, `{"type":`, asst1),
			want: cat(
				[]eventtest.Item{{Err: "bad line:2:1: not a JSON object: unexpected end of JSON input"}},
				one(start, &event.TurnStart{Agent: "s1", MessageID: "m1", Model: "opus"}),
				text("hello"),
				one(
					&event.TurnEnd{Agent: "s1", MessageID: "m1", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 10, OutputTokens: 5, Has: event.HasInput | event.HasOutput}},
					&event.RunEnd{Agent: "s1", StopReason: "tool_use", Turns: 1, MetaKind: metaKind, Usage: &event.Usage{InputTokens: 10, OutputTokens: 5, Has: event.HasInput | event.HasOutput}},
				),
			),
		},
		{
			// An edited prompt: the new prompt continues from the first
			// one's parent, and the lines since are an abandoned branch.
			name: "branch",
			in: lines(userLine, asst1,
				`{"parentUuid":"u1","type":"assistant","message":{"id":"m3","role":"assistant","model":"opus","content":[{"type":"text","text":"again"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}},"uuid":"a9","sessionId":"s1"}`),
			want: cat(
				one(start, &event.TurnStart{Agent: "s1", MessageID: "m1", Model: "opus"}),
				text("hello"),
				one(&event.Notice{Agent: "s1", Kind: "branch", Message: "line 3 continues from line 1: lines 2-2 are an abandoned branch"},
					&event.TurnEnd{Agent: "s1", MessageID: "m1", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 10, OutputTokens: 5, Has: event.HasInput | event.HasOutput}},
					&event.TurnStart{Agent: "s1", MessageID: "m3", Model: "opus"}),
				text("again"),
				one(
					&event.TurnEnd{Agent: "s1", MessageID: "m3", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 1, OutputTokens: 1, Has: event.HasInput | event.HasOutput}},
					&event.RunEnd{Agent: "s1", StopReason: "end_turn", Turns: 2, MetaKind: metaKind, Usage: &event.Usage{InputTokens: 11, OutputTokens: 6, Has: event.HasInput | event.HasOutput}},
				),
			),
		},
		{
			// Never a false yes: lines of no type of the format.
			name: "not a session log",
			in:   lines(`{"a":1}`, `{"type":"foo"}`),
			want: []eventtest.Item{
				{Event: &event.Unknown{Format: metaKind, Raw: []byte(`{"a":1}`)}},
				{Err: "not a session log:1:1: not a session log line: it has no type"},
				{Event: &event.Unknown{Format: metaKind, Type: "foo", Raw: []byte(`{"type":"foo"}`)}},
				{Err: "not a session log: no Claude Code session log line in the input"},
			},
		},
		{
			// Compaction, summaries, API errors and unknown line types.
			name: "kinds",
			in: lines(userLine,
				`{"type":"summary","summary":"Fixing the build","leafUuid":"a1"}`,
				`{"parentUuid":null,"logicalParentUuid":"u1","type":"system","subtype":"compact_boundary","content":"Conversation compacted","uuid":"c1","sessionId":"s1"}`,
				`{"parentUuid":"c1","type":"user","isCompactSummary":true,"message":{"role":"user","content":"Summary: x\nmore"},"uuid":"c2","sessionId":"s1"}`,
				`{"type":"file-history-snapshot","messageId":"x"}`,
				`{"parentUuid":"c2","type":"assistant","message":{"id":"e1","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"API Error: 529"}],"stop_reason":"stop_sequence","usage":{"input_tokens":0,"output_tokens":0}},"error":"server_error","isApiErrorMessage":true,"uuid":"e1","sessionId":"s1"}`),
			want: []eventtest.Item{
				{Event: &event.SessionStart{Agent: "s1", SessionID: "s1", Cwd: "/w", Prompt: "hi", Meta: meta, MetaKind: metaKind}},
				{Event: &event.Notice{Agent: "s1", Kind: wire.SessionSummary, Message: "Fixing the build", Raw: []byte(`{"type":"summary","summary":"Fixing the build","leafUuid":"a1"}`)}},
				{Event: &event.Notice{Agent: "s1", Kind: wire.SubtypeCompactBoundary, Message: "Conversation compacted", Raw: []byte(`{"parentUuid":null,"logicalParentUuid":"u1","type":"system","subtype":"compact_boundary","content":"Conversation compacted","uuid":"c1","sessionId":"s1"}`)}},
				{Event: &event.Notice{Agent: "s1", Kind: "compact_summary", Message: "Summary: x …", Raw: []byte(`{"parentUuid":"c1","type":"user","isCompactSummary":true,"message":{"role":"user","content":"Summary: x\nmore"},"uuid":"c2","sessionId":"s1"}`)}},
				{Event: &event.Unknown{Agent: "s1", Format: metaKind, Type: "file-history-snapshot", Raw: []byte(`{"type":"file-history-snapshot","messageId":"x"}`)}},
				{Event: &event.Error{Agent: "s1", Message: "API Error: 529", Type: "server_error", Fatal: true, Raw: []byte(`{"type":"server_error","message":"API Error: 529"}`)}},
				{Event: &event.RunEnd{Agent: "s1", StopReason: "stop_sequence", MetaKind: metaKind, Usage: &event.Usage{Has: event.HasTokens}, IsError: true}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := eventtest.Collect(NewDecoder(strings.NewReader(tt.in), &Config{Source: tt.name}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			one := eventtest.Collect(NewDecoder(iotest.OneByteReader(strings.NewReader(tt.in)), &Config{Source: tt.name}))
			if diff := cmp.Diff(got, one); diff != "" {
				t.Errorf("OneByteReader (-whole +one byte):\n%s", diff)
			}
		})
	}
}

// TestSubagent: the transcript of a subagent, in its own file, is read
// where the parent's Agent call returns, in the call's scope.
func TestSubagent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(corpus, "claude-subagent.session.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var seq []string
	for _, it := range eventtest.Collect(newDecoder(f, filepath.Base(path))) {
		switch ev := it.Event.(type) {
		case *event.SessionStart:
			seq = append(seq, "start "+ev.Agent+" "+ev.ParentToolID+" "+ev.Name+" "+ev.Prompt)
		case *event.ToolCall:
			seq = append(seq, "call "+ev.Agent+" "+ev.Name)
		case *event.ToolResult:
			seq = append(seq, "result "+ev.Agent+" "+ev.Name)
		case *event.RunEnd:
			seq = append(seq, "end "+ev.Agent)
		}
		if it.Err != "" {
			seq = append(seq, "error "+it.Err)
		}
	}
	const main, tool = "b974a714-59ac-4f22-adb9-27ff2058e718", "toolu_01yf5niQPLaGeOm460m99CSE"
	want := []string{
		"start " + main + "   Delegate `echo from-subagent` to a subagent.",
		"call " + main + " Agent",
		"start " + tool + " " + tool + " general-purpose SUBAGENT-TASK-7f3a: run `echo from-subagent` with Bash and report the output.",
		"call " + tool + " Bash",
		"result " + tool + " Bash",
		"result " + main + " Agent",
		"end " + main,
	}
	if diff := cmp.Diff(want, seq); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want bool
	}{
		{userLine, true},
		{queueLine, true},
		{`{"type":"summary","summary":"x","leafUuid":"u"}`, true},
		{`{"type":"assistant","message":{},"parent_tool_use_id":null,"session_id":"s"}`, false}, // stream-json
		{`{"type":"user","message":{},"session_id":"s","parentUuid":null}`, false},
		{`{"timestamp":"t","type":"session_meta","payload":{}}`, false}, // a Codex rollout
		{`{"type":"thread.started","thread_id":"x"}`, false},
	}
	for _, tt := range tests {
		h, _ := format.Sniff([]byte(tt.line+"\n"), true)
		if got := Detect(h); got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestSubagentLoop: a subagent transcript that names itself is read to a
// bounded depth, not forever.
func TestSubagentLoop(t *testing.T) {
	t.Parallel()
	call := `{"parentUuid":"u1","type":"assistant","message":{"id":"m1","role":"assistant","model":"opus","content":[{"type":"tool_use","id":"t1","name":"Agent","input":{"subagent_type":"x","prompt":"p"}}]},"uuid":"a1","sessionId":"s1"}`
	result := `{"parentUuid":"a1","type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"done"}]},"toolUseResult":{"agentId":"loop"},"uuid":"r1","sessionId":"s1"}`
	log := strings.Join([]string{userLine, call, result}, "\n") + "\n"
	opened := 0
	cfg := &Config{Subagent: func(string) (io.ReadCloser, string, error) {
		opened++
		return io.NopCloser(strings.NewReader(log)), "loop.jsonl", nil
	}}
	items := eventtest.Collect(NewDecoder(strings.NewReader(log), cfg))
	if opened != maxDepth+1 {
		t.Errorf("opened %d transcripts, want %d", opened, maxDepth+1)
	}
	if last := items[len(items)-1].Event; last == nil {
		t.Errorf("last item is %v, want the run end", items[len(items)-1])
	} else if _, ok := last.(*event.RunEnd); !ok {
		t.Errorf("last event is %T, want the run end", last)
	}
}

// TestMemory: the decoder keeps at most maxOpen subagent scopes and
// maxOpen tool calls waiting for their result; beyond it the oldest is
// forgotten, reported once, positioned.
func TestMemory(t *testing.T) {
	t.Parallel()
	const n = 2 * maxOpen
	var in strings.Builder
	in.WriteString(userLine + "\n")
	for i := range n {
		fmt.Fprintf(&in, `{"type":"assistant","isSidechain":true,"agentId":"a%d","message":{"id":"m%d","model":"opus","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{}}]},"sessionId":"s1"}`+"\n", i, i, i)
	}
	fmt.Fprintf(&in, `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t%d","type":"tool_result","content":"x"}]},"sessionId":"s1"}`+"\n", n-1)
	d := NewDecoder(strings.NewReader(in.String()), &Config{Source: "in"})
	var problems []string
	named := 0
	for _, it := range eventtest.Collect(d) {
		if it.Err != "" {
			problems = append(problems, it.Err)
		}
		if r, ok := it.Event.(*event.ToolResult); ok && r.Name == "Bash" {
			named++
		}
	}
	want := []string{
		fmt.Sprintf(`in:%d:1: more than %d subagent scopes; forgot the oldest, "agent-a0", whose message ends here (later ones are not reported)`, maxOpen+2, maxOpen),
		fmt.Sprintf("in:%d:1: more than %d tool calls waiting for their result; forgot the oldest, t0, whose result will not be named (later ones are not reported)", maxOpen+2, maxOpen),
	}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if named != 1 {
		t.Errorf("%d results named by their call, want 1", named)
	}
	if len(d.scopes) != maxOpen+1 || d.sidechains.Len() != maxOpen {
		t.Errorf("decoder keeps %d scopes (%d subagents), want %d (%d)", len(d.scopes), d.sidechains.Len(), maxOpen+1, maxOpen)
	}
	if len(d.toolOf) != maxOpen-1 || d.pending.Len() != maxOpen-1 {
		t.Errorf("decoder keeps %d tool calls (%d ids), want %d", len(d.toolOf), d.pending.Len(), maxOpen-1)
	}
}
