package codex

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFixedPoint: what FuzzRoundTrip found. An item started and never
// completed, in a turn or cut off by the end of the input, comes out of
// decode -> encode, and that output is a fixed point of a second pass.
func TestFixedPoint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     string // a line the output holds
	}{{
		// Found by FuzzRoundTrip (testdata/fuzz/FuzzRoundTrip/b6bf153b6e6a2e6b).
		name: "web search cut off, keys in another case",
		in:   `{"tYpe":"item.started","item":{"tYpe":"web_search"}}`,
		want: `{"type":"item.started","item":{"id":"item_0","type":"web_search","query":""}}`,
	}, {
		name: "web search left open by its turn",
		in: `{"type":"thread.started","thread_id":"t"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_0","type":"web_search","query":"go fuzz"}}
{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":2}}
`,
		want: `{"type":"item.started","item":{"id":"item_0","type":"web_search","query":"go fuzz"}}`,
	}, {
		name: "message left open by its turn",
		in: `{"type":"thread.started","thread_id":"t"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_0","type":"agent_message","text":"half"}}
{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":2}}
`,
		want: `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"half"}}`,
	}, {
		// Found by FuzzRoundTrip (testdata/fuzz/FuzzRoundTrip/b01e2da708a53b09):
		// its receiver became a second main thread that took the call's result.
		name: "collab call of a thread with no id",
		in:   `{"tYpe":"item.completed","item":{"tYpe":"collab_tool_call","reCeiver_threAd_ids":["0"]}}`,
		want: `{"type":"item.completed","item":{"id":"item_0","type":"mcp_tool_call","server":"","tool":"","arguments":{"tYpe":"collab_tool_call","reCeiver_threAd_ids":["0"]},"result":{"content":[],"structured_content":null},"status":"completed"}}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			once := pass(t, []byte(tt.in))
			if !strings.Contains(string(once), tt.want+"\n") {
				t.Errorf("output lacks %s:\n%s", tt.want, once)
			}
			twice := pass(t, once)
			if diff := cmp.Diff(string(once), string(twice)); diff != "" {
				t.Errorf("a second pass changed the output (-first +second):\n%s", diff)
			}
		})
	}
}
