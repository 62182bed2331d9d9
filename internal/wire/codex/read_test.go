package codex

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// compare checks that the generated reader of T decodes data as
// json.Unmarshal does (Parts through its hand-written UnmarshalJSON,
// which readParts must agree with), and reports whether it read data in
// one pass.
func compare[T any](t *testing.T, data []byte, read func(*jsontext.Reader, *T) bool) bool {
	t.Helper()
	var r jsontext.Reader
	var got T
	r.Reset(data)
	if !read(&r, &got) || !r.End() {
		return false
	}
	var want T
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: the reader decodes what json.Unmarshal refuses: %v", data, err)
	}
	if l, ok := any(&got).(*RolloutLine); ok {
		var text struct {
			Payload json.RawMessage `json:"payload"`
		}
		json.Unmarshal(data, &text)
		if string(l.PayloadText()) != string(text.Payload) {
			t.Errorf("%s: payload text %s, want %s", data, l.PayloadText(), text.Payload)
		}
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(RolloutLine{}, Line{}, Item{}, Usage{})); diff != "" {
		t.Errorf("%s: (-json.Unmarshal +reader):\n%s", data, diff)
	}
	return true
}

// compareAll compares the readers of a whole line on data, and of an
// exec line's item, and returns how many read it in one pass.
func compareAll(t *testing.T, data []byte) int {
	n := 0
	for _, ok := range []bool{compare(t, data, ReadLine), compare(t, data, ReadRolloutLine), compare(t, data, ReadItem)} {
		if ok {
			n++
		}
	}
	var l Line
	if json.Unmarshal(data, &l) == nil && len(l.Item.Raw) > 0 && compare(t, l.Item.Raw, ReadItem) {
		n++
	}
	return n
}

