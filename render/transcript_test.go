package render

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/usage"
)

func ptr[T any](v T) *T { return &v }

const (
	mainID = "aaaaaaaa-0000-4000-8000-000000000001"
	subID  = "bbbbbbbb-0000-4000-8000-000000000002"
	sub2ID = "cccccccc-0000-4000-8000-000000000003"
)

func textBlock(agent string, kind event.BlockKind, chunks ...string) []event.Event {
	evs := []event.Event{&event.BlockStart{Agent: agent, Kind: kind}}
	for _, c := range chunks {
		evs = append(evs, &event.Delta{Agent: agent, Kind: kind, Text: c})
	}
	return append(evs, &event.BlockEnd{Agent: agent, Kind: kind})
}

func toolCall(agent, id, name, input string) *event.ToolCall {
	return &event.ToolCall{Agent: agent, ID: id, Name: name, Input: json.RawMessage(input)}
}

func result(agent, id, text string) *event.ToolResult {
	return &event.ToolResult{Agent: agent, ID: id, Content: []event.Part{{Type: "text", Text: text}}}
}

func seq(parts ...any) []event.Event {
	var evs []event.Event
	for _, p := range parts {
		switch p := p.(type) {
		case event.Event:
			evs = append(evs, p)
		case []event.Event:
			evs = append(evs, p...)
		default:
			panic(p)
		}
	}
	return evs
}

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("output line ")
		b.WriteString(strings.Repeat("x", i%3))
		b.WriteString("\n")
	}
	return b.String()
}

