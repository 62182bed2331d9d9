package codex

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

	"github.com/google/go-cmp/cmp"

	emitjsonenv "github.com/agentstream/agentstream/emit/jsonenv"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/parse/codex"
	parsejsonenv "github.com/agentstream/agentstream/parse/jsonenv"
)

func samples(t testing.TB, pattern string) []string {
	files, err := filepath.Glob("../../testdata/codex/" + pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	return files
}

func decode(t testing.TB, data []byte) []event.Event {
	d := wire.NewDecoder(bytes.NewReader(data), nil)
	var evs []event.Event
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			if !errors.Is(err, event.ErrTruncated) {
				t.Fatalf("decode: %v", err)
			}
			continue
		}
		evs = append(evs, ev)
	}
}

// encode writes evs and returns the output, the warnings and Close's error.
func encode(t testing.TB, evs []event.Event) (string, []string, error) {
	var out bytes.Buffer
	var warnings []string
	e := NewEncoder(&out, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	for _, ev := range evs {
		if err := e.Encode(ev); err != nil {
			t.Fatalf("Encode(%T): %v", ev, err)
		}
	}
	err := e.Close()
	return out.String(), warnings, err
}

// TestCorpusIdentity: every recorded Codex stream, decoded and encoded
// again, is the same bytes.
func TestCorpusIdentity(t *testing.T) {
	t.Parallel()
	for _, file := range samples(t, "*.jsonl") {
		if strings.HasPrefix(filepath.Base(file), "hand-") {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, warnings, err := encode(t, decode(t, data))
			if err != nil || len(warnings) > 0 {
				t.Errorf("Close = %v, warnings %q", err, warnings)
			}
			if diff := cmp.Diff(string(data), got); diff != "" {
				t.Errorf("codex -> codex changed the stream (-in +out):\n%s", diff)
			}
		})
	}
}

// TestRoundTripEvents: for every sample (the hand-made ones included, whose
// lines Codex would write differently: a web search's item.started with
// its final query, a command's item.updated states, keys written once),
// codex -> codex keeps every event.
func TestRoundTripEvents(t *testing.T) {
	t.Parallel()
	for _, file := range samples(t, "*.jsonl") {
		if strings.HasSuffix(file, "hand-bad.jsonl") {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := decode(t, data)
			out, _, _ := encode(t, want)
			got := decode(t, []byte(out))
			if strings.HasSuffix(file, "hand-truncated.jsonl") {
				// The input's decoder reported the cut; the encoder sees
				// a command still waiting for its result, which is not
				// truncation, and completes the turn.
				last := want[len(want)-1]
				want = append(want, &event.TurnEnd{Agent: last.(*event.ToolCall).Agent}) // usage unknown: "usage":{}
			}
			// Plan and error items keep their raw item, whose id the
			// encoder renumbers only if the source did not count from 0.
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("codex -> codex lost events (-in +out):\n%s", diff)
			}
		})
	}
}

// content is what "every item's content" means across jsonenv, which has no
// exit codes, statuses, usage or turn boundaries: per completed item, its
// type and its text, command and output; the messages of errors and failed
// turns. Exit codes and statuses survive codex -> codex only (see
// TestCorpusIdentity).
func content(t *testing.T, stream string) []string {
	var out []string
	for line := range strings.Lines(stream) {
		var l outLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		switch l.Type {
		case wire.TypeItemCompleted:
			it := l.Item
			kind := it.Type
			if kind == "" {
				kind = it.ItemType // before codex 0.44
			}
			if kind == "assistant_message" {
				kind = wire.ItemAgentMessage
			}
			out = append(out, strings.Join([]string{kind, it.Text, string(it.Command), it.AggregatedOutput}, "|"))
		case wire.TypeError:
			out = append(out, "error|"+*l.Message)
		case wire.TypeTurnFailed:
			out = append(out, "failed|"+l.Error.Message)
		}
	}
	return out
}

