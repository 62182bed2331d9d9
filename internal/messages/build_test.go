package messages

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// step is one call on a Builder.
type step func(b *Builder) error

func start(id string) step {
	return func(b *Builder) error { return b.MessageStart("a", &anthropic.Message{ID: id, Model: "m"}) }
}

func cbStart(i int, cb string) step {
	return func(b *Builder) error { return b.BlockStart("a", i, json.RawMessage(cb)) }
}

func delta(i int, d string) step {
	return func(b *Builder) error {
		ev := `{"type":"content_block_delta","index":0,"delta":` + d + `}`
		return b.BlockDelta("a", i, json.RawMessage(d), []byte(ev))
	}
}

func stop(i int) step { return func(b *Builder) error { return b.BlockStop("a", i) } }

func messageStop() step { return func(b *Builder) error { return b.MessageStop("a") } }

func snapshot(id string, blocks ...string) step {
	return func(b *Builder) error {
		m := &anthropic.Message{ID: id, Model: "m"}
		for _, c := range blocks {
			m.Content = append(m.Content, json.RawMessage(c))
		}
		return b.Snapshot("a", m)
	}
}

func TestBuilder(t *testing.T) {
	t.Parallel()
	turn := &event.TurnStart{Agent: "a", MessageID: "m1", Model: "m"}
	end := &event.TurnEnd{Agent: "a", MessageID: "m1"}
	text := []event.Event{
		&event.BlockStart{Agent: "a", Kind: event.Text},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "hi"},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
	}
	tests := []struct {
		name     string
		steps    []step
		want     []event.Event
		problems []string
	}{
		{
			"snapshots only",
			[]step{snapshot("m1", `{"type":"text","text":"hi"}`), snapshot("m1", `{"type":"tool_use","id":"t","name":"n","input":{"a":1}}`)},
			append(append([]event.Event{turn}, text...), &event.ToolCall{Agent: "a", ID: "t", Name: "n", Input: json.RawMessage(`{"a":1}`)}),
			nil,
		},
		{
			"snapshot first, then the stream of the same block",
			[]step{
				snapshot("m1", `{"type":"text","text":"hi"}`), start("m1"), cbStart(0, `{"type":"text","text":""}`),
				delta(0, `{"type":"text_delta","text":"hi"}`), stop(0), messageStop(),
			},
			append(append([]event.Event{turn}, text...), end),
			nil,
		},
		{
			"repeated snapshot of a streamed tool call",
			[]step{
				start("m1"), cbStart(0, `{"type":"tool_use","id":"t","name":"n","input":{}}`),
				delta(0, `{"type":"input_json_delta","partial_json":"{\"a\": 1}"}`),
				snapshot("m1", `{"type":"tool_use","id":"t","name":"n","input":{"a":1}}`), stop(0),
				snapshot("m1", `{"type":"tool_use","id":"t","name":"n","input":{"a":1}}`), messageStop(),
			},
			[]event.Event{turn, &event.ToolCall{Agent: "a", ID: "t", Name: "n", Input: json.RawMessage(`{"a": 1}`)}, end},
			nil,
		},
		{
			"snapshot input differs: the snapshot's is kept",
			[]step{
				start("m1"), cbStart(0, `{"type":"tool_use","id":"t","name":"n","input":{}}`),
				delta(0, `{"type":"input_json_delta","partial_json":"{\"a\": 2}"}`),
				snapshot("m1", `{"type":"tool_use","id":"t","name":"n","input":{"a":1}}`),
			},
			[]event.Event{turn, &event.ToolCall{Agent: "a", ID: "t", Name: "n", Input: json.RawMessage(`{"a":1}`)}},
			[]string{"assistant snapshot of tool call t (block 0 of message m1) differs from its stream events; kept the snapshot"},
		},
		{
			"late snapshot of a finished text block, the same",
			[]step{
				start("m1"), cbStart(0, `{"type":"text","text":""}`), delta(0, `{"type":"text_delta","text":"h"}`),
				delta(0, `{"type":"text_delta","text":"i"}`), stop(0), snapshot("m1", `{"type":"text","text":"hi"}`), messageStop(),
			},
			[]event.Event{
				turn, &event.BlockStart{Agent: "a", Kind: event.Text}, &event.Delta{Agent: "a", Kind: event.Text, Text: "h"},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "i"}, &event.BlockEnd{Agent: "a", Kind: event.Text}, end,
			},
			nil,
		},
		{
			"late snapshot of a finished text block, different",
			[]step{
				start("m1"), cbStart(0, `{"type":"text","text":""}`), delta(0, `{"type":"text_delta","text":"hi"}`), stop(0),
				snapshot("m1", `{"type":"text","text":"hit"}`),
			},
			append([]event.Event{turn}, text...),
			[]string{"assistant snapshot of text block 0 of message m1 differs from its stream events; kept the stream events"},
		},
		{
			"snapshot completes an open block",
			[]step{
				start("m1"), cbStart(0, `{"type":"text","text":""}`), delta(0, `{"type":"text_delta","text":"h"}`),
				snapshot("m1", `{"type":"text","text":"hi"}`), stop(0), messageStop(),
			},
			[]event.Event{
				turn, &event.BlockStart{Agent: "a", Kind: event.Text}, &event.Delta{Agent: "a", Kind: event.Text, Text: "h"},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "i"}, &event.BlockEnd{Agent: "a", Kind: event.Text}, end,
			},
			nil,
		},
		{
			"snapshot of an open block that does not extend it",
			[]step{
				start("m1"), cbStart(0, `{"type":"text","text":""}`), delta(0, `{"type":"text_delta","text":"hx"}`),
				snapshot("m1", `{"type":"text","text":"hi there"}`),
			},
			[]event.Event{
				turn, &event.BlockStart{Agent: "a", Kind: event.Text}, &event.Delta{Agent: "a", Kind: event.Text, Text: "hx"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
			[]string{"assistant snapshot of text block 0 of message m1 differs from its stream events; kept the stream events"},
		},
		{
			"late snapshot of a finished tool call, same meaning",
			[]step{
				start("m1"), cbStart(0, `{"type":"tool_use","id":"t","name":"n","input":{}}`),
				delta(0, `{"type":"input_json_delta","partial_json":"{\"b\": [1, 2], \"a\": 1}"}`), stop(0),
				snapshot("m1", `{"type":"tool_use","id":"t","name":"n","input":{"a":1,"b":[1,2]}}`),
			},
			[]event.Event{turn, &event.ToolCall{Agent: "a", ID: "t", Name: "n", Input: json.RawMessage(`{"b": [1, 2], "a": 1}`)}},
			nil,
		},
		{
			"snapshot adds the defaults the CLI fills in: no problem, the snapshot is kept",
			[]step{
				start("m1"), cbStart(0, `{"type":"tool_use","id":"t","name":"Edit","input":{}}`),
				delta(0, `{"type":"input_json_delta","partial_json":""}`),
				delta(0, `{"type":"input_json_delta","partial_json":"{\"file_path\": \"/a\", \"old_string\": \"x\", \"new_string\": \"y\"}"}`),
				snapshot("m1", `{"type":"tool_use","id":"t","name":"Edit","input":{"file_path":"/a","old_string":"x","new_string":"y","replace_all":false}}`),
				stop(0),
			},
			[]event.Event{turn, &event.ToolCall{Agent: "a", ID: "t", Name: "Edit", Input: json.RawMessage(`{"file_path":"/a","old_string":"x","new_string":"y","replace_all":false}`)}},
			nil,
		},
		{
			"snapshot adds a key that is not a default: a problem",
			[]step{
				start("m1"), cbStart(0, `{"type":"tool_use","id":"t","name":"Edit","input":{}}`),
				delta(0, `{"type":"input_json_delta","partial_json":"{\"file_path\": \"/a\"}"}`),
				snapshot("m1", `{"type":"tool_use","id":"t","name":"Edit","input":{"file_path":"/a","replace_all":true}}`),
				stop(0),
			},
			[]event.Event{turn, &event.ToolCall{Agent: "a", ID: "t", Name: "Edit", Input: json.RawMessage(`{"file_path":"/a","replace_all":true}`)}},
			[]string{"assistant snapshot of tool call t (block 0 of message m1) differs from its stream events; kept the snapshot"},
		},
		{
			"late snapshot of a finished tool call with a default added",
			[]step{
				start("m1"), cbStart(0, `{"type":"tool_use","id":"t","name":"Edit","input":{}}`),
				delta(0, `{"type":"input_json_delta","partial_json":"{\"file_path\": \"/a\"}"}`), stop(0),
				snapshot("m1", `{"type":"tool_use","id":"t","name":"Edit","input":{"file_path":"/a","replace_all":false}}`),
			},
			[]event.Event{turn, &event.ToolCall{Agent: "a", ID: "t", Name: "Edit", Input: json.RawMessage(`{"file_path": "/a"}`)}},
			nil,
		},
		{
			"a snapshot of another message while one streams: the first is abandoned",
			[]step{
				start("m1"), cbStart(0, `{"type":"text","text":""}`), delta(0, `{"type":"text_delta","text":"hi"}`),
				snapshot("m2", `{"type":"text","text":"hello"}`),
			},
			[]event.Event{
				turn, text[0], text[1],
				&event.Notice{Agent: "a", Kind: event.NoticeAbandoned, Message: "message m1 was abandoned before its end and begun again; its unfinished text block(s) are dropped"},
				&event.TurnEnd{Agent: "a", MessageID: "m1"}, // no invented error: the retry is no failure
				&event.TurnStart{Agent: "a", MessageID: "m2", Model: "m"},
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "hello"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
			nil,
		},
		{
			"late snapshot of a finished tool call, different",
			[]step{
				start("m1"), cbStart(0, `{"type":"tool_use","id":"t","name":"n","input":{}}`),
				delta(0, `{"type":"input_json_delta","partial_json":"{\"a\": 2}"}`), stop(0),
				snapshot("m1", `{"type":"tool_use","id":"t","name":"n","input":{"a":1}}`),
			},
			[]event.Event{turn, &event.ToolCall{Agent: "a", ID: "t", Name: "n", Input: json.RawMessage(`{"a": 2}`)}},
			[]string{"assistant snapshot of tool call t (block 0 of message m1) differs from its stream events"},
		},
		{
			"message_start while a message streams: the first is abandoned, its open blocks not ended",
			[]step{
				start("m1"), cbStart(0, `{"type":"text","text":""}`), delta(0, `{"type":"text_delta","text":"hi"}`),
				cbStart(1, `{"type":"tool_use","id":"t","name":"n","input":{}}`), delta(1, `{"type":"input_json_delta","partial_json":"{\"a\""}`),
				start("m2"),
			},
			[]event.Event{
				turn, text[0], text[1],
				&event.Notice{Agent: "a", Kind: event.NoticeAbandoned, Message: "message m1 was abandoned before its end and begun again; its unfinished text, tool_use t block(s) are dropped"},
				&event.TurnEnd{Agent: "a", MessageID: "m1"}, // no invented error: the retry is no failure
				&event.TurnStart{Agent: "a", MessageID: "m2", Model: "m"},
			},
			nil,
		},
		{
			"structural problems",
			[]step{
				cbStart(0, `{"type":"text"}`), start("m1"), delta(3, `{"type":"text_delta","text":"x"}`),
				cbStart(0, `{"type":"text","text":""}`), cbStart(0, `{"type":"text","text":""}`),
				delta(0, `{"type":"input_json_delta","partial_json":"{"}`), stop(7),
			},
			[]event.Event{turn, &event.BlockStart{Agent: "a", Kind: event.Text}},
			[]string{
				"content_block_start outside a message",
				"content_block_delta for block 3, which was not started",
				"second content_block_start for block 0",
				"input_json_delta for a text block",
				"content_block_stop for block 7, which was not started",
			},
		},
		{
			"unknown delta and block types are kept",
			[]step{
				start("m1"), cbStart(0, `{"type":"text","text":""}`), delta(0, `{"type":"shiny_delta","x":1}`), stop(0),
				cbStart(1, `{"type":"compaction","content":""}`), delta(1, `{"type":"compaction_delta","content":"c"}`), stop(1),
			},
			[]event.Event{
				turn, &event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Unknown{Agent: "a", Format: "anthropic", Type: "content_block_delta", Raw: []byte(`{"type":"content_block_delta","index":0,"delta":{"type":"shiny_delta","x":1}}`)},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
				&event.Unknown{Agent: "a", Format: "anthropic", Type: "compaction", Raw: []byte(`{"type":"compaction","content":""}`)},
				&event.Unknown{Agent: "a", Format: "anthropic", Type: "content_block_delta", Raw: []byte(`{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"c"}}`)},
			},
			nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []event.Event
			b := NewBuilder(func(ev event.Event) { got = append(got, ev) }, 1<<20)
			var problems []string
			for _, s := range tt.steps {
				if err := s(b); err != nil {
					if !errors.Is(err, event.ErrSyntax) {
						t.Errorf("problem %q does not wrap event.ErrSyntax", err)
					}
					problems = append(problems, err.Error())
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events differ (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuilderInputCap(t *testing.T) {
	t.Parallel()
	b := NewBuilder(func(event.Event) {}, 8)
	b.MessageStart("a", &anthropic.Message{ID: "m"})
	b.BlockStart("a", 0, json.RawMessage(`{"type":"tool_use","id":"t","name":"n","input":{}}`))
	err := b.BlockDelta("a", 0, json.RawMessage(`{"type":"input_json_delta","partial_json":"{\"long\": 12345}"}`), nil)
	if !errors.Is(err, event.ErrTooLarge) || !strings.Contains(err.Error(), "tool call t") {
		t.Errorf("got %v, want a too-large error naming the tool call", err)
	}
}

// TestStreamEvent: the one dispatch of stream events both decoders use.
func TestStreamEvent(t *testing.T) {
	t.Parallel()
	turn := &event.TurnStart{Agent: "a", MessageID: "m1", Model: "m"}
	tests := []struct {
		name    string
		events  []string
		want    []event.Event
		problem string // of the last event
	}{
		{
			name: "error ends the turn first",
			events: []string{
				`{"type":"message_start","message":{"id":"m1","model":"m"}}`,
				`{"type":"ping"}`,
				`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			},
			want: []event.Event{
				turn,
				&event.TurnEnd{Agent: "a", MessageID: "m1"},
				&event.Error{
					Agent: "a", Message: "Overloaded", Type: "overloaded_error", Fatal: true,
					Raw: json.RawMessage(`{"type":"overloaded_error","message":"Overloaded"}`),
				},
			},
		},
		{
			name:   "unknown type",
			events: []string{`{"type":"message_frobnicate","x":1}`},
			want: []event.Event{&event.Unknown{
				Agent: "a", Format: anthropic.Format, Type: "message_frobnicate", Raw: []byte(`{"type":"message_frobnicate","x":1}`),
			}},
		},
		{
			name:    "message_start without a message",
			events:  []string{`{"type":"message_start"}`},
			problem: "message_start without a message",
		},
		{
			name: "a block",
			events: []string{
				`{"type":"message_start","message":{"id":"m1","model":"m"}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`,
				`{"type":"content_block_stop","index":0}`,
				`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`,
				`{"type":"message_stop"}`,
			},
			want: []event.Event{
				turn,
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "hi"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
				&event.TurnEnd{Agent: "a", MessageID: "m1", StopReason: "end_turn", Usage: &event.Usage{OutputTokens: 2, Has: event.HasOutput}},
			},
		},
	}
	for _, tt := range tests {
		for _, streamOnly := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/StreamOnly=%v", tt.name, streamOnly), func(t *testing.T) {
				t.Parallel()
				var got []event.Event
				b := NewBuilder(func(ev event.Event) { got = append(got, ev) }, 1<<20)
				if streamOnly {
					b.StreamOnly()
				}
				var err error
				for _, raw := range tt.events {
					err = streamEvent(t, b, "a", raw)
				}
				problem := ""
				if err != nil {
					problem = err.Error()
				}
				if problem != tt.problem {
					t.Errorf("problem = %q, want %q", problem, tt.problem)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("events differ (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func streamEvent(t *testing.T, b *Builder, agent, raw string) error {
	t.Helper()
	var se anthropic.StreamEvent
	if err := json.Unmarshal([]byte(raw), &se); err != nil {
		t.Fatal(err)
	}
	return b.StreamEvent(agent, &se, []byte(raw))
}

// TestStreamEventInterleaved: the events of two agents' messages, and
// the deltas of two blocks, interleaved, each go to their own message
// and block (the Builder remembers the message and the block it found
// last), and an agent whose message ended has none.
func TestStreamEventInterleaved(t *testing.T) {
	t.Parallel()
	var got []event.Event
	b := NewBuilder(func(ev event.Event) { got = append(got, ev) }, 1<<20)
	b.StreamOnly()
	var problems []string
	for _, e := range []struct{ agent, raw string }{
		{"a", `{"type":"message_start","message":{"id":"m1","model":"m"}}`},
		{"a", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
		{"b", `{"type":"message_start","message":{"id":"m2","model":"m"}}`},
		{"b", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`},
		{"a", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}`},
		{"a", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a0"}}`},
		{"b", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"b0"}}`},
		{"a", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{}"}}`},
		{"a", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a1"}}`},
		{"a", `{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"none"}}`},
		{"b", `{"type":"message_stop"}`},
		{"b", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"late"}}`},
		{"a", `{"type":"content_block_stop","index":1}`},
	} {
		if err := streamEvent(t, b, e.agent, e.raw); err != nil {
			problems = append(problems, err.Error())
		}
	}
	want := []event.Event{
		&event.TurnStart{Agent: "a", MessageID: "m1", Model: "m"},
		&event.BlockStart{Agent: "a", Kind: event.Text},
		&event.TurnStart{Agent: "b", MessageID: "m2", Model: "m"},
		&event.BlockStart{Agent: "b", Kind: event.Thinking},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "a0"},
		&event.Delta{Agent: "b", Kind: event.Thinking, Text: "b0"},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "a1"},
		&event.BlockEnd{Agent: "b", Kind: event.Thinking},
		&event.TurnEnd{Agent: "b", MessageID: "m2"},
		&event.ToolCall{Agent: "a", ID: "t", Name: "n", Input: json.RawMessage("{}")},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events differ (-want +got):\n%s", diff)
	}
	wantProblems := []string{
		"content_block_delta for block 2, which was not started",
		"message_stop with block 0 still open",
		"content_block_delta outside a message",
	}
	if diff := cmp.Diff(wantProblems, problems); diff != "" {
		t.Errorf("problems differ (-want +got):\n%s", diff)
	}
}

// TestDeltasOwnMemory: the Delta events, allocated in batches, are each
// their own: changing one changes no other, across a batch's end.
func TestDeltasOwnMemory(t *testing.T) {
	t.Parallel()
	var got []*event.Delta
	b := NewBuilder(func(ev event.Event) {
		if d, ok := ev.(*event.Delta); ok {
			got = append(got, d)
		}
	}, 1<<20)
	b.MessageStart("a", &anthropic.Message{ID: "m"})
	b.BlockStart("a", 0, json.RawMessage(`{"type":"text","text":""}`))
	n := 2*deltabatch.Len + 1
	for i := range n {
		b.BlockDelta("a", 0, json.RawMessage(fmt.Sprintf(`{"type":"text_delta","text":"%d"}`, i)), nil)
	}
	for _, d := range got {
		d.Text += "!"
	}
	var texts, want []string
	for i, d := range got {
		texts = append(texts, d.Text)
		want = append(want, fmt.Sprintf("%d!", i))
	}
	if diff := cmp.Diff(want, texts); diff != "" {
		t.Errorf("delta texts (-want +got):\n%s", diff)
	}
}

// TestCitationFields: a citation object's key is known (not kept in Raw)
// exactly when it is a field of citationObject.
func TestCitationFields(t *testing.T) {
	t.Parallel()
	names := jsontext.FieldNames(anthropic.Citation{})
	for _, name := range names {
		if !citationFields[name] {
			t.Errorf("citationObject field %q is not in citationFields", name)
		}
	}
	if len(names) != len(citationFields) {
		t.Errorf("citationFields has %d keys, citationObject %d fields", len(citationFields), len(names))
	}
}
