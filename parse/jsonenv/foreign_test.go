package jsonenv_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/jsonenv"
)

// TestForeignLines: a line of another format inside a stream is a
// positioned problem, not an unknown event; an unknown type of this
// format is still kept as Unknown.
func TestForeignLines(t *testing.T) {
	t.Parallel()
	in := "data: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"x\"}\n\n" +
		"data: {\"type\":\"thread.started\",\"thread_id\":\"t\"}\n\n" +
		"data: {\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n\n" +
		"data: {\"type\":\"rollback\",\"agent\":\"a\",\"final\":true,\"delta\":\"{}\"}\n\n"
	dec := jsonenv.NewDecoder(strings.NewReader(in), &jsonenv.Config{Source: "in"})
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
	if diff := cmp.Diff([]string{"rollback"}, unknown); diff != "" {
		t.Errorf("unknown events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{
		"in:3:1: expected a JSON envelope: this line looks like codex; skipped",
		"in:5:1: expected a JSON envelope: this line looks like claude; skipped",
	}, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
