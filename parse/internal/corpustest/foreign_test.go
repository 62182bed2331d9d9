package corpustest

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/agui"
	"github.com/agentstream/agentstream/parse/anthropic"
	"github.com/agentstream/agentstream/parse/claude"
	"github.com/agentstream/agentstream/parse/codex"
	"github.com/agentstream/agentstream/parse/jsonenv"
)

// TestForeignLines: a line of another format inside a stream is a
// positioned problem naming the format it looks like, not an unknown
// event; an unknown type of the format read is still kept as Unknown.
func TestForeignLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		f        format.Format
		in       string
		unknown  []string
		problems []string
	}{
		{
			f: jsonenv.Format(),
			in: "data: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"x\"}\n\n" +
				"data: {\"type\":\"thread.started\",\"thread_id\":\"t\"}\n\n" +
				"data: {\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n\n" +
				"data: {\"type\":\"checkpoint\",\"agent\":\"a\",\"final\":true,\"delta\":\"{}\"}\n\n" +
				"data: [DONE]\n\n",
			unknown: []string{"checkpoint"},
			problems: []string{
				"in:3:1: expected a JSON envelope: this line looks like codex; skipped",
				"in:5:1: expected a JSON envelope: this line looks like claude; skipped",
			},
		},
		{
			f: claude.Format(),
			in: `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","tools":[]}
{"type":"thread.started","thread_id":"t"}
{"type":"text","agent":"a","final":false,"delta":"x"}
{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}
{"type":"future_line","session_id":"s","uuid":"u"}
{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"","session_id":"s","duration_ms":1,"duration_api_ms":1,"total_cost_usd":0}
`,
			unknown: []string{"future_line"},
			problems: []string{
				"in:2:1: a thread.started line of another format (it looks like codex); skipped",
				"in:3:1: a text line of another format (it looks like jsonenv); skipped",
				"in:4:1: a content_block_delta line of another format (it looks like anthropic); skipped",
			},
		},
		{
			f: codex.Format(),
			in: `{"type":"thread.started","thread_id":"t"}
{"type":"system","subtype":"init","session_id":"s","model":"m"}
{"type":"text","agent":"a","final":false,"delta":"x"}
{"type":"thread.archived","thread_id":"t"}
`,
			unknown: []string{"thread.archived"},
			problems: []string{
				"in:2:1: system line of another format (it looks like claude); skipped",
				"in:3:1: text line of another format (it looks like jsonenv); skipped",
			},
		},
		{
			f: anthropic.Format(),
			in: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[]}}\n\n" +
				"data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"x\"}\n\n" +
				"data: {\"type\":\"assistant\",\"session_id\":\"s\",\"message\":{\"id\":\"m\",\"type\":\"message\"}}\n\n" +
				"event: message_annotation\ndata: {\"type\":\"message_annotation\"}\n\n" +
				"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			unknown: []string{"message_annotation"},
			problems: []string{
				"in:4:1: text event of another format (it looks like jsonenv); skipped",
				"in:6:1: assistant event of another format (it looks like claude); skipped",
			},
		},
		{
			f: agui.Format(),
			in: "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n" +
				"data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"x\"}\n\n" +
				"data: {\"type\":\"response.created\",\"response\":{}}\n\n" +
				"data: {\"type\":\"FUTURE_EVENT\"}\n\n" +
				"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n",
			unknown: []string{"FUTURE_EVENT"},
			problems: []string{
				"in:3:1: text event of another format (it looks like jsonenv); skipped",
				"in:5:1: response.created event of another format (it looks like codex); skipped",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.f.Name, func(t *testing.T) {
			t.Parallel()
			dec := tt.f.NewDecoder(strings.NewReader(tt.in), &format.Options{Source: "in"})
			var unknown, problems []string
			for ev, err := range events(dec) {
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
			if diff := cmp.Diff(tt.unknown, unknown); diff != "" {
				t.Errorf("unknown events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
