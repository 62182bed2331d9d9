package codex

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOpenItemFixedPoint: an item started and never completed, in a turn
// or cut off by the end of the input, comes out of decode -> encode, and
// that output is a fixed point of a second pass.
func TestOpenItemFixedPoint(t *testing.T) {
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
