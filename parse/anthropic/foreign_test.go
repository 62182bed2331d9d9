package anthropic_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/anthropic"
)

// TestForeignLines: a line of another format inside a stream is a
// positioned problem, not an unknown event; an unknown type of this
// format is still kept as Unknown.
func TestForeignLines(t *testing.T) {
	t.Parallel()
	in := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[]}}\n\n" +
		"data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"x\"}\n\n" +
		"data: {\"type\":\"assistant\",\"session_id\":\"s\",\"message\":{\"id\":\"m\",\"type\":\"message\"}}\n\n" +
		"event: message_annotation\ndata: {\"type\":\"message_annotation\"}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	dec := anthropic.NewDecoder(strings.NewReader(in), &anthropic.Config{Source: "in"})
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
	if diff := cmp.Diff([]string{"message_annotation"}, unknown); diff != "" {
		t.Errorf("unknown events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{
		"in:4:1: text event of another format (it looks like jsonenv); skipped",
		"in:6:1: assistant event of another format (it looks like claude); skipped",
	}, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
