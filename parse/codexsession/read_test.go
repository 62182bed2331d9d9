package codexsession

import (
	"encoding/json"
	"testing"

	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// lineSeeds are the corpus's lines and odd ones: duplicate members,
// nulls, values of other types.
func lineSeeds(t testing.TB) [][]byte {
	return wiretest.JSONLines(t, corpusFiles(t),
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

// compareLine checks that what the one-pass reader decodes is what
// json.Unmarshal gives, and reports whether it decoded data.
func compareLine(t *testing.T, data []byte) bool {
	t.Helper()
	return wiretest.OnePass(t, data, readLine, func(got, _ *line) {
		var meta struct {
			Payload json.RawMessage `json:"payload"`
		}
		json.Unmarshal(data, &meta)
		if string(got.payloadRaw) != string(meta.Payload) {
			t.Errorf("%s: payload text %s, want %s", data, got.payloadRaw, meta.Payload)
		}
		got.payloadRaw = nil
	})
}

func TestReadLineSeeds(t *testing.T) {
	t.Parallel()
	wiretest.OnePassSeeds(t, lineSeeds(t), 100, compareLine)
}

func FuzzReadLine(f *testing.F) { wiretest.FuzzOnePass(f, lineSeeds(f), compareLine) }

// TestReadLineKnowsEveryField: a field added to the wire structs must be
// read by read.go too, which would otherwise skip it.
func TestReadLineKnowsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, readLine)
}