// execSeeds are the lines of codex exec --json recordings and odd ones.
func execSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../../testdata/codex/*.jsonl")
	return wiretest.JSONLines(t, files,
		`{"type":"item.completed","item":{"id":"a","type":"command_execution","command":"ls","exit_code":1,"exit_code":null,"status":"completed"}}`,
		`{"type":"item.completed","item":{"id":"a","type":"agent_message","text":"x\u00e9\ud800","id":"b"}}`,
		`{"type":"item.completed","item":{"id":"a","type":"command_execution","exit_code":1.5}}`,
		`{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":null,"other":[1]}}`,
		`{"type":"error","message":"boom","message":null}`,
		`{"type":"item.started","item":"x"}`,
		`{"type":"turn.failed","error":{"message":"a","x":1},"error":null}`,
		`{"type":"turn.failed","error":null,"error":{"message":"b"}}`,
		`{"type":"item.completed","item":{"id":"m","type":"mcp_tool_call","result":{"content":[null,{"type":"text"}],"structured_content":null},"error":{"message":"e"},"arguments":[1]}}`,
		`{"type":"item.completed","item":{"id":"m","result":{"content":[]},"result":null,"error":null,"error":{}}}`,
		`{"type":"item.updated","item":{"id":"t","type":"todo_list","items":[{"text":"a","completed":true,"completed":null},{}],"items":[]}}`,
		`{"type":"item.completed","item":{"id":"f","type":"file_change","changes":[{"path":"p","kind":"add","x":2}],"changes":null}}`,
		`{"type":"item.completed","item":{"id":"c","type":"collab_tool_call","receiver_thread_ids":["a",null],"prompt":null,"agents_states":{"a":{}}}}`,
		`{"type":"item.completed","item":{"id":"c","receiver_thread_ids":[],"prompt":"p","prompt":null,"query":"q","action":{"type":"search"}}}`,
		`{"type":"item.completed","item":{"id":null,"id":"w","type":"web_search"}}`,
		// The producer's order (the readers ask for it first), then
		// members again.
		`{"type":"item.completed","item":{"id":"a","type":"command_execution","command":"ls","aggregated_output":"x","exit_code":0,"status":"completed","exit_code":null,"id":"b"}}`,
		`{"type":"item.completed","item":{"id":"a","type":"command_execution","command":["ls"],"aggregated_output":null,"exit_code":2.0,"status":"failed"}}`,
		`{"type":"item.completed","item":{"id":"a","type":"reasoning","text":"t","text":null,"type":"agent_message"},"item":null}`,
		`{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":2,"cache_write_input_tokens":3,"output_tokens":4,"reasoning_output_tokens":5,"input_tokens":null}}`,
		`{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":2,"output_tokens":4},"usage":{"output_tokens":7}}`,
		`{"type":"thread.started","thread_id":"t","thread_id":null,"type":"turn.started"}`,
		`{"type":"error","message":"a\"b","type":"x"}`,
		`{"type":"turn.failed","error":{"message":"m"},"error":{"message":"n"}}`,
		`{"type":"turn.started","x":1}`,
		`{"type":"error"}`,
		`{"type":"item.completed"}`,
		`{"type":"item.started","item":{"id":"a","type":"reasoning"}}`,
		`{"type":"item.completed","item":{"id":"a","type":"command_execution","command":"x","aggregated_output":"","exit_code":null,"status":"in_progress","status":"declined"}}`,
		`{"type":"item.completed","item":{"id":"a","type":"command_execution","command":"x","aggregated_output":"","exit_code":null,"status":"weird"}}`,
		`{"type":"item.completed" ,"item":{"id":"a","type":"agent_message" }}`,
	)
}

// rolloutSeeds are the lines of rollout recordings and odd ones:
// duplicate members, nulls, values of other types.
func rolloutSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../../testdata/codex-session/*.jsonl")
	return wiretest.JSONLines(t, files,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a"}],"content":null}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":"x","content":[{"type":"input_text","text":"a"}]}}`,
		`{"type":"response_item","payload":{"type":"message","content":7,"summary":[],"summary":null}}`,
		`{"type":"response_item","payload":{"type":"message","content":[null,{"text":"b","x":1}]}}`,
		`{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"c","command":["ls","-l"],"exit_code":1,"exit_code":null,"status":"completed"}}}`,
		`{"type":"event_msg","payload":{"type":"item_completed","item":{"command":[],"exit_code":1.5}}}`,
		`{"type":"event_msg","payload":{"type":"item_completed","item":{"command":["a"],"command":["b"]}}}`,
		`{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":5,"output_tokens":null},"last_token_usage":null}}}`,
		`{"type":"event_msg","payload":{"type":"task_complete","error":{"message":"m","codex_error_info":"bad_request"},"error":null}}`,
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":null,"action":{"a":[1]},"encrypted_content":null}}`,
		`{"type":"session_meta","payload":{"id":"s","source":{"subagent":{"thread_spawn":{"parent_thread_id":"p","depth":1}}}},"payload":{"cwd":"/"}}`,
		`{"type":"session_meta","payload":null}`,
		`{"type":"token_usage_record","payload":{"usage":{"input_tokens":1},"usage":{"output_tokens":2}}}`,
		`{"type":"response_item","payload":{"type":"message","Role":"user"}}`,
	)
}

func seeds(t testing.TB) [][]byte { return append(execSeeds(t), rolloutSeeds(t)...) }

// TestGeneratedReaders: the recordings' lines and odd ones decode as
// json.Unmarshal decodes them, most in one pass.
func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	for name, lines := range map[string][][]byte{"exec": execSeeds(t), "rollout": rolloutSeeds(t)} {
		fast := 0
		for _, l := range lines {
			if compareAll(t, l) > 0 {
				fast++
			}
		}
		if fast < len(lines)*3/4 {
			t.Errorf("%s: %d of %d lines read in one pass", name, fast, len(lines))
		}
	}
}

// TestReadsEveryField: each field of the line structs, set alone, is
// read.
func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadLine)
	wiretest.ReadsEveryField(t, ReadItem)
	wiretest.ReadsEveryField(t, ReadRolloutLine)
	wiretest.ReadsEveryField(t, ReadAgentState)
	wiretest.ReadsEveryField(t, ReadFunctionOutput)
}

func FuzzGeneratedReaders(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareAll(t, data) })
}
