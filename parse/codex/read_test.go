package codex

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// lineSeeds are the corpus's lines and odd ones.
func lineSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../testdata/codex/*.jsonl")
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
		// The producer's order (readLineFields and readItem ask for it
		// first), then members again.
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

// compareLine checks that what the one-pass reader decodes is what
// json.Unmarshal gives (the item included), and reports whether it
// decoded data.
func compareLine(t *testing.T, data []byte) bool {
	t.Helper()
	var d Decoder
	return wiretest.OnePass(t, data, d.readLineFields, func(got, want *wireLine) {
		if got.itemOK {
			var wi wireItem
			if err := json.Unmarshal(want.Item, &wi); err != nil {
				t.Fatalf("%s: item decoded in one pass, json.Unmarshal says %v", data, err)
			}
			if diff := cmp.Diff(wi, d.lit); diff != "" {
				t.Errorf("%s: item differs (-json +one pass):\n%s", data, diff)
			}
			if first := firstID(want.Item, "?"); got.itemIDs > 0 && first != got.itemFirstID {
				t.Errorf("%s: first id %q, want %q", data, got.itemFirstID, first)
			}
		}
		got.itemOK, got.itemIDs, got.itemFirstID = false, 0, ""
	})
}

// TestObject: object's one pass writes what objectSlow does.
func TestObject(t *testing.T) {
	t.Parallel()
	var r jsontext.Reader
	drop := []string{"id", "type", "item_type", "status", "tool", "agents_states"}
	for _, s := range append(lineSeeds(t),
		[]byte(`{"item":{"id":"a","id":"b","x<y":1,"type":"t","q":{"id":2}}}`),
		[]byte(`{"item":{"a\u0041":1,"id":"x"}}`),
		[]byte(`{"item":{ "a" : [1, 2] , "id" : "x" }}`),
	) {
		var l struct{ Item json.RawMessage }
		if json.Unmarshal(s, &l) != nil || len(l.Item) == 0 || l.Item[0] != '{' {
			continue
		}
		for n := range drop {
			if diff := cmp.Diff(string(objectSlow(l.Item, drop[:n]...)), string(object(&r, l.Item, drop[:n]...))); diff != "" {
				t.Errorf("%s without %v (-slow +one pass):\n%s", l.Item, drop[:n], diff)
			}
		}
	}
}

// TestMCPPart: mcpPart's one pass gives what mcpPartSlow does.
func TestMCPPart(t *testing.T) {
	t.Parallel()
	var r jsontext.Reader
	for _, b := range []string{
		`{"type":"text","text":"a"}`, `{"type":"text","text":"a","x":1}`, `{"type":"text"}`,
		`{"type":"text","text":null}`, `{"text":"a","type":"text","type":7}`, `{"type":"image","data":"AA==","mimeType":"image/png"}`,
		`{"type":"image","data":"AA==","mimeType":"image/png","text":"x"}`, `{"type":"image","data":"AA=="}`,
		`{"type":"resource","resource":{"uri":"u"}}`, `{"type":"Text","Text":"a"}`, `{"type":"text","te\u0078t":"a"}`,
		`{ "type" : "text" , "text" : "a" }`, `[1]`, `"s"`, `{}`, `{"type":"text","text":"a","type":"image"}`,
	} {
		if diff := cmp.Diff(mcpPartSlow([]byte(b)), mcpPart(&r, []byte(b))); diff != "" {
			t.Errorf("%s (-slow +one pass):\n%s", b, diff)
		}
	}
}

func TestReadLineSeeds(t *testing.T) {
	t.Parallel()
	wiretest.OnePassSeeds(t, lineSeeds(t), 20, compareLine)
}

func FuzzReadLine(f *testing.F) { wiretest.FuzzOnePass(f, lineSeeds(f), compareLine) }

// TestReadLineKnowsEveryField: a field added to the wire structs must be
// read by read.go too, which would otherwise skip it.
func TestReadLineKnowsEveryField(t *testing.T) {
	t.Parallel()
	var d Decoder
	wiretest.ReadsEveryField(t, d.readLineFields)
	wiretest.ReadsEveryField(t, func(r *jsontext.Reader, it *wireItem) bool {
		var l wireLine
		d = Decoder{}
		d.readItem(r, &l)
		*it = d.lit
		return !r.Failed()
	})
}

// agentStates are agents_states values, odd ones included.
var agentStates = []string{
	`{}`, `{"a":{"status":"running","message":null}}`, `{"a":{"status":"completed","message":"done"}}`,
	`{"b":{"message":"2"},"a":{"message":"1"},"c":{"message":"3"}}`, `{"a":{"message":"x"},"a":{"status":"running"}}`,
	`{"a":{"message":"x","message":null}}`, `{"a":{"message":"x","Message":"y"}}`, `{"a":null,"b":{"message":""}}`,
	`{"a":{"status":1,"message":"x"}}`, `{"a":{"status":null,"message":"x\n\u00e9"}}`, `{"a":"x"}`, `{"a":{"message":1}}`,
	`{"\u0061":{"message":"x"}}`, `{"A":{"message":"x"}}`, `{"a":{"message":"x","other":[1,{"m":2}]}}`, `[]`, `null`,
	`{"a":{"message":"x"}`, ` { "a" : { "message" : "x" } } `,
}

// TestAgentMessages: agentMessages's one pass gives what
// agentMessagesSlow does, whatever the receivers.
func TestAgentMessages(t *testing.T) {
	t.Parallel()
	var d Decoder
	for _, states := range agentStates {
		for _, recv := range [][]string{nil, {"a"}, {"c", "a"}, {"a", "a"}, {"z"}} {
			it := &wireItem{AgentsStates: json.RawMessage(states), ReceiverThreadIDs: recv}
			if diff := cmp.Diff(agentMessagesSlow(it), d.agentMessages(it)); diff != "" {
				t.Errorf("%s, receivers %q (-slow +one pass):\n%s", states, recv, diff)
			}
		}
	}
}

func FuzzAgentMessages(f *testing.F) {
	for _, s := range agentStates {
		f.Add([]byte(s), "a")
	}
	f.Fuzz(func(t *testing.T, states []byte, recv string) {
		if !utf8.Valid(states) {
			return // the decoder's input went through badutf8.Fix
		}
		var d Decoder
		it := &wireItem{AgentsStates: states, ReceiverThreadIDs: strings.Split(recv, ",")}
		if diff := cmp.Diff(agentMessagesSlow(it), d.agentMessages(it)); diff != "" {
			t.Errorf("%s, receivers %q (-slow +one pass):\n%s", states, recv, diff)
		}
	})
}