// outLine is what the tests read of a written line.
type outLine struct {
	Type    string  `json:"type"`
	Message *string `json:"message"`
	Error   *struct {
		Message string `json:"message"`
	} `json:"error"`
	Item struct {
		Type             string          `json:"type"`
		ItemType         string          `json:"item_type"`
		Text             string          `json:"text"`
		Command          json.RawMessage `json:"command"`
		AggregatedOutput string          `json:"aggregated_output"`
	} `json:"item"`
}

func TestJSONEnvRoundTrip(t *testing.T) {
	t.Parallel()
	for _, file := range samples(t, "*.jsonl") {
		base := filepath.Base(file)
		if strings.HasPrefix(base, "hand-") && base != "hand-legacy.jsonl" && base != "hand-dupkeys.jsonl" {
			continue // file changes, todo lists, plans, MCP servers: jsonenv cannot carry them
		}
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var env bytes.Buffer
			je := emitjsonenv.NewEncoder(&env, &emitjsonenv.Config{NDJSON: true})
			for _, ev := range decode(t, data) {
				if err := je.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			if err := je.Close(); err != nil {
				t.Fatal(err)
			}
			var evs []event.Event
			d := parsejsonenv.NewDecoder(&env, nil)
			for {
				ev, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				evs = append(evs, ev)
			}
			out, _, err := encode(t, evs)
			if err != nil {
				t.Fatal(err)
			}
			want, _, _ := encode(t, decode(t, data))
			if diff := cmp.Diff(content(t, want), content(t, out)); diff != "" {
				t.Errorf("codex -> jsonenv -> codex lost item content (-in +out):\n%s", diff)
			}
		})
	}
}

func intp(n int) *int { return &n }