// eventStreams are hand-built event sequences for what the recordings in
// ../testdata lack: every tool the transcript knows, subagents linked by
// tool id, Codex items, truncation.
var eventStreams = map[string][]event.Event{
	"claude-tools": seq(
		&event.SessionStart{Agent: mainID, Model: "claude-opus-4", Cwd: "/work", SessionID: "s1", Prompt: "Fix the bug\nand tidy up."},
		&event.TurnStart{Agent: mainID, MessageID: "msg_1"},
		textBlock(mainID, event.Thinking, "Look at ", "the file first.\nThen edit."),
		textBlock(mainID, event.Text, "Reading the file."),
		toolCall(mainID, "t1", "Read", `{"file_path":"/work/main.go","offset":10,"limit":5}`),
		&event.TurnEnd{Agent: mainID, MessageID: "msg_1", Usage: &event.Usage{InputTokens: 100, OutputTokens: 5, Has: event.HasInput | event.HasOutput}},
		toolCall(mainID, "t2", "Edit", `{"file_path":"/work/main.go","old_string":"a\nb\nc\nd\ne\nf\ng\nh\ni\nj","new_string":"a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk"}`),
		&event.TurnEnd{Agent: mainID, MessageID: "msg_1", Usage: &event.Usage{InputTokens: 100, OutputTokens: 20, CacheReadTokens: 1000, Has: event.HasInput | event.HasOutput | event.HasCacheRead}},
		result(mainID, "t1", "    10\tfunc main() {\n    11\t}"),
		result(mainID, "t2", "The file /work/main.go has been updated."),
		toolCall(mainID, "t3", "Write", `{"file_path":"/work/notes.txt","content":"one\ntwo\n"}`),
		result(mainID, "t3", "File created successfully"),
		toolCall(mainID, "t4", "TodoWrite", `{"todos":[{"content":"Read","status":"completed","activeForm":"Reading"},{"content":"Edit","status":"in_progress","activeForm":"Editing"},{"content":"Test","status":"pending","activeForm":"Testing"}]}`),
		result(mainID, "t4", "Todos have been modified successfully."),
		toolCall(mainID, "t5", "WebSearch", `{"query":"go unified diff"}`),
		result(mainID, "t5", "Web search results for query: \"go unified diff\""),
		toolCall(mainID, "t6", "WebFetch", `{"url":"https://go.dev/doc","prompt":"Summarise"}`),
		result(mainID, "t6", "Go documentation."),
		toolCall(mainID, "t7", "Grep", `{"pattern":"func main","path":"/work","glob":"*.go"}`),
		result(mainID, "t7", "/work/main.go"),
		toolCall(mainID, "t8", "Glob", `{"pattern":"**/*.go"}`),
		result(mainID, "t8", "/work/main.go"),
		toolCall(mainID, "t9", "mcp__github__create_issue", `{"title":"Bug"}`),
		result(mainID, "t9", `{"number":7}`),
		toolCall(mainID, "t10", "Bash", `{"command":"go test ./...","description":"Run the tests"}`),
		&event.ToolResult{Agent: mainID, ID: "t10", IsError: true, ExitCode: ptr(1), Content: []event.Part{{Type: "text", Text: numbered(25)}}},
		toolCall(mainID, "t11", "Bash", `{"command":"cat <<'EOF' > x\nline 1\nline 2\nEOF"}`),
		result(mainID, "t11", ""),
		toolCall(mainID, "t12", "screenshot", `{}`),
		&event.ToolResult{Agent: mainID, ID: "t12", Content: []event.Part{{Type: "text", Text: "shot"}, {Type: "image", MediaType: "image/png", Source: "data:image/png;base64,iVBORw0KGgo="}}},
		textBlock(mainID, event.Text, "Done: see [the docs](https://go.dev)."),
		&event.Citations{Agent: mainID, Items: []event.Citation{{Type: "web_search_result_location", CitedText: "Go is fast.", URL: ptr("https://go.dev"), Title: ptr("Go")}}},
		&event.Notice{Agent: mainID, Kind: "api_retry", Message: "retrying in 2s (attempt 1)"},
		&event.TurnEnd{Agent: mainID, MessageID: "msg_2", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 50, OutputTokens: 30, Has: event.HasInput | event.HasOutput}},
		&event.RunEnd{Agent: mainID, StopReason: "end_turn", DurationMS: 12345, CostUSD: ptr(0.0123)},
	),
	"subagent-by-tool-id": seq(
		&event.SessionStart{Agent: mainID, Model: "claude-opus-4", Prompt: "Delegate."},
		textBlock(mainID, event.Text, "Delegating."),
		toolCall(mainID, "task1", "Task", `{"description":"Find the file","subagent_type":"Explore","prompt":"Find main.go"}`),
		&event.SessionStart{Agent: subID, ParentAgent: mainID, ParentToolID: "task1", Name: "Explore", Description: "Find the file", Prompt: "Find main.go"},
		&event.BlockStart{Agent: subID, Kind: event.Thinking},
		&event.Delta{Agent: subID, Kind: event.Thinking, Text: "Search "},
		textBlock(mainID, event.Text, "Waiting for the subagent."),
		&event.Delta{Agent: subID, Kind: event.Thinking, Text: "for it."},
		&event.BlockEnd{Agent: subID, Kind: event.Thinking},
		toolCall(subID, "s1", "Glob", `{"pattern":"**/main.go"}`),
		result(subID, "s1", "/work/main.go"),
		textBlock(subID, event.Text, "It is /work/main.go."),
		&event.TurnEnd{Agent: subID, MessageID: "sub_1", Usage: &event.Usage{InputTokens: 10, OutputTokens: 3, Has: event.HasInput | event.HasOutput}},
		&event.RunEnd{Agent: subID, StopReason: "end_turn", Turns: 1},
		result(mainID, "task1", "It is /work/main.go."),
		textBlock(mainID, event.Text, "Found: /work/main.go."),
		&event.RunEnd{Agent: mainID, StopReason: "end_turn", Turns: 2, Usage: &event.Usage{InputTokens: 300, OutputTokens: 40, Has: event.HasInput | event.HasOutput}},
	),
	"parallel-subagents": seq(
		&event.SessionStart{Agent: mainID, Model: "m"},
		toolCall(mainID, "A", "Agent", `{"description":"first","subagent_type":"general-purpose"}`),
		toolCall(mainID, "B", "Agent", `{"description":"second","subagent_type":"general-purpose"}`),
		&event.SessionStart{Agent: subID, ParentAgent: mainID, ParentToolID: "A"},
		&event.SessionStart{Agent: sub2ID, ParentAgent: mainID, ParentToolID: "B"},
		textBlock(sub2ID, event.Text, "second at work"),
		textBlock(subID, event.Text, "first at work"),
		result(mainID, "B", "second done"),
		textBlock(subID, event.Text, "first still at work"),
		result(mainID, "A", "first done"),
		textBlock(subID, event.Text, "first, after its result"),
	),
	"codex-items": seq(
		&event.SessionStart{Agent: "", SessionID: "thread-1"},
		&event.TurnStart{},
		textBlock("", event.Thinking, "**Running a command**\n\nI will echo hello."),
		toolCall("", "item_2", "command_execution", `{"command":"/bin/bash -lc 'echo '\\''hi'\\'' && ls'"}`),
		&event.ToolResult{ID: "item_2", ExitCode: ptr(0), Status: "completed", Content: []event.Part{{Type: "text", Text: "hi\nREADME.md\n"}}},
		toolCall("", "item_3", "command_execution", `{"command":"false"}`),
		&event.ToolResult{ID: "item_3", ExitCode: ptr(1), Status: "failed"},
		&event.FileChange{ID: "item_4", Changes: []event.Change{{Path: "src/a.go", Kind: "update"}, {Path: "src/b.go", Kind: "add"}}, Status: "completed"},
		&event.TodoList{ID: "item_5", Items: []event.TodoItem{{Text: "write code", Status: "completed"}, {Text: "test it", Status: "pending"}}},
		toolCall("", "item_6", "web_search", `{"query":"codex cli"}`),
		result("", "item_6", ""),
		&event.ToolCall{ID: "item_7", Name: "search_docs", MCPServer: "docs", Input: json.RawMessage(`{"q":"x"}`)},
		result("", "item_7", "found"),
		&event.Error{Message: "stream disconnected before completion", Type: "error"},
		textBlock("", event.Text, "Printed `hi`."),
		&event.TurnEnd{StopReason: "completed", Usage: &event.Usage{InputTokens: 2400, OutputTokens: 32, ReasoningTokens: 10, Has: event.HasInput | event.HasOutput | event.HasReasoning}},
		&event.TurnEnd{Usage: &event.Usage{InputTokens: 100, OutputTokens: 8, Has: event.HasInput | event.HasOutput}},
	),
	"truncated": seq(
		&event.SessionStart{Agent: mainID},
		toolCall(mainID, "t1", "Bash", `{"command":"sleep 100"}`),
		&event.BlockStart{Agent: mainID, Kind: event.Thinking},
		&event.Delta{Agent: mainID, Kind: event.Thinking, Text: "Hmm"},
		&event.BlockStart{Agent: mainID, Kind: event.Text},
		&event.Delta{Agent: mainID, Kind: event.Text, Text: "Half a sent"},
		&event.TurnEnd{Agent: mainID, MessageID: "m1", Usage: &event.Usage{InputTokens: 7, OutputTokens: 1, Has: event.HasInput | event.HasOutput}},
	),
}

