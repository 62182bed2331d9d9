package claude_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/claude"
)

// TestForeignLines: a line of another format inside a stream is a
// positioned problem, not an unknown event; an unknown type of this
// format is still kept as Unknown.
func TestForeignLines(t *testing.T) {
	t.Parallel()
	in := `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","tools":[]}
{"type":"thread.started","thread_id":"t"}
{"type":"text","agent":"a","final":false,"delta":"x"}
{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}
{"type":"future_line","session_id":"s","uuid":"u"}
{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"","session_id":"s","duration_ms":1,"duration_api_ms":1,"total_cost_usd":0}
`
	dec := claude.NewDecoder(strings.NewReader(in), &claude.Config{Source: "in"})
	var unknown []string
	var problems []string
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				t.Fatal(err)
			}
			problems = append(problems, err.Error())
			continue
		}
		if u, ok := ev.(*event.Unknown); ok {
			unknown = append(unknown, u.Type)
		}
	}
	if diff := cmp.Diff([]string{"future_line"}, unknown); diff != "" {
		t.Errorf("unknown events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{
		"in:2:1: a thread.started line of another format (it looks like codex); skipped",
		"in:3:1: a text line of another format (it looks like jsonenv); skipped",
		"in:4:1: a content_block_delta line of another format (it looks like anthropic); skipped",
	}, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
