package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// The tests in this file are one per class of mismatch between our
// stream-json and what the Claude Agent SDK rebuilds from the real CLI's
// (issue 19, make test-clients).

// lineKinds returns type/subtype (and the delta type of stream events)
// of every line, with its parent_tool_use_id.
func lineKinds(t *testing.T, data []byte) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m struct {
			Type    string  `json:"type"`
			Subtype string  `json:"subtype"`
			Parent  *string `json:"parent_tool_use_id"`
			Event   struct {
				Type  string `json:"type"`
				Delta struct {
					Type string `json:"type"`
				} `json:"delta"`
			} `json:"event"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		k := m.Type + "/" + m.Subtype
		if m.Type == "stream_event" {
			k = "stream_event/" + m.Event.Type + "/" + m.Event.Delta.Type
		}
		if m.Parent != nil {
			k += " parent=" + *m.Parent
		}
		out = append(out, k)
	}
	return out
}

func TestIsErrorAsClaudeCodeWrites(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, &Config{}, []event.Event{
		&event.SessionStart{Agent: "s", SessionID: "s"},
		&event.ToolCall{Agent: "s", ID: "b", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.ToolCall{Agent: "s", ID: "r", Name: "Read", Input: json.RawMessage(`{"file_path":"/a"}`)},
		&event.ToolCall{Agent: "s", ID: "x", Name: "Read", Input: json.RawMessage(`{"file_path":"/b"}`)},
		&event.ToolResult{Agent: "s", ID: "b", Content: []event.Part{{Type: "text", Text: "a"}}},
		&event.ToolResult{Agent: "s", ID: "r", Content: []event.Part{{Type: "text", Text: "1\ta"}}},
		&event.ToolResult{Agent: "s", ID: "x", Content: []event.Part{{Type: "text", Text: "missing"}}, IsError: true},
	})
	var got []string
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.Contains(l, `"tool_result"`) {
			continue
		}
		_, after, _ := strings.Cut(l, `"tool_use_id":"`)
		id, _, _ := strings.Cut(after, `"`)
		v := "absent"
		switch {
		case strings.Contains(l, `"is_error":false`):
			v = "false"
		case strings.Contains(l, `"is_error":true`):
			v = "true"
		}
		got = append(got, id+" "+v)
	}
	if diff := cmp.Diff([]string{"b false", "r absent", "x true"}, got); diff != "" {
		t.Errorf("is_error (-want +got):\n%s\n%s", diff, out)
	}
}

// TestRecordingsKeepEveryLine: claude -> claude writes a line of the
// same kind for every line of a real recording, in order. Known
// exceptions, from the event model: tool input streamed as several
// input_json_delta fragments is written as one (a ToolCall is whole), and
// a tool result that arrived while the next tool_use block streamed is
// written before that block's start.
func TestRecordingsKeepEveryLine(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasPrefix(base, "hand-") || base == "partial-multi-tool.jsonl" || base == "partial-subagent.jsonl" {
			continue
		}
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := encode(t, &Config{Partial: strings.HasPrefix(base, "partial-")}, decode(t, f))
			drop := func(ks []string) []string {
				var out []string
				for _, k := range ks {
					if !strings.Contains(k, "input_json_delta") {
						out = append(out, k)
					}
				}
				return out
			}
			if diff := cmp.Diff(drop(lineKinds(t, in)), drop(lineKinds(t, out))); diff != "" {
				t.Errorf("line kinds (-recording +ours):\n%s", diff)
			}
		})
	}
}

func TestSubagentPartialStreamNotForwarded(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, &Config{Partial: true}, decode(t, filepath.Join(corpus, "partial-subagent.jsonl")))
	for _, k := range lineKinds(t, out) {
		if strings.HasPrefix(k, "stream_event/") && strings.Contains(k, "parent=") {
			t.Errorf("a subagent's stream_event line: %s", k)
		}
	}
}

