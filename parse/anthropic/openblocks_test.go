package anthropic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTruncatedManyBlocks: a body cut off with many blocks open says so
// once, with a count, not once per block.
func TestTruncatedManyBlocks(t *testing.T) {
	t.Parallel()
	body := frameSSE("message_start", start)
	for i := range 12 {
		body += frameSSE("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i))
	}
	for i := 12; i < 24; i++ {
		body += frameSSE("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"t%d","name":"Bash","input":{}}}`, i, i))
	}
	items := decodeAll(strings.NewReader(body), &Config{Source: "in"})
	got := items[len(items)-1].Err
	want := `in:73:1: stream ended without message_stop, inside message msg_1 (inside 12 text blocks; ` +
		`in the input of 12 tool calls, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21 and 2 more)`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
