package claude_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/claude"
)

// assembled decodes a Claude stream and returns its assembled blocks other
// than notices and turn ends, with the problems.
func assembled(t *testing.T, in string) ([]*assemble.Block, []string) {
	t.Helper()
	dec := claude.NewDecoder(strings.NewReader(in), &claude.Config{Source: "in"})
	a := assemble.New(0)
	var blocks []*assemble.Block
	var problems []string
	keep := func(bs []*assemble.Block) {
		for _, b := range bs {
			if b.Type != assemble.TypeNotice && b.Type != assemble.TypeTurnEnd {
				blocks = append(blocks, b)
			}
		}
	}
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
		bs, err := a.Add(ev)
		if err != nil {
			t.Fatal(err)
		}
		keep(bs)
	}
	keep(a.Flush())
	return blocks, problems
}

// TestPartialLikeWhole: the partial-messages recording of a run (an
// abandoned stream retried, an Edit snapshot with the default the CLI
// adds) assembles like the recording of the same run without stream
// events, with no problem.
func TestPartialLikeWhole(t *testing.T) {
	t.Parallel()
	const (
		ev    = `{"type":"stream_event","session_id":"s","parent_tool_use_id":null,"event":`
		edit  = `{"type":"tool_use","id":"toolu_1","name":"Edit","input":{"file_path":"/a","old_string":"x","new_string":"y","replace_all":false}}`
		text  = `{"type":"text","text":"Hello"}`
		start = `{"type":"message_start","message":{"id":"%s","type":"message","role":"assistant","model":"m","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}`
	)
	msg := func(id, block string) string {
		return `{"type":"assistant","session_id":"s","parent_tool_use_id":null,"message":{"id":"` + id + `","type":"message","role":"assistant","model":"m","content":[` + block + `],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}` + "\n"
	}
	init := `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/w","tools":["Edit"]}` + "\n"
	retry := `{"type":"system","subtype":"api_retry","attempt":1,"max_retries":2,"retry_delay_ms":500,"error_status":529,"error":"overloaded","session_id":"s"}` + "\n"
	result := `{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"Hello","stop_reason":"end_turn","session_id":"s","duration_ms":1,"duration_api_ms":1,"total_cost_usd":0,"usage":{"input_tokens":1,"output_tokens":1}}` + "\n"
	line := func(s string) string { return ev + s + "}\n" }
	partial := init +
		line(strings.Replace(start, "%s", "msg_a", 1)) +
		line(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		line(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}`) +
		retry +
		line(strings.Replace(start, "%s", "msg_b", 1)) +
		line(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		line(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}`) +
		msg("msg_b", text) +
		line(`{"type":"content_block_stop","index":0}`) +
		line(`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"Edit","input":{}}}`) +
		line(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}`) +
		line(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"file_path\": \"/a\", \"old_string\": \"x\", \"new_string\": \"y\"}"}}`) +
		msg("msg_b", edit) +
		line(`{"type":"content_block_stop","index":1}`) +
		line(`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}}`) +
		line(`{"type":"message_stop"}`) +
		result
	whole := init + retry + msg("msg_b", text) + msg("msg_b", edit) + result

	gotPartial, problems := assembled(t, partial)
	if len(problems) > 0 {
		t.Errorf("partial recording: problems %q", problems)
	}
	gotWhole, problems := assembled(t, whole)
	if len(problems) > 0 {
		t.Errorf("whole recording: problems %q", problems)
	}
	if diff := cmp.Diff(gotWhole, gotPartial); diff != "" {
		t.Errorf("blocks (-whole +partial):\n%s", diff)
	}
}

// TestAbortedSnapshot: the assistant line agentstream's claude writer
// makes of a block the input was cut off inside ("aborted": true) reads
// back as that block without its end, truncated as in the source.
func TestAbortedSnapshot(t *testing.T) {
	t.Parallel()
	in := `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/w","tools":[]}` + "\n" +
		`{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hel"}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s","uuid":"u","aborted":true}` + "\n"
	dec := claude.NewDecoder(strings.NewReader(in), &claude.Config{Source: "in"})
	var got []string
	truncated := false
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			truncated = truncated || errors.Is(err, event.ErrTruncated)
			continue
		}
		switch ev := ev.(type) {
		case *event.BlockStart, *event.BlockEnd:
			got = append(got, fmt.Sprintf("%T", ev))
		case *event.Delta:
			got = append(got, "Delta "+ev.Text)
		}
	}
	if diff := cmp.Diff([]string{"*event.BlockStart", "Delta Hel"}, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
	if !truncated {
		t.Error("the cut is not reported")
	}
}