func TestEncode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       []event.Event
		want     string
		warnings []string
		err      string
	}{
		{
			name: "claude-shaped run: model turns ending in tool use merge into one codex turn",
			in: []event.Event{
				&event.SessionStart{Agent: "S", SessionID: "S", Model: "claude-sonnet-4-5"},
				&event.TurnStart{Agent: "S"},
				&event.BlockStart{Agent: "S", Kind: event.Thinking},
				&event.Delta{Agent: "S", Kind: event.Thinking, Text: "let me "},
				&event.Delta{Agent: "S", Kind: event.Thinking, Text: "look"},
				&event.BlockEnd{Agent: "S", Kind: event.Thinking, Signature: "sig"},
				&event.ToolCall{Agent: "S", ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls","description":"list"}`)},
				&event.TurnEnd{Agent: "S", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 10, OutputTokens: 5, Has: event.HasInput | event.HasOutput}},
				&event.ToolResult{Agent: "S", ID: "toolu_1", Name: "Bash", Content: []event.Part{{Type: "text", Text: "a\nb"}}},
				&event.TurnStart{Agent: "S"},
				&event.BlockStart{Agent: "S", Kind: event.Text},
				&event.Delta{Agent: "S", Kind: event.Text, Text: "Two <files> & done"},
				&event.BlockEnd{Agent: "S", Kind: event.Text},
				&event.TurnEnd{Agent: "S", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 20, OutputTokens: 7, CacheReadTokens: 3, Has: event.HasInput | event.HasOutput | event.HasCacheRead}},
				&event.RunEnd{Agent: "S", Usage: &event.Usage{InputTokens: 30, OutputTokens: 12, Has: event.HasInput | event.HasOutput}, Result: "Two files"},
			},
			want: `{"type":"thread.started","thread_id":"S"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"let me look"}}
{"type":"item.started","item":{"id":"toolu_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"toolu_1","type":"command_execution","command":"ls","aggregated_output":"a\nb","status":"completed"}}
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"Two <files> & done"}}
{"type":"turn.completed","usage":{"input_tokens":30,"cached_input_tokens":3,"output_tokens":12}}
`,
			warnings: []string{
				"codex cannot carry session metadata (model, tools, cwd, prompt)",
				"codex cannot carry thinking signatures",
				"codex cannot carry shell tool inputs other than the command",
				"codex cannot carry run summaries (cost, duration, turns, result)",
			},
		},
		{
			name: "claude without partial messages: turn ends after the results, usage on the run's end",
			in: []event.Event{
				&event.SessionStart{Agent: "S", SessionID: "S"},
				&event.TurnStart{Agent: "S", MessageID: "msg_1"},
				&event.ToolCall{Agent: "S", ID: "t", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
				&event.ToolResult{Agent: "S", ID: "t", Content: []event.Part{{Type: "text", Text: "a"}}},
				&event.TurnEnd{Agent: "S", MessageID: "msg_1"},
				&event.TurnStart{Agent: "S", MessageID: "msg_2"},
				&event.BlockStart{Agent: "S", Kind: event.Text},
				&event.Delta{Agent: "S", Kind: event.Text, Text: "ok"},
				&event.BlockEnd{Agent: "S", Kind: event.Text},
				&event.TurnEnd{Agent: "S", MessageID: "msg_2", StopReason: "end_turn"},
				&event.RunEnd{Agent: "S", Usage: &event.Usage{InputTokens: 84, OutputTokens: 96, Has: event.HasInput | event.HasOutput}},
			},
			want: `{"type":"thread.started","thread_id":"S"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"t","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"t","type":"command_execution","command":"ls","aggregated_output":"a","status":"completed"}}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"ok"}}
{"type":"turn.completed","usage":{"input_tokens":84,"output_tokens":96}}
`,
			warnings: []string{"codex cannot carry message ids and models of turns"},
		},
		{
			name: "codex turns stay apart when a call is left unanswered",
			in: []event.Event{
				&event.TurnStart{Agent: "S"},
				&event.ToolCall{Agent: "S", ID: "ws", Name: "web_search", Input: json.RawMessage(`{"query":"go"}`)},
				&event.TurnEnd{Agent: "S", Usage: &event.Usage{InputTokens: 5, OutputTokens: 1, Has: event.HasInput | event.HasOutput}},
				&event.TurnStart{Agent: "S"},
				&event.BlockStart{Agent: "S", Kind: event.Text},
				&event.Delta{Agent: "S", Kind: event.Text, Text: "ok"},
				&event.BlockEnd{Agent: "S", Kind: event.Text},
				&event.TurnEnd{Agent: "S", Usage: &event.Usage{InputTokens: 7, OutputTokens: 2, Has: event.HasInput | event.HasOutput}},
			},
			// A Codex turn (no message id, no stop reason) ends where
			// the source says, even with the web search never answered
			// (an interrupted item): merging the turns lost a boundary
			// and moved the item on a second pass.
			want: `{"type":"thread.started","thread_id":"S"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"ws","type":"web_search","query":"go"}}
{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":1}}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"ok"}}
{"type":"turn.completed","usage":{"input_tokens":12,"output_tokens":3}}
`,
		},
		{
			name: "mcp, web search, todo and other tools",
			in: []event.Event{
				&event.ToolCall{ID: "1", Name: "mcp__github__get_issue", Input: json.RawMessage("{\n  \"n\": 1\n}")},
				&event.ToolCall{ID: "2", Name: "fetch", MCPServer: "web", Input: json.RawMessage(`{}`)},
				&event.ToolCall{ID: "3", Name: "WebSearch", Input: json.RawMessage(`{"query":"go fuzz"}`)},
				&event.ToolCall{ID: "4", Name: "TodoWrite", Input: json.RawMessage(`{"todos":[{"content":"a","status":"in_progress","activeForm":"A"}]}`)},
				&event.ToolCall{ID: "5", Name: "Read", Input: json.RawMessage(`{"file_path":"x"}`)},
				&event.ToolResult{ID: "1", Content: []event.Part{{Type: "text", Text: "open"}, {Type: "image", Source: "data:image/png;base64,AAAA", MediaType: "image/png"}}, Structured: json.RawMessage(`{"state":"open"}`)},
				&event.ToolResult{ID: "2", IsError: true, Content: []event.Part{{Type: "text", Text: "404"}}},
				&event.ToolResult{ID: "3", Content: []event.Part{{Type: "text", Text: "results"}}},
				&event.ToolResult{ID: "4", Content: []event.Part{{Type: "text", Text: "Todos have been modified"}}},
				&event.ToolCall{ID: "6", Name: "TodoWrite", Input: json.RawMessage(`{"todos":[{"content":"a","status":"completed"}]}`)},
				&event.ToolResult{ID: "5", Content: []event.Part{{Type: "text", Text: "contents"}}},
				&event.ToolResult{ID: "6"},
			},
			want: `{"type":"thread.started","thread_id":"agentstream"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"1","type":"mcp_tool_call","server":"github","tool":"get_issue","arguments":{"n":1},"result":null,"error":null,"status":"in_progress"}}
{"type":"item.started","item":{"id":"2","type":"mcp_tool_call","server":"web","tool":"fetch","arguments":{},"result":null,"error":null,"status":"in_progress"}}
{"type":"item.started","item":{"id":"3","type":"web_search","query":"go fuzz"}}
{"type":"item.started","item":{"id":"item_0","type":"todo_list","items":[{"text":"a","completed":false}]}}
{"type":"item.started","item":{"id":"5","type":"mcp_tool_call","server":"","tool":"Read","arguments":{"file_path":"x"},"result":null,"error":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"1","type":"mcp_tool_call","server":"github","tool":"get_issue","arguments":{"n":1},"result":{"content":[{"type":"text","text":"open"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"structured_content":{"state":"open"}},"status":"completed"}}
{"type":"item.completed","item":{"id":"2","type":"mcp_tool_call","server":"web","tool":"fetch","arguments":{},"error":{"message":"404"},"status":"failed"}}
{"type":"item.completed","item":{"id":"3","type":"web_search","query":"go fuzz"}}
{"type":"item.updated","item":{"id":"item_0","type":"todo_list","items":[{"text":"a","completed":true}]}}
{"type":"item.completed","item":{"id":"5","type":"mcp_tool_call","server":"","tool":"Read","arguments":{"file_path":"x"},"result":{"content":[{"type":"text","text":"contents"}],"structured_content":null},"status":"completed"}}
{"type":"item.completed","item":{"id":"item_0","type":"todo_list","items":[{"text":"a","completed":true}]}}
{"type":"turn.completed","usage":{}}
`,
			warnings: []string{
				"codex cannot carry the in_progress state of todo items",
				"codex cannot carry web search results",
				"codex cannot carry results of todo tools",
			},
		},
		{
			name: "a subagent tool becomes an mcp_tool_call (collab_tool_call is not an SDK type); its own events are dropped",
			in: []event.Event{
				&event.SessionStart{Agent: "P", SessionID: "P"},
				&event.ToolCall{Agent: "P", ID: "toolu_a", Name: "Agent", Input: json.RawMessage(`{"description":"d","prompt":"find it","subagent_type":"general"}`)},
				&event.SessionStart{Agent: "C", ParentAgent: "P", ParentToolID: "toolu_a"},
				&event.ToolCall{Agent: "C", ID: "toolu_c", Name: "Bash", Input: json.RawMessage(`{"command":"grep"}`)},
				&event.ToolResult{Agent: "C", ID: "toolu_c", Content: []event.Part{{Type: "text", Text: "hit"}}},
				&event.ToolResult{Agent: "P", ID: "toolu_a", Content: []event.Part{{Type: "text", Text: "found in a.go"}}},
			},
			want: `{"type":"thread.started","thread_id":"P"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"toolu_a","type":"mcp_tool_call","server":"","tool":"Agent","arguments":{"description":"d","prompt":"find it","subagent_type":"general"},"result":null,"error":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"toolu_a","type":"mcp_tool_call","server":"","tool":"Agent","arguments":{"description":"d","prompt":"find it","subagent_type":"general"},"result":{"content":[{"type":"text","text":"found in a.go"}],"structured_content":null},"status":"completed"}}
{"type":"turn.completed","usage":{}}
`,
			warnings: []string{
				"codex cannot carry events of subagents (codex exec --json writes its main thread only)",
			},
		},
		{
			name: "fatal error and failed run",
			in: []event.Event{
				&event.SessionStart{Agent: "S"},
				&event.BlockStart{Agent: "S", Kind: event.Text},
				&event.Delta{Agent: "S", Kind: event.Text, Text: "API Error: overloaded"},
				&event.BlockEnd{Agent: "S", Kind: event.Text},
				&event.Error{Agent: "S", Message: "Overloaded", Type: "overloaded_error", Fatal: true},
				&event.RunEnd{Agent: "S", IsError: true},
			},
			want: `{"type":"thread.started","thread_id":"S"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"API Error: overloaded"}}
{"type":"error","message":"Overloaded"}
{"type":"turn.failed","error":{"message":"Overloaded"}}
`,
		},
		{
			// A failed envelope run: the producer's error line (no agent)
			// inside the open text block, then the end of the stream,
			// no meta_final. Without turn.failed the SDK's run() succeeds.
			name: "fatal error inside an open block with no run end still ends in turn.failed",
			in: []event.Event{
				&event.SessionStart{Agent: "S"},
				&event.BlockStart{Agent: "S", Kind: event.Text},
				&event.Delta{Agent: "S", Kind: event.Text, Text: "Partial"},
				&event.Error{Message: "boom", Type: "RuntimeError", Fatal: true},
			},
			want: `{"type":"thread.started","thread_id":"S"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"Partial"}}
{"type":"error","message":"boom"}
{"type":"turn.failed","error":{"message":"boom"}}
`,
		},
		{
			name: "file change, plan, error item, notice, unknown",
			in: []event.Event{
				&event.FileChange{ID: "f", Changes: []event.Change{{Path: "a", Kind: "add"}}},
				&event.Notice{Kind: "plan", Message: "1. a"},
				&event.Error{Type: "error_item", Message: "careful"},
				&event.Notice{Kind: "api_retry", Message: "retrying"},
				&event.Unknown{Format: "codex", Raw: []byte(`{"type":"item.completed","item":{"id":"item_7","type":"image_view"}}`)},
				&event.Unknown{Format: "claude", Raw: []byte(`{}`)},
				&event.BlockStart{Kind: event.Text},
				&event.BlockEnd{Kind: event.Text},
			},
			want: `{"type":"thread.started","thread_id":"agentstream"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"file_change","changes":[{"path":"a","kind":"add"}],"status":"completed"}}
{"type":"item.completed","item":{"id":"item_1","type":"plan","text":"1. a"}}
{"type":"item.completed","item":{"id":"item_2","type":"error","message":"careful"}}
{"type":"item.completed","item":{"id":"item_7","type":"image_view"}}
{"type":"item.completed","item":{"id":"item_8","type":"agent_message","text":""}}
{"type":"turn.completed","usage":{}}
`,
			warnings: []string{
				"codex cannot carry notices (api_retry)",
				"codex cannot carry unknown claude events",
			},
		},
		{
			name: "cut off inside a text block",
			in: []event.Event{
				&event.TurnStart{},
				&event.Delta{Kind: event.Text, Text: "half"},
			},
			want: `{"type":"thread.started","thread_id":"agentstream"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"half"}}
`,
			err: "codex: stream truncated: text block(s) left open, no turn.completed written",
		},
		{
			name: "a call never answered is not truncation: item.started alone, the turn completes",
			in: []event.Event{
				&event.TurnStart{},
				&event.ToolCall{ID: "c", Name: "shell", Input: json.RawMessage(`{"command":["bash","-lc","sleep 9; echo 'done'"]}`)},
			},
			want: `{"type":"thread.started","thread_id":"agentstream"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"c","type":"command_execution","command":"bash -lc 'sleep 9; echo '\\''done'\\'''","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"turn.completed","usage":{}}
`,
		},
		{
			name: "a frontend tool call with no result, then the end of a complete stream",
			in: []event.Event{
				&event.ToolCall{ID: "t1", Name: "user_confirm", Input: json.RawMessage(`{}`)},
			},
			want: `{"type":"thread.started","thread_id":"agentstream"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"t1","type":"mcp_tool_call","server":"","tool":"user_confirm","arguments":{},"result":null,"error":null,"status":"in_progress"}}
{"type":"turn.completed","usage":{}}
`,
		},
		{
			name: "a response that stops for tool use: the calls are the client's, the turn completes",
			in: []event.Event{
				&event.TurnStart{MessageID: "msg_1"},
				&event.ToolCall{ID: "t", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
				&event.TurnEnd{MessageID: "msg_1", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 5, OutputTokens: 1, Has: event.HasInput | event.HasOutput}},
			},
			want: `{"type":"thread.started","thread_id":"agentstream"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"t","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":1}}
`,
			warnings: []string{"codex cannot carry message ids and models of turns"},
		},
		{
			name: "only the output count given: input_tokens left out, not 0",
			in: []event.Event{
				&event.TurnEnd{Usage: &event.Usage{OutputTokens: 7, Has: event.HasOutput}},
			},
			want: `{"type":"thread.started","thread_id":"agentstream"}
{"type":"turn.started"}
{"type":"turn.completed","usage":{"output_tokens":7}}
`,
		},
		{
			name: "only the input and cache read counts given: output_tokens left out, not 0",
			in: []event.Event{
				&event.TurnEnd{Usage: &event.Usage{InputTokens: 9, CacheReadTokens: 4, Has: event.HasInput | event.HasCacheRead}},
			},
			want: `{"type":"thread.started","thread_id":"agentstream"}
{"type":"turn.started"}
{"type":"turn.completed","usage":{"input_tokens":9,"cached_input_tokens":4}}
`,
		},
		{
			name: "exit codes and statuses",
			in: []event.Event{
				&event.ToolCall{ID: "c", Name: "command_execution", Input: json.RawMessage(`{"command":"false"}`)},
				&event.ToolResult{ID: "c", ExitCode: intp(1), IsError: true},
				&event.TurnEnd{Error: "stream disconnected"},
			},
			want: `{"type":"thread.started","thread_id":"agentstream"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"c","type":"command_execution","command":"false","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"c","type":"command_execution","command":"false","aggregated_output":"","exit_code":1,"status":"failed"}}
{"type":"turn.failed","error":{"message":"stream disconnected"}}
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, warnings, err := encode(t, tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("output differs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("warnings differ (-want +got):\n%s", diff)
			}
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
				if !errors.Is(err, event.ErrTruncated) {
					t.Errorf("Close error %v does not wrap ErrTruncated", err)
				}
			}
			if gotErr != tt.err {
				t.Errorf("Close = %q, want %q", gotErr, tt.err)
			}
			for line := range strings.Lines(got) {
				if !json.Valid([]byte(line)) {
					t.Errorf("invalid JSON line %q", line)
				}
			}
		})
	}
}

// TestEveryEventType walks one event of every type through the encoder:
// it writes valid lines and warns about what it drops, never fails.
func TestEveryEventType(t *testing.T) {
	t.Parallel()
	cost := 0.5
	evs := []event.Event{
		&event.SessionStart{Agent: "A", SessionID: "s"},
		&event.TurnStart{Agent: "A", MessageID: "m"},
		&event.BlockStart{Agent: "A", Kind: event.Text},
		&event.Delta{Agent: "A", Kind: event.Text, Text: "x"},
		&event.BlockEnd{Agent: "A", Kind: event.Text},
		&event.Citations{Agent: "A", Items: []event.Citation{{Type: "char_location"}}},
		&event.ToolCall{Agent: "A", ID: "t", Name: "Read", Input: json.RawMessage(`{}`), Server: true},
		&event.ToolResult{Agent: "A", ID: "t", Content: []event.Part{{Type: "image", Source: "https://x/y.png"}}},
		&event.AwaitingTools{Agent: "A"},
		&event.Files{Agent: "A"},
		&event.FileChange{Agent: "A"},
		&event.TodoList{Agent: "A", ID: "l", Items: []event.TodoItem{{Text: "a", Status: "in_progress"}}},
		&event.Error{Agent: "A", Message: "e"},
		&event.TurnEnd{Agent: "A", MessageID: "m"},
		&event.Notice{Agent: "A", Kind: "status"},
		&event.Unknown{Agent: "A", Format: "xml"},
		&event.RunEnd{Agent: "A", CostUSD: &cost},
	}
	out, warnings, err := encode(t, evs)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(out) {
		if !json.Valid([]byte(line)) {
			t.Errorf("invalid JSON line %q", line)
		}
	}
	if len(warnings) < 8 {
		t.Errorf("only %d warnings: %q", len(warnings), warnings)
	}
	// What was written reads back.
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var l outLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Errorf("%s: %v", sc.Text(), err)
		}
	}
}

func TestWriteError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	e := NewEncoder(errWriter{boom}, nil)
	if err := e.Encode(&event.SessionStart{Agent: "a"}); !errors.Is(err, boom) {
		t.Fatalf("Encode = %v, want %v", err, boom)
	}
	if err := e.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close = %v, want %v", err, boom)
	}
}

type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }

func BenchmarkEncode(b *testing.B) {
	var evs []event.Event
	var n int
	for _, file := range samples(b, "*.jsonl") {
		if strings.HasSuffix(file, "hand-bad.jsonl") || strings.HasSuffix(file, "hand-truncated.jsonl") {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		n += len(data)
		evs = append(evs, decode(b, data)...)
	}
	b.ReportAllocs()
	b.SetBytes(int64(n))
	for b.Loop() {
		e := NewEncoder(io.Discard, nil)
		for _, ev := range evs {
			e.Encode(ev)
		}
		e.Close()
	}
}

// TestMaxBlockBytes checks that a block's text is held up to
// Config.MaxBlockBytes: the rest is dropped, without splitting a rune, and
// reported once, also for a block that never ends.
func TestMaxBlockBytes(t *testing.T) {
	t.Parallel()
	const warning = "codex cannot carry text beyond MaxEventBytes in one block"
	tests := []struct {
		name     string
		evs      []event.Event
		want     string // the text written
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
			want: "abcdefgh",
		},
		{
			name: "over the cap",
			evs: []event.Event{
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "abcd"},
				&event.Delta{Kind: event.Text, Text: "efghij"},
				&event.Delta{Kind: event.Text, Text: "klmn"},
				&event.BlockEnd{Kind: event.Text},
			},
			want:     "abcdefgh",
			warnings: []string{warning},
		},
		{
			name: "a rune at the cap",
			evs: []event.Event{
				&event.BlockStart{Kind: event.Thinking},
				&event.Delta{Kind: event.Thinking, Text: "abcdef€"}, // € is 3 bytes: 6..9
				&event.BlockEnd{Kind: event.Thinking},
			},
			want:     "abcdef",
			warnings: []string{warning},
		},
		{
			name: "a block that never ends",
			evs: []event.Event{
				&event.Delta{Kind: event.Text, Text: strings.Repeat("x", 100)},
				&event.Delta{Kind: event.Text, Text: strings.Repeat("y", 100)},
			},
			want:     "xxxxxxxx",
			warnings: []string{warning},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			var warnings []string
			e := NewEncoder(&out, &Config{MaxBlockBytes: 8, Warn: func(err error) { warnings = append(warnings, err.Error()) }})
			for _, ev := range tt.evs {
				if err := e.Encode(ev); err != nil {
					t.Fatalf("Encode(%T): %v", ev, err)
				}
			}
			for _, k := range e.blocks {
				if k.b.len() > 8 {
					t.Errorf("%s block holds %d bytes, over the cap of 8", k.kind, k.b.len())
				}
			}
			_ = e.Close()
			var got []string
			for _, ev := range decode(t, out.Bytes()) {
				if d, ok := ev.(*event.Delta); ok {
					got = append(got, d.Text)
				}
			}
			if diff := cmp.Diff([]string{tt.want}, got); diff != "" {
				t.Errorf("text written (-want +got):\n%s\n%s", diff, out.String())
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFileChangeStarted: a file_change's item.started (status in_progress)
// and its item.completed are both kept, under one item id.
func TestFileChangeStarted(t *testing.T) {
	t.Parallel()
	const in = `{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_0","type":"file_change","changes":[{"path":"a.go","kind":"update"}],"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"editing"}}
{"type":"item.completed","item":{"id":"item_0","type":"file_change","changes":[{"path":"a.go","kind":"update"}],"status":"completed"}}
{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}
`
	got, warnings, err := encode(t, decode(t, []byte(in)))
	if err != nil || len(warnings) > 0 {
		t.Errorf("Close = %v, warnings %q", err, warnings)
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("codex -> codex changed the stream (-in +out):\n%s", diff)
	}
}

// TestDeltaAllocs: a delta of an open block is appended to a reused
// buffer, with no allocation of its own (the buffer's growth amortized).
func TestDeltaAllocs(t *testing.T) {
	e := NewEncoder(io.Discard, nil)
	for _, ev := range []event.Event{&event.SessionStart{Agent: "a"}, &event.BlockStart{Agent: "a", Kind: event.Text}} {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	delta := &event.Delta{Agent: "a", Kind: event.Text, Text: "some words "}
	if n := testing.AllocsPerRun(1000, func() { e.Encode(delta) }); n != 0 {
		t.Errorf("%v allocations per delta", n)
	}
	// A block's buffer is reused by the next block.
	end := &event.BlockEnd{Agent: "a", Kind: event.Text}
	start := &event.BlockStart{Agent: "a", Kind: event.Text}
	e.Encode(end)
	e.Encode(start)
	if n := testing.AllocsPerRun(1000, func() { e.Encode(delta) }); n != 0 {
		t.Errorf("%v allocations per delta of the next block", n)
	}
}

// TestCutBeforeFirstTurn: a run cut right after its start reads back as
// cut (a turn begun and not ended), never as the thread.started alone
// that Close writes for a run that ended with nothing to say.
func TestCutBeforeFirstTurn(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		cut  bool
		want string
	}{
		{"cut", true, `{"type":"thread.started","thread_id":"t"}` + "\n" + `{"type":"turn.started"}` + "\n"},
		{"ended", false, `{"type":"thread.started","thread_id":"t"}` + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			e := NewEncoder(&out, nil)
			if err := e.Encode(&event.SessionStart{Agent: "t"}); err != nil {
				t.Fatal(err)
			}
			err := event.End(e, tt.cut)
			if got := errors.Is(err, event.ErrTruncated); got != tt.cut {
				t.Errorf("End(cut %v) = %v", tt.cut, err)
			}
			if diff := cmp.Diff(tt.want, out.String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			d := wire.NewDecoder(bytes.NewReader(out.Bytes()), nil)
			back := false
			for {
				_, err := d.Next()
				if err == io.EOF {
					break
				}
				back = back || errors.Is(err, event.ErrTruncated)
			}
			if back != tt.cut {
				t.Errorf("read back: cut %v, want %v", back, tt.cut)
			}
		})
	}
}

// TestAppendName: the names the encoder writes with appendName, its
// event and item types and the members' keys, need no escape.
func TestAppendName(t *testing.T) {
	t.Parallel()
	names := []string{
		wire.TypeItemStarted, wire.TypeItemUpdated, wire.TypeItemCompleted,
		wire.ItemAgentMessage, wire.ItemReasoning, wire.ItemCommandExecution, wire.ItemFileChange, wire.ItemMCPToolCall,
		wire.ItemWebSearch, wire.ItemTodoList, wire.ItemError, wire.ItemPlan, wire.ItemCollabToolCall,
	}
	var keys []string
	var c call
	for _, fs := range [][]field{
		c.commandFields(nil, "", nil, ""), c.mcpFields(nil, nil, ""), c.collabFields(nil, ""),
		{str("text", ""), str("message", ""), raw("changes", nil), raw("items", nil), raw("id", nil), raw("query", nil), raw("action", nil)},
	} {
		for _, f := range fs {
			keys = append(keys, f.key)
		}
	}
	for _, s := range append(names, keys...) {
		if got, want := string(appendName(nil, s)), string(jsontext.AppendString(nil, s)); got != want {
			t.Errorf("appendName(%q) = %s, want %s", s, got, want)
		}
	}
}
