package codexsession

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const corpus = "../../testdata/codex-session"

func corpusFiles(t testing.TB) []string { return eventtest.Corpus(t, corpus, "*.jsonl") }

func newDecoder(r io.Reader) event.Decoder { return NewDecoder(r, nil) }

func TestGolden(t *testing.T) {
	t.Parallel()
	eventtest.GoldenFiles(t, corpusFiles(t), ".jsonl", *update, func(r io.Reader, source string) event.Decoder {
		return NewDecoder(r, &Config{Source: source})
	})
}

// TestReaders: one-byte and half reads give the same events as whole
// reads.
func TestReaders(t *testing.T) {
	t.Parallel()
	eventtest.SplitInvariance(t, corpusFiles(t), newDecoder)
}

// Lines of a hand-made rollout.
const (
	metaLine    = `{"timestamp":"t0","type":"session_meta","payload":{"id":"th1","cwd":"/w","cli_version":"0.169.0"}}`
	startedLine = `{"timestamp":"t1","type":"event_msg","payload":{"type":"task_started","turn_id":"tu1"}}`
	ctxLine     = `{"timestamp":"t2","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5.5","summary":"none"}}`
	promptLine  = `{"timestamp":"t3","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"list files"}]}}`
	callLine    = `{"timestamp":"t4","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"c1"}}`
	itemLine    = `{"timestamp":"t5","type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"c1","command":["/bin/bash","-lc","ls -a"],"status":"completed","aggregated_output":"a\n","exit_code":0}}}`
	outputLine  = `{"timestamp":"t6","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Output:\na\n"}}`
	textLine    = `{"timestamp":"t7","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"one file"}]}}`
	countLine   = `{"timestamp":"t8","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":10,"output_tokens":5,"reasoning_output_tokens":2}}}}`
	doneLine    = `{"timestamp":"t9","type":"event_msg","payload":{"type":"task_complete","turn_id":"tu1","last_agent_message":"one file"}}`
)