// TestEventStreams renders the hand-built event streams in each view and
// compares with testdata/golden/events/<name>.<view>.
func TestEventStreams(t *testing.T) {
	t.Parallel()
	for name, evs := range eventStreams {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, v := range views {
				got := visible(renderEvents(t, evs, v.o))
				golden := filepath.Join("testdata", "golden", "events", name+v.ext)
				eventtest.GoldenFile(t, golden, []byte(got), *update)
			}
		})
	}
}

func renderEvents(t *testing.T, evs []event.Event, o Options) string {
	t.Helper()
	var out bytes.Buffer
	tr := NewTranscript(&out, o)
	for _, ev := range evs {
		if err := tr.Event(ev); err != nil {
			t.Fatal(err)
		}
	}
	tr.Close()
	return out.String()
}

func TestOptions(t *testing.T) {
	t.Parallel()
	long := seq(
		&event.SessionStart{Agent: mainID},
		toolCall(mainID, "t1", "Bash", `{"command":"seq 20"}`),
		result(mainID, "t1", numbered(20)),
		toolCall(mainID, "t2", "frob", `{"k":"`+strings.Repeat("v", 200)+`"}`),
		result(mainID, "t2", strings.Repeat("w", 200)),
		textBlock(mainID, event.Thinking, "secret thoughts"),
	)
	sub := eventStreams["subagent-by-tool-id"]
	tests := []struct {
		name        string
		evs         []event.Event
		o           Options
		has, hasNot []string
	}{
		{"default cuts output", long, Options{}, []string{"… 10 lines cut (--full shows all) …", "secret thoughts", `"k":"vvv`, "vvv…"}, []string{strings.Repeat("v", 200), strings.Repeat("w", 200)}},
		{"max output lines", long, Options{MaxOutputLines: 4}, []string{"… 16 lines cut"}, nil},
		{"full", long, Options{Full: true}, []string{strings.Repeat("v", 200), strings.Repeat("w", 200)}, []string{"lines cut"}},
		{"width", long, Options{Width: 60}, []string{"vvv…"}, []string{strings.Repeat("w", 60)}},
		{"no thinking", long, Options{NoThinking: true}, nil, []string{"secret thoughts"}},
		{"all agents", sub, Options{}, []string{"▸ subagent Explore: Find the file (bbbbbbbb)", "│ It is /work/main.go.", "Found: /work/main.go."}, nil},
		{"main agent", sub, Options{Agent: "main"}, []string{"Found: /work/main.go.", "→ Task Explore: Find the file"}, []string{"Glob", "▸ subagent"}},
		{"agent by id prefix", sub, Options{Agent: "bbbbbbbb"}, []string{"It is /work/main.go.", "→ Glob **/main.go"}, []string{"Found: /work/main.go.", "│", "Delegating."}},
		{"live subagent", sub, Options{Live: true}, []string{"Waiting for the subagent.", "│ ┊ Search \n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := renderEvents(t, tt.evs, tt.o)
			for _, s := range tt.has {
				if !strings.Contains(got, s) {
					t.Errorf("output lacks %q:\n%s", s, got)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(got, s) {
					t.Errorf("output has %q:\n%s", s, got)
				}
			}
		})
	}
}

// TestLiveWritesDeltas: in live mode each delta is written when it
// arrives; otherwise nothing of a block is written before its end.
func TestLiveWritesDeltas(t *testing.T) {
	t.Parallel()
	for _, live := range []bool{true, false} {
		var out bytes.Buffer
		tr := NewTranscript(&out, Options{Live: live})
		for _, ev := range []event.Event{
			&event.BlockStart{Agent: mainID, Kind: event.Text},
			&event.Delta{Agent: mainID, Kind: event.Text, Text: "Hel"},
			&event.Delta{Agent: mainID, Kind: event.Text, Text: "lo"},
		} {
			if err := tr.Event(ev); err != nil {
				t.Fatal(err)
			}
		}
		want := ""
		if live {
			want = "Hello"
		}
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("live=%v: before the block end (-want +got):\n%s", live, diff)
		}
		if err := tr.Event(&event.BlockEnd{Agent: mainID, Kind: event.Text}); err != nil {
			t.Fatal(err)
		}
		if err := tr.Close(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff("Hello\n", out.String()); diff != "" {
			t.Errorf("live=%v: at the end (-want +got):\n%s", live, diff)
		}
	}
}

func TestSummaryTokens(t *testing.T) {
	t.Parallel()
	turn := func(id string, in, out int64) *event.TurnEnd {
		return &event.TurnEnd{Agent: mainID, MessageID: id, Usage: &event.Usage{InputTokens: in, OutputTokens: out, Has: event.HasInput | event.HasOutput}}
	}
	tests := []struct {
		name string
		evs  []event.Event
		want string
	}{
		{"deduplicated by message id", []event.Event{turn("m1", 10, 1), turn("m1", 10, 5), turn("m2", 3, 2), &event.RunEnd{Agent: mainID}}, "■ end: 2 turns · 13 in / 7 out tokens\n"},
		{"empty ids each count", []event.Event{turn("", 10, 1), turn("", 10, 5), &event.RunEnd{Agent: mainID}}, "■ end: 2 turns · 20 in / 6 out tokens\n"},
		// The same accounting as `agentstream usage`: messages first, the
		// run end's total only for an agent whose turns carried none.
		{"messages win over run end usage", []event.Event{turn("m1", 10, 1), &event.RunEnd{Agent: mainID, StopReason: "end_turn", Turns: 3, DurationMS: 1500, CostUSD: ptr(0.5), Usage: &event.Usage{InputTokens: 1234567, OutputTokens: 2, Has: event.HasInput | event.HasOutput}}}, "■ end: end_turn · 3 turns · 1.5s · 10 in / 1 out tokens · $0.5000\n"},
		{"run end usage without message usage", []event.Event{&event.TurnEnd{Agent: mainID, MessageID: "m1"}, &event.RunEnd{Agent: mainID, Usage: &event.Usage{InputTokens: 1234567, OutputTokens: 2, Has: event.HasInput | event.HasOutput}}}, "■ end: 1 turn · 1,234,567 in / 2 out tokens\n"},
		{"durations", []event.Event{&event.RunEnd{Agent: mainID, DurationMS: 42}, &event.RunEnd{Agent: mainID, DurationMS: 245000}, &event.RunEnd{Agent: mainID, DurationMS: 3720000}}, "■ end: 42ms\n\n■ end: 4m05s\n\n■ end: 1h02m\n"},
		{"no run end", []event.Event{turn("m1", 10, 1)}, "■ no run end: 1 turn · 10 in / 1 out tokens\n"},
		{"run error", []event.Event{&event.RunEnd{Agent: mainID, StopReason: "error_during_execution", IsError: true, Errors: []string{"boom"}}}, "■ end: error_during_execution · error\n✗ boom\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, renderEvents(t, tt.evs, Options{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, old, new string
		want           []string
	}{
		{"equal", "a\nb", "a\nb", nil},
		{"one line changed", "a\nb\nc", "a\nB\nc", []string{"@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"}},
		{"added to empty", "", "x\ny", []string{"@@ -0,0 +1,2 @@", "+x", "+y"}},
		{"all removed", "x", "", []string{"@@ -1 +0,0 @@", "-x"}},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12", "0\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n13", []string{
			"@@ -1,4 +1,4 @@", "-1", "+0", " 2", " 3", " 4",
			"@@ -9,4 +9,4 @@", " 9", " 10", " 11", "-12", "+13",
		}},
		{"close changes share a hunk", "a\nb\nc\nd\ne", "A\nb\nc\nd\nE", []string{"@@ -1,5 +1,5 @@", "-a", "+A", " b", " c", " d", "-e", "+E"}},
		{"insertion in the middle", "a\nc", "a\nb\nc", []string{"@@ -1,2 +1,3 @@", " a", "+b", " c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, unifiedDiff(tt.old, tt.new)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDescribeCall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tool, mcp, input string
		want                   callView
	}{
		{"bash", "Bash", "", `{"command":"ls -l","description":"List"}`, callView{title: "Bash", command: "ls -l", note: "List"}},
		{"codex wrapper", "command_execution", "", `{"command":"/bin/bash -lc 'echo '\\''a'\\'''"}`, callView{title: "command_execution", command: "echo 'a'"}},
		{"codex wrapper kept when unsure", "command_execution", "", `{"command":"bash -lc 'a' 'b'"}`, callView{title: "command_execution", command: "bash -lc 'a' 'b'"}},
		{"argv", "shell", "", `{"command":["bash","-lc","make test"]}`, callView{title: "shell", command: "make test"}},
		{"read range", "Read", "", `{"file_path":"/a.go","offset":3,"limit":2}`, callView{title: "Read", summary: "/a.go:3-4"}},
		{"read whole", "Read", "", `{"file_path":"/a.go"}`, callView{title: "Read", summary: "/a.go"}},
		{"write", "Write", "", `{"file_path":"/a.txt","content":"x\ny\n"}`, callView{title: "Write", summary: "/a.txt (2 lines, 4 B)"}},
		{"edit", "Edit", "", `{"file_path":"/a","old_string":"x","new_string":"y","replace_all":true}`, callView{title: "Edit", summary: "/a (every occurrence)", diff: []string{"@@ -1 +1 @@", "-x", "+y"}}},
		{"todos", "TodoWrite", "", `{"todos":[{"content":"a","status":"completed"}]}`, callView{title: "TodoWrite", summary: "1 item", todos: []todoView{{"a", "completed"}}}},
		{"search", "WebSearch", "", `{"query":"q"}`, callView{title: "WebSearch", summary: `"q"`}},
		{"fetch", "WebFetch", "", `{"url":"https://x","prompt":"p"}`, callView{title: "WebFetch", summary: "https://x", note: "p"}},
		{"grep", "Grep", "", `{"pattern":"p","path":"/w"}`, callView{title: "Grep", summary: `"p" in /w`}},
		{"task", "Task", "", `{"description":"d","subagent_type":"Explore"}`, callView{title: "Task", summary: "Explore: d"}},
		{"mcp by name", "mcp__gh__issue", "", `{"a":1}`, callView{title: "gh/issue", summary: `{"a":1}`}},
		{"mcp by server", "issue", "gh", `{"a":1}`, callView{title: "gh/issue", summary: `{"a":1}`}},
		{"generic", "frob", "", `{ "a" : [1, 2] }`, callView{title: "frob", summary: `{"a":[1,2]}`}},
		{"not an object", "frob", "", `"raw args"`, callView{title: "frob", summary: `"raw args"`}},
		{"bash without command", "Bash", "", `{"x":1}`, callView{title: "Bash", summary: `{"x":1}`}},
		{"cline command", "execute_command", "", `{"command":"make","requires_approval":"false"}`, callView{title: "execute_command", command: "make"}},
		{"cline write", "write_to_file", "", `{"path":"a.txt","content":"x"}`, callView{title: "write_to_file", summary: "a.txt (1 line, 1 B)"}},
		{"cline replace", "replace_in_file", "", `{"path":"a.go","diff":"------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE"}`, callView{title: "replace_in_file", summary: "a.go", diff: []string{"@@ -1 +1 @@", "-old", "+new"}}},
		{"roo apply_diff", "apply_diff", "", `{"path":"a.go","diff":"<<<<<<< SEARCH\n:start_line:3\n-------\nold\n=======\nnew\n>>>>>>> REPLACE"}`, callView{title: "apply_diff", summary: "a.go", diff: []string{"@@ -1 +1 @@", "-old", "+new"}}},
		{"replace without blocks", "replace_in_file", "", `{"path":"a.go","diff":"x"}`, callView{title: "replace_in_file", summary: `{"path":"a.go","diff":"x"}`}},
		{"cline search", "search_files", "", `{"path":"src","regex":"a+","file_pattern":"*.go"}`, callView{title: "search_files", summary: `"a+" in src file_pattern=*.go`}},
		{"cline list", "list_files", "", `{"path":".","recursive":"true"}`, callView{title: "list_files", summary: ". (recursive)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := describeCall(tt.tool, tt.mcp, json.RawMessage(tt.input))
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(callView{}, todoView{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestBlankLines: the newlines a block starts and ends with are not
// shown, in either mode, so blocks sit one blank line apart.
func TestBlankLines(t *testing.T) {
	t.Parallel()
	evs := seq(
		textBlock(mainID, event.Text, "\n\nHello", "\n\n"),
		textBlock(mainID, event.Thinking, "\nhm\n\nyes\n"),
		textBlock(mainID, event.Text, "Bye\n"),
	)
	want := "Hello\n\n┊ hm\n┊\n┊ yes\n\nBye\n"
	for _, o := range []Options{{}, {Live: true}} {
		if diff := cmp.Diff(want, renderEvents(t, evs, o)); diff != "" {
			t.Errorf("live=%v (-want +got):\n%s", o.Live, diff)
		}
	}
}

func TestSanitize(t *testing.T) {
	t.Parallel()
	if diff := cmp.Diff("^[[31mred^[[0m\tx^?\n^M", sanitize("\x1b[31mred\x1b[0m\tx\x7f\n\r")); diff != "" {
		t.Error(diff)
	}
	// Model text too, in both modes; Markdown keeps it verbatim.
	evs := textBlock(mainID, event.Text, "a\x1b[2Jb")
	for _, o := range []Options{{}, {Live: true}} {
		if diff := cmp.Diff("a^[[2Jb\n", renderEvents(t, evs, o)); diff != "" {
			t.Errorf("live=%v: %s", o.Live, diff)
		}
	}
}

func TestMarkdownHelpers(t *testing.T) {
	t.Parallel()
	if diff := cmp.Diff([]string{"````", "a ``` b", "````"}, fence("", []string{"a ``` b"})); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff("`` `x` ``", inlineCode("`x`")); diff != "" {
		t.Error(diff)
	}
}

func TestAgentLabelNeverSplitsARune(t *testing.T) {
	t.Parallel()
	tests := []struct{ id, want string }{
		{"30f1aff5-1557-451a-8db9-d3b87ffa58cb", "30f1aff5"},
		{"ééééé-é-é-é-é", "ééééé-é-é-é-é"},                // four dashes, not a UUID: no byte slicing
		{"toolu_01AbCdEfGhIjKlMnOp", "toolu_01AbCdEfGh…"}, // long ids are cut by runes
	}
	for _, tt := range tests {
		if got := (&agent{id: tt.id}).label(); !strings.Contains(got, tt.want) || !utf8.ValidString(got) {
			t.Errorf("label(%q) = %q, want it to contain %q", tt.id, got, tt.want)
		}
	}
}

// TestValidUTF8: what the renderer writes is valid UTF-8 in every view,
// whatever raw bytes an event kept (an Unknown line, a verbatim input).
func TestValidUTF8(t *testing.T) {
	t.Parallel()
	evs := []event.Event{
		&event.Unknown{Agent: mainID, Format: "codex", Raw: []byte(`{"type":"weird","x":"` + "\xff" + `"}`)},
		&event.ToolCall{Agent: mainID, ID: "t", Name: "Bash", Input: []byte(`{"command":"echo ` + "\xfe\xe2\x82" + `"}`)},
		&event.ToolResult{Agent: mainID, ID: "t", Content: []event.Part{{Type: "text", Text: "ok"}}},
	}
	for _, v := range views {
		got := renderEvents(t, evs, v.o)
		if !utf8.ValidString(got) {
			t.Errorf("%s: invalid UTF-8 written: %q", v.ext, got)
		}
		if !strings.Contains(got, "\uFFFD") {
			t.Errorf("%s: no U+FFFD in %q", v.ext, got)
		}
	}
}

// TestMarkdownThinkingStaysInDetails: thinking that holds </details>, even
// split over two deltas, cannot close its collapsible early, and no raw
// carriage return is written (text, commands, tool output, errors), live
// or not.
func TestMarkdownThinkingStaysInDetails(t *testing.T) {
	t.Parallel()
	evs := []event.Event{
		&event.BlockStart{Agent: mainID, Kind: event.Thinking},
		&event.Delta{Agent: mainID, Kind: event.Thinking, Text: "a </details> b <"},
		&event.Delta{Agent: mainID, Kind: event.Thinking, Text: "/details>\r\nc\r"},
		&event.BlockEnd{Agent: mainID, Kind: event.Thinking},
		&event.BlockStart{Agent: mainID, Kind: event.Text},
		&event.Delta{Agent: mainID, Kind: event.Text, Text: "x\r\ny"},
		&event.BlockEnd{Agent: mainID, Kind: event.Text},
		&event.ToolCall{Agent: mainID, ID: "t", Name: "Bash", Input: []byte(`{"command":"echo a\rb"}`)},
		&event.ToolResult{Agent: mainID, ID: "t", Content: []event.Part{{Type: "text", Text: "x\ry\r\nz"}}},
		&event.Error{Agent: mainID, Message: "e\rf"},
	}
	for _, live := range []bool{false, true} {
		got := renderEvents(t, evs, Options{Markdown: true, Live: live})
		if n := strings.Count(strings.ToLower(got), "</details>"); n != 1 {
			t.Errorf("live=%v: %d </details> in:\n%s", live, n, got)
		}
		if strings.Contains(got, "\r") {
			t.Errorf("live=%v: raw CR in %q", live, got)
		}
		if !strings.Contains(got, "&lt;/details> b &lt;/details>") {
			t.Errorf("live=%v: thinking not kept as text: %q", live, got)
		}
	}
}

func TestSummaryTablePrices(t *testing.T) {
	t.Parallel()
	prices, err := usage.Default()
	if err != nil {
		t.Fatal(err)
	}
	start := &event.SessionStart{Agent: mainID, Model: "claude-sonnet-4-5"}
	turn := &event.TurnEnd{Agent: mainID, MessageID: "m1", Usage: &event.Usage{InputTokens: 1000, OutputTokens: 100, Has: event.HasInput | event.HasOutput}}
	tests := []struct {
		name string
		evs  []event.Event
		want string
	}{
		// 1000 in x $3/M + 100 out x $15/M = $0.003 + $0.0015
		{"priced from the table", []event.Event{start, turn, &event.RunEnd{Agent: mainID}}, "■ end: 1 turn · 1,000 in / 100 out tokens · $0.0045 at table prices\n"},
		{"the stream's own cost wins", []event.Event{start, turn, &event.RunEnd{Agent: mainID, CostUSD: ptr(0.25)}}, "■ end: 1 turn · 1,000 in / 100 out tokens · $0.2500\n"},
		{"unknown model: no cost", []event.Event{&event.SessionStart{Agent: mainID, Model: "mystery-1"}, turn, &event.RunEnd{Agent: mainID}}, "■ end: 1 turn · 1,000 in / 100 out tokens\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := renderEvents(t, tt.evs, Options{Prices: prices})
			if diff := cmp.Diff(tt.want, got[strings.Index(got, "■"):]); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
