package codex_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/codex"
)

// TestForeignLines: a line of another format inside a stream is a
// positioned problem, not an unknown event; an unknown type of this
// format is still kept as Unknown.
func TestForeignLines(t *testing.T) {
	t.Parallel()
	in := `{"type":"thread.started","thread_id":"t"}
{"type":"system","subtype":"init","session_id":"s","model":"m"}
{"type":"text","agent":"a","final":false,"delta":"x"}
{"type":"thread.archived","thread_id":"t"}
`
	dec := codex.NewDecoder(strings.NewReader(in), &codex.Config{Source: "in"})
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
	if diff := cmp.Diff([]string{"thread.archived"}, unknown); diff != "" {
		t.Errorf("unknown events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{
		"in:2:1: system line of another format (it looks like claude); skipped",
		"in:3:1: text line of another format (it looks like jsonenv); skipped",
	}, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