func TestDecode(t *testing.T) {
	t.Parallel()
	start := &event.SessionStart{
		Agent: "th1", SessionID: "th1", Model: "gpt-5.5", Cwd: "/w", Prompt: "list files", MetaKind: metaKind,
		Meta: []byte(`{"id":"th1","cwd":"/w","cli_version":"0.169.0"}`),
	}
	noPrompt := *start
	noPrompt.Prompt = ""
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	text := []eventtest.Item{
		{Event: &event.BlockStart{Agent: "th1", Kind: event.Text}},
		{Event: &event.Delta{Agent: "th1", Kind: event.Text, Text: "one file"}},
		{Event: &event.BlockEnd{Agent: "th1", Kind: event.Text}},
	}
	cmdCall := &event.ToolCall{Agent: "th1", ID: "c1", Name: "command_execution", Input: []byte(`{"command":"/bin/bash -lc 'ls -a'"}`)}
	cmdResult := &event.ToolResult{
		Agent: "th1", ID: "c1", Name: "command_execution", ExitCode: ptr(0), Status: "completed",
		Content: []event.Part{{Type: "text", Text: "a\n"}}, Structured: []byte(`"Output:\na\n"`),
	}
	items := func(evs ...event.Event) []eventtest.Item {
		var out []eventtest.Item
		for _, ev := range evs {
			out = append(out, eventtest.Item{Event: ev})
		}
		return out
	}
	tests := []struct {
		name string
		in   string
		want []eventtest.Item
	}{
		{
			// The shell command is read as the exec item Codex completes
			// for the model's function call; the turn's usage is what
			// the cumulative count grew by.
			name: "turn",
			in:   lines(metaLine, startedLine, ctxLine, promptLine, callLine, itemLine, outputLine, textLine, countLine, doneLine),
			want: slices.Concat(
				items(start, &event.TurnStart{Agent: "th1"}, cmdCall, cmdResult),
				text,
				items(&event.TurnEnd{Agent: "th1", Usage: &event.Usage{InputTokens: 100, OutputTokens: 5, CacheReadTokens: 10, ReasoningTokens: 2, Has: event.HasTokens | event.HasCacheRead | event.HasReasoning}}),
			),
		},
		{
			// Without an exec item (older rollouts), the function call
			// and its output are the tool call and result.
			name: "function call",
			in:   lines(metaLine, ctxLine, callLine, outputLine),
			want: items(&noPrompt,
				&event.ToolCall{Agent: "th1", ID: "c1", Name: "exec_command", Input: []byte(`{"cmd":"ls"}`)},
				&event.ToolResult{Agent: "th1", ID: "c1", Name: "exec_command", Content: []event.Part{{Type: "text", Text: "Output:\na\n"}}},
			),
		},
		{
			// tool_search_call's arguments are an object, not a string
			// of JSON; its output lists the tools found.
			name: "tool search",
			in: lines(metaLine, ctxLine,
				`{"timestamp":"t","type":"response_item","payload":{"type":"tool_search_call","call_id":"ts1","status":"completed","execution":"client","arguments":{"query":"calendar","limit":8}}}`,
				`{"timestamp":"t","type":"response_item","payload":{"type":"tool_search_output","call_id":"ts1","status":"completed","execution":"client","tools":[{"type":"function","name":"cal"}]}}`),
			want: items(&noPrompt,
				&event.ToolCall{Agent: "th1", ID: "ts1", Name: "tool_search", Input: []byte(`{"query":"calendar","limit":8}`)},
				&event.ToolResult{
					Agent: "th1", ID: "ts1", Name: "tool_search", Status: "completed",
					Content:    []event.Part{{Type: "text", Text: `[{"type":"function","name":"cal"}]`}},
					Structured: []byte(`[{"type":"function","name":"cal"}]`),
				},
			),
		},
		{
			// A failed turn: the error, then the turn end that failed.
			name: "error",
			in: lines(metaLine, ctxLine, startedLine,
				`{"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","error":{"message":"overloaded","codex_error_info":"server_overloaded"}}}`),
			want: items(&noPrompt, &event.TurnStart{Agent: "th1"},
				&event.Error{Agent: "th1", Message: "overloaded", Type: "server_overloaded", Fatal: true, Raw: []byte(`{"message":"overloaded","codex_error_info":"server_overloaded"}`)},
				&event.TurnEnd{Agent: "th1", Error: "overloaded"},
			),
		},
		{
			// A rollout still being written: read to its last whole line,
			// then the truncation; the call held for its output is
			// emitted first.
			name: "cut",
			in:   lines(metaLine, ctxLine, callLine) + textLine[:30],
			want: append(items(&noPrompt, &event.ToolCall{Agent: "th1", ID: "c1", Name: "exec_command", Input: []byte(`{"cmd":"ls"}`)}),
				eventtest.Item{Err: "cut:4:1: log ends inside line 4 (still being written?)"}),
		},
		{
			// The rollout format before session_meta: a first line of
			// its own, items without a wrapper, state records.
			name: "legacy",
			in: lines(`{"id":"th1","timestamp":"2025-05-01T10:00:00Z","instructions":null}`,
				`{"record_type":"state"}`,
				`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"one file"}]}`),
			want: slices.Concat(
				items(&event.SessionStart{Agent: "th1", SessionID: "th1", MetaKind: metaKind, Meta: []byte(`{"id":"th1","timestamp":"2025-05-01T10:00:00Z","instructions":null}`)},
					&event.Notice{Agent: "th1", Kind: "state", Raw: []byte(`{"record_type":"state"}`)}),
				text,
			),
		},
		{
			// Token counts with no task_complete after them: the usage of
			// the turn the log ends in.
			name: "usage at the end",
			in:   lines(metaLine, ctxLine, promptLine, textLine, countLine),
			want: slices.Concat(items(start), text,
				items(&event.TurnEnd{Agent: "th1", Usage: &event.Usage{InputTokens: 100, OutputTokens: 5, CacheReadTokens: 10, ReasoningTokens: 2, Has: event.HasTokens | event.HasCacheRead | event.HasReasoning}})),
		},
		{
			// Never a false yes: lines of no type of the format.
			name: "not a rollout",
			in:   lines(`{"a":1}`),
			want: []eventtest.Item{
				{Event: &event.Unknown{Format: metaKind, Raw: []byte(`{"a":1}`)}},
				{Err: "not a rollout:1:1: not a rollout line: it has no type"},
				{Err: "not a rollout: no Codex rollout line in the input"},
			},
		},
		{
			// Unknown line and item types are kept.
			name: "unknown",
			in:   lines(metaLine, ctxLine, `{"timestamp":"t","type":"new_kind","payload":{}}`, `{"timestamp":"t","type":"response_item","payload":{"type":"image_generation_call","id":"i"}}`),
			want: items(&noPrompt,
				&event.Unknown{Agent: "th1", Format: metaKind, Type: "new_kind", Raw: []byte(`{"timestamp":"t","type":"new_kind","payload":{}}`)},
				&event.Unknown{Agent: "th1", Format: metaKind, Type: "image_generation_call", Raw: []byte(`{"timestamp":"t","type":"response_item","payload":{"type":"image_generation_call","id":"i"}}`)},
			),
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

func ptr[T any](v T) *T { return &v }

func TestShellJoin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"/bin/bash", "-lc", "echo hello"}, `/bin/bash -lc 'echo hello'`},
		{[]string{"ls", "it's"}, `ls 'it'\''s'`},
		{[]string{"echo", ""}, `echo ''`},
	}
	for _, tt := range tests {
		if got := shellJoin(tt.args); got != tt.want {
			t.Errorf("shellJoin(%q) = %s, want %s", tt.args, got, tt.want)
		}
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want bool
	}{
		{metaLine, true},
		{`{"timestamp":"t","type":"session_meta","payload":{"id":"x","base_instructions":{"text":"` + strings.Repeat("x", 100), true}, // cut short
		{`{"type":"thread.started","thread_id":"x"}`, false},                                                                          // codex exec --json
		{`{"type":"queue-operation","operation":"enqueue","sessionId":"s"}`, false},                                                   // Claude
		{`{"type":"response_item"}`, false},
		{`{"id":"x","timestamp":"2025-05-01T10:00:00Z","instructions":null}`, true}, // before session_meta
	}
	for _, tt := range tests {
		h, _ := format.Sniff([]byte(tt.line), true)
		if got := Detect(h); got != tt.want {
			t.Errorf("Detect(%.60s) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// FuzzDecoder: no input panics, events carry valid UTF-8, and one-byte
// reads give the events whole reads give.
func FuzzDecoder(f *testing.F) {
	eventtest.FuzzPieces(f, corpusFiles(f), "\n", 512)
	f.Add([]byte(strings.Join([]string{metaLine, startedLine, ctxLine, callLine, itemLine, outputLine, doneLine}, "\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		eventtest.FuzzSplit(t, data, func(r io.Reader) event.Decoder { return NewDecoder(r, &Config{MaxEventBytes: 4096}) })
	})
}

func BenchmarkDecode(b *testing.B) { eventtest.BenchDecode(b, corpusFiles(b), newDecoder) }

// TestHeldCalls: calls waiting for their output are bounded; the oldest
// goes out, without its result, when there are too many.
func TestHeldCalls(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(metaLine + "\n")
	for i := range maxPending + 2 {
		fmt.Fprintf(&b, `{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"c%d"}}`+"\n", i)
	}
	dec := NewDecoder(strings.NewReader(b.String()), &Config{Source: "in"})
	var ids, problems []string
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if !errors.Is(err, event.ErrTooManyOpen) {
				t.Errorf("problem %v is not ErrTooManyOpen", err)
			}
			problems = append(problems, err.Error())
		}
		if c, ok := ev.(*event.ToolCall); ok {
			ids = append(ids, c.ID)
		}
		if len(ids) == 2 && len(dec.pending) != maxPending {
			t.Fatalf("%d calls held, want %d", len(dec.pending), maxPending)
		}
	}
	if len(ids) != maxPending+2 || ids[0] != "c0" || ids[1] != "c1" || ids[len(ids)-1] != fmt.Sprintf("c%d", maxPending+1) {
		t.Errorf("calls out: %d, first %v, last %v", len(ids), ids[:2], ids[len(ids)-1])
	}
	want := []string{`in:1026:1: more than 1024 tool calls wait for their output; "c0" went out without it (later ones are not reported)`}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// TestTurnUsageOfManyTurns: each turn's usage is what the cumulative token
// count grew by since the turn before, in every turn of a session, not
// only the first two.
func TestTurnUsageOfManyTurns(t *testing.T) {
	t.Parallel()
	count := func(in, cached, out int) string {
		return fmt.Sprintf(`{"timestamp":"t8","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"reasoning_output_tokens":0}}}}`, in, cached, out)
	}
	var in strings.Builder
	for _, l := range []string{
		metaLine, ctxLine,
		startedLine, count(100, 10, 5), doneLine,
		startedLine, count(250, 30, 12), doneLine,
		startedLine, count(450, 60, 20), doneLine,
		startedLine, count(700, 100, 29), doneLine,
	} {
		in.WriteString(l + "\n")
	}
	d := NewDecoder(strings.NewReader(in.String()), nil)
	var got []event.Usage
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if te, ok := ev.(*event.TurnEnd); ok && te.Usage != nil {
			got = append(got, *te.Usage)
		}
	}
	has := event.HasTokens | event.HasCacheRead | event.HasReasoning
	want := []event.Usage{
		{InputTokens: 100, CacheReadTokens: 10, OutputTokens: 5, Has: has},
		{InputTokens: 150, CacheReadTokens: 20, OutputTokens: 7, Has: has},
		{InputTokens: 200, CacheReadTokens: 30, OutputTokens: 8, Has: has},
		{InputTokens: 250, CacheReadTokens: 40, OutputTokens: 9, Has: has},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("turns' usage (-want +got):\n%s", diff)
	}
}
