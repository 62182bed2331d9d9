package messages

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// TestMarshalError: what encoding/json cannot write is an error, not a
// panic.
func TestMarshalError(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]any{
		"invalid raw JSON": toolBlock{Type: anthropic.BlockToolUse, Input: json.RawMessage("{bad")},
		"NaN":              math.NaN(),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if b, err := Marshal(v); err == nil {
				t.Errorf("Marshal = %s, nil; want an error", b)
			}
		})
	}
}

// TestStreamerHoldsText: a Streamer holds a block's text only for Block
// (Claude Code's snapshots), and then at most MaxBlockBytes of it; without
// Block (the anthropic encoder) deltas pass through and nothing is held.
func TestStreamerHoldsText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		block bool
		max   int
		held  int
		cut   bool
	}{
		{name: "no Block", held: 0},
		{name: "no Block, capped", max: 10, held: 0, cut: true},
		{name: "Block, capped", block: true, max: 10, held: 10, cut: true},
		{name: "Block", block: true, held: 300},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cuts, written := 0, 0
			s := &Streamer{
				Event:         func(typ string, data []byte) error { written += len(data); return nil },
				MaxBlockBytes: tt.max,
				Cut:           func() { cuts++ },
			}
			if tt.block {
				s.Block = func(MessageInfo, []byte) error { return nil }
			}
			s.Add(&event.BlockStart{Kind: event.Text})
			for range 3 {
				if _, err := s.Add(&event.Delta{Kind: event.Text, Text: strings.Repeat("x", 100)}); err != nil {
					t.Fatal(err)
				}
			}
			if got := len(s.open.escaped()); got != tt.held {
				t.Errorf("text held = %d bytes, want %d", got, tt.held)
			}
			if (cuts > 0) != tt.cut {
				t.Errorf("Cut called %d times, want calls: %v", cuts, tt.cut)
			}
		})
	}
}

