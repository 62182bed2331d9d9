package jsonenv_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/jsonenv"
)

// TestMaxOpen: beyond MaxOpen agents with a block (or a payload) open, the
// decoder lets go of the one open longest, reports it once, and keeps
// state for MaxOpen only: the truncation names those.
func TestMaxOpen(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	for _, a := range []string{"a", "b", "c", "d"} {
		fmt.Fprintf(&in, `{"type":"text","agent":%q,"final":false,"delta":"x"}`+"\n", a)
	}
	for _, a := range []string{"p", "q", "r"} {
		fmt.Fprintf(&in, `{"type":"tool_call","agent":%q,"final":false,"delta":"{","id":"t","name":"n"}`+"\n", a)
	}
	in.WriteString(`{"type":"text","agent":"d","final":true,"delta":""}` + "\n")
	dec := jsonenv.NewDecoder(strings.NewReader(in.String()), &jsonenv.Config{Source: "in", MaxOpen: 2})
	var got []string
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		switch ev := ev.(type) {
		case *event.BlockStart:
			got = append(got, "start "+ev.Agent)
		case *event.BlockEnd:
			got = append(got, "end "+ev.Agent)
		case *event.ToolCall:
			got = append(got, "call "+ev.Agent+" "+string(ev.Input))
		}
	}
	want := []string{
		"start a", "start b", "start c",
		`in:3:1: more than 2 blocks (or payloads) open at once; let go of the oldest, text block of agent "a", which stays open (truncated; later ones are not reported)`,
		"start d",
		`call p "{"`, // the payload open longest, given as it is
		"end d",
		`call q "{"`, `call r "{"`,
		`in:8:1: stream ended inside text block of agent "c", tool_call of agent "q", tool_call of agent "r"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