func TestSubagentLinesBeforeParentResult(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, &Config{}, []event.Event{
		&event.SessionStart{Agent: "P", SessionID: "P"},
		&event.ToolCall{Agent: "P", ID: "toolu_a", Name: "Agent", Input: json.RawMessage(`{"prompt":"go"}`)},
		&event.SessionStart{Agent: "C", ParentAgent: "P", ParentToolID: "toolu_a"},
		&event.Delta{Agent: "C", Kind: event.Text, Text: "child's last words"},
		&event.BlockEnd{Agent: "C", Kind: event.Text},
		&event.ToolResult{Agent: "P", ID: "toolu_a", Content: []event.Part{{Type: "text", Text: "done"}}},
		&event.Delta{Agent: "P", Kind: event.Text, Text: "parent's answer"},
		&event.BlockEnd{Agent: "P", Kind: event.Text},
	})
	child := strings.Index(string(out), "child's last words")
	result := strings.Index(string(out), `"tool_use_id":"toolu_a"`)
	if child < 0 || result < 0 || child > result {
		t.Errorf("the subagent's text is not before the parent's result:\n%s", out)
	}
}

func TestLinesBeforeInitKept(t *testing.T) {
	t.Parallel()
	in := []byte(`{"type":"system","subtype":"hook_started","hook_id":"h","hook_name":"SessionStart:startup","hook_event":"SessionStart","uuid":"u0","session_id":"s1"}
{"type":"system","subtype":"hook_response","hook_id":"h","hook_name":"SessionStart:startup","hook_event":"SessionStart","output":"","stdout":"","stderr":"","exit_code":0,"outcome":"success","uuid":"u1","session_id":"s1"}
{"type":"system","subtype":"init","cwd":"/home/dev/w","session_id":"s1","tools":["Bash"],"mcp_servers":[],"model":"claude-opus-4-8","permissionMode":"default","slash_commands":[],"apiKeySource":"none","claude_code_version":"2.1.197","output_style":"default","agents":[],"skills":[],"plugins":[],"uuid":"u2"}
{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-8","content":[{"type":"text","text":"hi"}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1","uuid":"u3"}
{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"duration_api_ms":1,"num_turns":1,"result":"hi","stop_reason":"end_turn","session_id":"s1","total_cost_usd":0,"usage":{"input_tokens":1,"output_tokens":1},"modelUsage":{},"permission_denials":[],"uuid":"u4"}
`)
	out, _ := encode(t, &Config{}, decodeBytes(t, "in.jsonl", in))
	if diff := cmp.Diff(lineKinds(t, in), lineKinds(t, out)); diff != "" {
		t.Errorf("line kinds (-input +ours):\n%s\n%s", diff, out)
	}
	if !strings.Contains(string(out), `"claude_code_version":"2.1.197"`) {
		t.Errorf("the real init was not written:\n%s", out)
	}
}

func TestConcatenatedRunsStayRuns(t *testing.T) {
	t.Parallel()
	run := func(id string) []event.Event {
		return []event.Event{
			&event.SessionStart{Agent: id, SessionID: id, Model: "m"},
			&event.Delta{Agent: id, Kind: event.Text, Text: "answer " + id},
			&event.BlockEnd{Agent: id, Kind: event.Text},
			&event.RunEnd{Agent: id, StopReason: "end_turn"},
		}
	}
	out, _ := encode(t, &Config{}, append(run("a"), run("b")...))
	want := []string{"system/init", "assistant/", "result/success", "system/init", "assistant/", "result/success"}
	if diff := cmp.Diff(want, lineKinds(t, out)); diff != "" {
		t.Errorf("line kinds (-want +got):\n%s\n%s", diff, out)
	}
}

func TestNothingInvented(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, &Config{}, []event.Event{
		&event.SessionStart{Agent: "a"},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "x"},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
	})
	for _, bad := range []string{`"model":"unknown"`, `"cwd":"/"`, `"stop_reason":"end_turn"`} {
		if strings.Contains(string(out), bad) {
			t.Errorf("invented %s:\n%s", bad, out)
		}
	}
	// What the source says survives: max_tokens is not turned into end_turn.
	out, _ = encode(t, &Config{}, []event.Event{
		&event.SessionStart{Agent: "a"},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "x"},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
		&event.RunEnd{Agent: "a", StopReason: "max_tokens"},
	})
	if !strings.Contains(string(out), `"stop_reason":"max_tokens"`) || strings.Contains(string(out), "end_turn") {
		t.Errorf("max_tokens did not survive:\n%s", out)
	}
}