// TestInputFragments: a tool call's input_json_delta events are the
// pieces its source streamed the input in (ToolCall.InputDeltas) when
// they cut the input at character boundaries into all of it, else the
// whole input in one.
func TestInputFragments(t *testing.T) {
	t.Parallel()
	in := json.RawMessage(`{"a":"é"}`) // é is two bytes, at 6 and 7
	tests := []struct {
		name   string
		deltas []int
		want   []string
	}{
		{"none", nil, []string{`{"a":"é"}`}},
		{"as streamed, an empty one first", []int{0, 3, 7}, []string{``, `{"a`, `":"é"}`}},
		{"short of the input", []int{0, 3}, []string{`{"a":"é"}`}},
		{"beyond the input", []int{3, 20}, []string{`{"a":"é"}`}},
		{"negative", []int{-1, 11}, []string{`{"a":"é"}`}},
		{"inside a character", []int{7, 3}, []string{`{"a":"é"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			s := &Streamer{Event: func(typ string, data []byte) error {
				if p, ok := partialJSON(t, typ, data); ok {
					got = append(got, p)
				}
				return nil
			}}
			if _, err := s.Add(&event.ToolCall{ID: "c", Name: "n", Input: in, InputDeltas: tt.deltas}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("fragments (-want +got):\n%s", diff)
			}
		})
	}
}

// TestManyEmptyFragments: fragment lengths are kept for at most one more
// fragment than the input has bytes.
func TestManyEmptyFragments(t *testing.T) {
	t.Parallel()
	var evs []event.Event
	b := NewBuilder(func(ev event.Event) { evs = append(evs, ev) }, event.DefaultMaxBytes)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.MessageStart("a", &anthropic.Message{ID: "m1", Model: "m"}))
	must(b.BlockStart("a", 0, json.RawMessage(`{"type":"tool_use","id":"t1","name":"X","input":{}}`)))
	for range 100 {
		must(b.BlockDelta("a", 0, json.RawMessage(`{"type":"input_json_delta","partial_json":""}`), nil))
	}
	must(b.BlockDelta("a", 0, json.RawMessage(`{"type":"input_json_delta","partial_json":"{}"}`), nil))
	must(b.BlockStop("a", 0))
	for _, ev := range evs {
		if c, ok := ev.(*event.ToolCall); ok {
			if c.InputDeltas != nil || string(c.Input) != "{}" {
				t.Errorf("tool call: input %s, fragments %v", c.Input, c.InputDeltas)
			}
			return
		}
	}
	t.Fatal("no tool call")
}

// TestDeltaSize: what a delta counts against MaxBlockBytes without
// capText is what capText counts.
func TestDeltaSize(t *testing.T) {
	t.Parallel()
	for _, text := range appendSeeds {
		s := &Streamer{Event: func(string, []byte) error { return nil }, MaxBlockBytes: 1 << 20}
		s.Add(&event.BlockStart{Kind: event.Text})
		s.Add(&event.Delta{Kind: event.Text, Text: text})
		c := &Streamer{MaxBlockBytes: 1 << 20, streamState: streamState{open: &streamBlock{}}}
		c.capText(text)
		if s.open.n != c.open.n {
			t.Errorf("%q: delta counts %d bytes, capText %d", text, s.open.n, c.open.n)
		}
	}
}

// TestSpare: Streamers that share a Spare buffer, with blocks open at
// the same time, write each block's own text.
func TestSpare(t *testing.T) {
	t.Parallel()
	var spare []byte
	var got []string
	newStreamer := func() *Streamer {
		return &Streamer{Spare: &spare, Block: func(_ MessageInfo, block []byte) error {
			got = append(got, string(block))
			return nil
		}}
	}
	a, b := newStreamer(), newStreamer()
	for _, step := range []struct {
		s  *Streamer
		ev event.Event
	}{
		{a, &event.Delta{Kind: event.Text, Text: "a1 é"}},
		{b, &event.Delta{Kind: event.Text, Text: "b1"}},
		{a, &event.Delta{Kind: event.Text, Text: " a2"}},
		{a, &event.BlockEnd{Kind: event.Text}},
		{b, &event.Delta{Kind: event.Text, Text: " b2"}},
		{a, &event.Delta{Kind: event.Thinking, Text: "a3"}},
		{b, &event.BlockEnd{Kind: event.Text}},
		{a, &event.BlockEnd{Kind: event.Thinking}},
		{b, &event.Delta{Kind: event.Text, Text: strings.Repeat("x", maxSpare+1)}},
		{b, &event.BlockEnd{Kind: event.Text}},
		{a, &event.Delta{Kind: event.Text, Text: "a4"}},
		{a, &event.BlockEnd{Kind: event.Text}},
	} {
		if _, err := step.s.Add(step.ev); err != nil {
			t.Fatal(err)
		}
	}
	a.Flush()
	b.Flush()
	want := []string{ // a text block is written at its Streamer's next event
		`{"type":"text","text":"a1 é a2"}`, `{"type":"thinking","thinking":"a3","signature":""}`,
		`{"type":"text","text":"b1 b2"}`, `{"type":"text","text":"a4"}`,
		`{"type":"text","text":"` + strings.Repeat("x", maxSpare+1) + `"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
}

// TestUnsignedCapped: a message of more than MaxUnsigned thinking blocks
// ended without a signature keeps the last MaxUnsigned for a late
// signature, counts those let go of, and holds at most twice the cap.
func TestUnsignedCapped(t *testing.T) {
	t.Parallel()
	var s Streamer
	s.Add(&event.TurnStart{MessageID: "m"})
	n := 3*MaxUnsigned + 5
	for range n {
		s.Add(&event.BlockStart{Kind: event.Thinking})
		s.Add(&event.BlockEnd{Kind: event.Thinking})
		if h := s.HeldUnsigned(); h > 2*MaxUnsigned {
			t.Fatalf("%d unsigned blocks held, want at most %d", h, 2*MaxUnsigned)
		}
	}
	got := s.UnsignedThinking()
	if len(got) != MaxUnsigned || got[0] != n-MaxUnsigned || got[len(got)-1] != n-1 {
		t.Errorf("UnsignedThinking gives %d indexes, %v ... %v; want the last %d, %d ... %d", len(got), got[:1], got[len(got)-1:], MaxUnsigned, n-MaxUnsigned, n-1)
	}
	if f := s.ForgotUnsigned(); f != n-MaxUnsigned {
		t.Errorf("ForgotUnsigned %d, want %d", f, n-MaxUnsigned)
	}
}

// TestReset: a Streamer Reset in the middle of a message (tool calls
// waiting, an MCP call, an unsigned thinking block, a text block open)
// writes what a new one writes, with the same settings.
func TestReset(t *testing.T) {
	t.Parallel()
	var spare []byte
	run := func(s *Streamer, evs []event.Event) []string {
		var got []string
		s.Event = func(typ string, data []byte) error { got = append(got, string(data)); return nil }
		s.Block = func(m MessageInfo, block []byte) error {
			got = append(got, m.ID+" "+m.Model+" "+string(block))
			return nil
		}
		for _, ev := range evs {
			if _, err := s.Add(ev); err != nil {
				t.Fatal(err)
			}
		}
		got = append(got, fmt.Sprint("held calls ", s.HeldCalls(), ", unsigned ", s.UnsignedThinking(), ", answered ", s.Answered("")))
		s.EndTurn("", nil)
		return got
	}
	first := []event.Event{
		&event.TurnStart{MessageID: "m1", Model: "x"},
		&event.ToolCall{ID: "c1", Name: "Bash", Input: json.RawMessage(`{}`)},
		&event.ToolCall{ID: "c2", Name: "q", MCPServer: "srv", Input: json.RawMessage(`{}`)},
		&event.BlockEnd{Kind: event.Thinking},
		&event.Delta{Kind: event.Text, Text: "open"},
	}
	again := []event.Event{
		&event.ToolCall{ID: "c1", Name: "Bash", Input: json.RawMessage(`{"a":1}`)},
		&event.ToolResult{ID: "c2", Name: "q", Content: []event.Part{{Type: "text", Text: "r"}}},
		&event.Delta{Kind: event.Thinking, Text: "t"},
		&event.Delta{Kind: event.Text, Text: "done"},
	}
	n := 0
	newStreamer := func() *Streamer {
		return &Streamer{Model: "m", Spare: &spare, NewID: func(i int) string { n++; return fmt.Sprint("id", i) }}
	}
	s := newStreamer()
	run(s, first)
	s.Reset()
	if s.InTurn() || s.Open() || s.HeldCalls() != 0 || s.HeldUnsigned() != 0 {
		t.Errorf("after Reset: in a turn %v, a block open %v, %d calls and %d unsigned blocks held; want none",
			s.InTurn(), s.Open(), s.HeldCalls(), s.HeldUnsigned())
	}
	n = 0
	got := run(s, again)
	n = 0
	want := run(newStreamer(), again)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after Reset (-new +reset):\n%s", diff)
	}
	if s.Model != "m" || s.Spare != &spare || s.Messages() != 1 {
		t.Errorf("after Reset and a message: Model %q, Spare kept %v, %d messages; want m, true, 1", s.Model, s.Spare == &spare, s.Messages())
	}
}

// TestBlockNotText: during Block, BlockNotText tells the blocks the
// Streamer wrote of another type than text (thinking, tool use) from
// text blocks and blocks written as they came (which may be text).
func TestBlockNotText(t *testing.T) {
	t.Parallel()
	var got []string
	s := &Streamer{}
	s.Block = func(_ MessageInfo, block []byte) error {
		got = append(got, fmt.Sprint(s.BlockNotText(), " ", string(block)))
		return nil
	}
	for _, ev := range []event.Event{
		&event.Delta{Kind: event.Text, Text: "a"},
		&event.Delta{Kind: event.Thinking, Text: "b"},
		&event.ToolCall{ID: "c", Name: "n", Input: json.RawMessage(`{"type":"text"}`)},
		&event.Unknown{Format: anthropic.Format, Raw: json.RawMessage(`{"type":"text","text":"u"}`)},
		&event.Delta{Kind: event.Text, Text: "c"},
	} {
		if _, err := s.Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	s.EndTurn("", nil)
	want := []string{
		`false {"type":"text","text":"a"}`,
		`true {"type":"tool_use","id":"c","name":"n","input":{"type":"text"}}`,
		`false {"type":"text","text":"u"}`,
		`true {"type":"thinking","thinking":"b","signature":""}`,
		`false {"type":"text","text":"c"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
}

// TestIDWhenNeeded: without Event, a message's id is made at its first
// block, not at its start: a message with no block makes none, and is
// counted all the same (n is the message's number among those the
// source gave no id). With Event, message_start names it at once.
func TestIDWhenNeeded(t *testing.T) {
	t.Parallel()
	for _, withEvents := range []bool{false, true} {
		var made []int
		var ids []string
		s := &Streamer{NewID: func(n int) string { made = append(made, n); return fmt.Sprint("id", n) }}
		s.Block = func(m MessageInfo, _ []byte) error { ids = append(ids, m.ID); return nil }
		if withEvents {
			s.Event = func(string, []byte) error { return nil }
		}
		for _, ev := range []event.Event{
			&event.TurnStart{}, &event.TurnEnd{}, // no block
			&event.TurnStart{}, &event.Delta{Kind: event.Text, Text: "a"}, &event.Delta{Kind: event.Thinking, Text: "b"}, &event.TurnEnd{},
			&event.TurnStart{MessageID: "given"}, &event.Delta{Kind: event.Text, Text: "c"}, &event.TurnEnd{},
		} {
			if _, err := s.Add(ev); err != nil {
				t.Fatal(err)
			}
		}
		wantMade := []int{2}
		if withEvents {
			wantMade = []int{1, 2}
		}
		if diff := cmp.Diff(wantMade, made); diff != "" {
			t.Errorf("events %v: NewID called with (-want +got):\n%s", withEvents, diff)
		}
		if diff := cmp.Diff([]string{"id2", "id2", "given"}, ids); diff != "" {
			t.Errorf("events %v: block ids (-want +got):\n%s", withEvents, diff)
		}
	}
}

// TestToolBlockInput: a tool call's block has its input as json.Compact
// writes it, whether the input is compact, spaced, noted compact by its
// decoder, empty or no JSON at all (then a JSON string), while its
// input_json_delta streams the input as it came.
func TestToolBlockInput(t *testing.T) {
	t.Parallel()
	compact := json.RawMessage(`{"a":[1,"b c"]}`)
	tests := []struct {
		name     string
		input    json.RawMessage
		note     func([]byte) event.Checked
		block    string
		streamed string
	}{
		{"compact", compact, nil, `{"a":[1,"b c"]}`, `{"a":[1,"b c"]}`},
		{"noted compact", compact, event.CompactJSON, `{"a":[1,"b c"]}`, `{"a":[1,"b c"]}`},
		{"spaced", json.RawMessage(` {"a": [1, "b c"]}` + "\n"), nil, `{"a":[1,"b c"]}`, ` {"a": [1, "b c"]}` + "\n"},
		{"noted valid, spaced", json.RawMessage(`{"a": 1}`), event.ValidJSON, `{"a":1}`, `{"a": 1}`},
		{"empty", nil, nil, `{}`, `{}`},
		{"no JSON", json.RawMessage(`{bad`), nil, `"{bad"`, `"{bad"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var block, streamed string
			s := &Streamer{
				Event: func(typ string, data []byte) error {
					if p, ok := partialJSON(t, typ, data); ok {
						streamed += p
					}
					return nil
				},
				Block: func(_ MessageInfo, b []byte) error {
					var tb struct{ Input json.RawMessage }
					if err := json.Unmarshal(b, &tb); err != nil {
						t.Fatal(err)
					}
					block = string(tb.Input)
					return nil
				},
			}
			ev := &event.ToolCall{ID: "c", Name: "n", Input: tt.input}
			if tt.note != nil {
				ev.Checked = tt.note(tt.input)
			}
			if _, err := s.Add(ev); err != nil {
				t.Fatal(err)
			}
			if block != tt.block || streamed != tt.streamed {
				t.Errorf("block input %s, streamed %q; want %s, %q", block, streamed, tt.block, tt.streamed)
			}
		})
	}
}

// partialJSON returns the partial_json of an input_json_delta event, and
// whether the event is one.
func partialJSON(t *testing.T, typ string, data []byte) (string, bool) {
	t.Helper()
	var d struct {
		Delta struct {
			PartialJSON *string `json:"partial_json"`
		} `json:"delta"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if typ != anthropic.EventContentBlockDelta || d.Delta.PartialJSON == nil {
		return "", false
	}
	return *d.Delta.PartialJSON, true
}
