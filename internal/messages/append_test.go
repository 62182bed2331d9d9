package messages

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// The delta types appendDelta writes without reflection.
type (
	textDelta struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	thinkingDelta struct {
		Type     string `json:"type"`
		Thinking string `json:"thinking"`
	}
)

var appendSeeds = []string{
	"", "plain", "quote \" backslash \\ slash /", "\b\f\n\r\t\x00\x1f\x7f",
	"<html> & 'x'", "é 日本 🎌", "\u2028\u2029", "bad \xff\xfe utf-8 \xe2\x82", "\ufeff",
	"€\xe2\x82\xac\xf0\x9f\x98\x80\xf0\x9f\x98\xe2x\xc3",
}

func checkAppendDelta(t *testing.T, s string) {
	for _, kind := range []event.BlockKind{event.Text, event.Thinking} {
		var d any = textDelta{Type: anthropic.DeltaText, Text: s}
		if kind == event.Thinking {
			d = thinkingDelta{Type: anthropic.DeltaThinking, Thinking: s}
		}
		want := marshal(blockDelta{Type: anthropic.EventContentBlockDelta, Index: 7, Delta: d})
		got, start, end := appendDelta([]byte(deltaHead.json), 7, kind, s)
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%q as %v (-Marshal +appendDelta):\n%s", s, kind, diff)
		}
		if esc := string(jsontext.AppendMarshalEscaped(nil, s)); string(got[start:end]) != esc {
			t.Errorf("%q as %v: escaped text at [%d:%d] is %q, want %q", s, kind, start, end, got[start:end], esc)
		}
	}
	// The text of a block given in two deltas, cut anywhere (inside a
	// UTF-8 sequence too), is written as Marshal writes it whole: cut at
	// every byte near its ends and its middle (every byte of a long text
	// would make the check quadratic).
	for i := range len(s) + 1 {
		if i > 8 && i < len(s)-8 && (i < len(s)/2-4 || i > len(s)/2+4) {
			continue
		}
		var b streamBlock
		for _, part := range []string{s[:i], s[i:]} {
			b.appendText(part, jsontext.AppendMarshalEscaped(nil, part))
		}
		tb := textBlock{Type: anthropic.BlockText, Text: s}
		if diff := cmp.Diff(string(marshal(tb)), string(appendTextBlock(nil, b.escaped(), nil))); diff != "" {
			t.Errorf("%q cut at %d (-Marshal +appendTextBlock):\n%s", s, i, diff)
		}
		cites := []json.RawMessage{json.RawMessage(`{"type":"char_location","cited_text":"x"}`), json.RawMessage(`{"url":"<&>"}`)}
		tb.Citations = cites
		if diff := cmp.Diff(string(marshal(tb)), string(appendTextBlock(nil, b.escaped(), cites))); diff != "" {
			t.Errorf("%q cut at %d, with citations (-Marshal +appendTextBlock):\n%s", s, i, diff)
		}
		th := thinkingBlock{Type: anthropic.BlockThinking, Thinking: s, Signature: s + "sig"}
		if diff := cmp.Diff(string(marshal(th)), string(appendThinkingBlock(nil, b.escaped(), th.Signature))); diff != "" {
			t.Errorf("%q cut at %d (-Marshal +appendThinkingBlock):\n%s", s, i, diff)
		}
	}
	tb := textBlock{Type: anthropic.BlockText, Text: s}
	blocks := [][]byte{marshal(tb), marshal(toolBlock{Type: anthropic.BlockToolUse, ID: s, Name: s, Input: []byte(`{"a":1}`)})}
	for n := range len(blocks) + 1 {
		raw := make([]json.RawMessage, n)
		for i := range n {
			raw[i] = blocks[i]
		}
		all := event.HasTokens | event.HasCacheRead | event.HasCacheWrite
		for _, u := range []*event.Usage{
			nil,
			{InputTokens: 3, OutputTokens: 4, CacheReadTokens: 5, CacheWriteTokens: 6, ServiceTier: s, Has: all},
			{OutputTokens: 4, CacheReadTokens: 5, Has: event.HasOutput | event.HasCacheRead}, // counts not said
		} {
			for _, model := range []string{s + "m", ""} {
				m := newMessage(s, model, raw)
				if u != nil {
					m.Usage = outUsage{
						u.Given(event.HasInput), u.Given(event.HasCacheWrite),
						u.Given(event.HasCacheRead), u.Given(event.HasOutput), u.ServiceTier,
					}
				}
				if diff := cmp.Diff(string(marshal(m)), string(AppendMessage(nil, s, model, u, blocks[:n]...))); diff != "" {
					t.Errorf("%q, model %q, %d blocks, usage %v (-Marshal +AppendMessage):\n%s", s, model, n, u, diff)
				}
			}
		}
	}
}

// TestAppendDelta: appendDelta writes what Marshal writes.
func TestAppendDelta(t *testing.T) {
	t.Parallel()
	for _, s := range appendSeeds {
		checkAppendDelta(t, s)
	}
}

func FuzzAppendDelta(f *testing.F) {
	for _, s := range appendSeeds {
		f.Add(s)
	}
	f.Fuzz(checkAppendDelta)
}

// TestAppendStreamEvents: the stream events and tool blocks the Streamer
// appends are what Marshal writes of its wire structs.
func TestAppendStreamEvents(t *testing.T) {
	t.Parallel()
	for _, s := range appendSeeds {
		for _, server := range []string{"", s} {
			for _, typ := range []string{anthropic.BlockToolUse, anthropic.BlockServerToolUse, anthropic.BlockMCPToolUse} {
				input := marshal(map[string]string{"k": s})
				want := marshal(toolBlock{Type: typ, ID: s, Name: s, Input: input, ServerName: server})
				if diff := cmp.Diff(string(want), string(appendToolBlock(nil, typ, s, s, input, server))); diff != "" {
					t.Errorf("appendToolBlock(%q, %q) (-Marshal +append):\n%s", typ, s, diff)
				}
			}
		}
		want := marshal(blockDelta{Type: anthropic.EventContentBlockDelta, Index: 3, Delta: struct {
			Type        string `json:"type"`
			PartialJSON string `json:"partial_json"`
		}{anthropic.DeltaInputJSON, s}})
		if diff := cmp.Diff(string(want), string(appendInputDelta([]byte(deltaHead.json), 3, s))); diff != "" {
			t.Errorf("appendInputDelta(%q) (-Marshal +append):\n%s", s, diff)
		}
	}
	for _, tt := range []struct {
		want any
		got  []byte
	}{
		{blockStop{Type: anthropic.EventContentBlockStop, Index: 12}, appendBlockStop([]byte(blockStopHead.json), 12)},
		{
			blockStart{Type: anthropic.EventContentBlockStart, Index: 7, ContentBlock: textBlock{Type: anthropic.BlockText}},
			append(append(appendBlockStartHead([]byte(blockStartHead.json), 7), emptyTextBlock...), '}'),
		},
		{
			blockStart{Type: anthropic.EventContentBlockStart, Index: 0, ContentBlock: thinkingBlock{Type: anthropic.BlockThinking}},
			append(append(appendBlockStartHead([]byte(blockStartHead.json), 0), emptyThinkingBlock...), '}'),
		},
		{typeOnly{Type: anthropic.EventMessageStop}, []byte(messageStopEvent.json)},
	} {
		if diff := cmp.Diff(string(marshal(tt.want)), string(tt.got)); diff != "" {
			t.Errorf("%T (-Marshal +append):\n%s", tt.want, diff)
		}
	}
}

// checkBlockText: BlockText gives, during Block, the text of a text
// block without citations, its JSON as in the block, and nil for other
// blocks.
func checkBlockText(t *testing.T, a, b string) {
	calls := 0
	s := &Streamer{}
	s.Block = func(_ MessageInfo, block []byte) error {
		calls++
		var bl anthropic.Block
		if err := anthropic.UnmarshalBlock(block, &bl); err != nil {
			t.Fatalf("block %q: %v", block, err)
		}
		var want []byte // the text's JSON as the block has it
		if bl.Type == anthropic.BlockText && len(bl.Citations) == 0 {
			var raw struct{ Text json.RawMessage }
			json.Unmarshal(block, &raw)
			want = raw.Text
		}
		if got := s.BlockText(); string(got) != string(want) || (got == nil) != (want == nil) {
			t.Errorf("BlockText() of %q = %q, want %q", block, got, want)
		}
		return nil
	}
	for _, ev := range []event.Event{
		&event.Delta{Kind: event.Text, Text: a}, &event.Delta{Kind: event.Text, Text: b}, &event.BlockEnd{Kind: event.Text},
		&event.Delta{Kind: event.Thinking, Text: a}, &event.BlockEnd{Kind: event.Thinking},
		&event.Delta{Kind: event.Text, Text: b}, &event.BlockEnd{Kind: event.Text},
		&event.Citations{Items: []event.Citation{{Type: "char_location", CitedText: a}}},
		&event.ToolCall{ID: "t", Name: "n", Input: json.RawMessage(`{}`)},
	} {
		if _, err := s.Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	if s.Flush(); calls != 4 || s.BlockText() != nil {
		t.Errorf("%d blocks, BlockText() %q after them; want 4, nil", calls, s.BlockText())
	}
}

func TestBlockText(t *testing.T) {
	t.Parallel()
	for _, s := range appendSeeds {
		checkBlockText(t, s, s)
		checkBlockText(t, s, "é 日本")
	}
}

func FuzzBlockText(f *testing.F) {
	for _, s := range appendSeeds {
		f.Add(s, s)
	}
	f.Fuzz(checkBlockText)
}

// TestAppendMessageEnds: message_start and message_delta, written without
// reflection, are what Marshal writes for messageStart (of a message with
// no content, stop reason or stop sequence yet) and messageDelta (with no
// stop sequence), for every combination of known and unknown fields.
func TestAppendMessageEnds(t *testing.T) {
	t.Parallel()
	n := func(v int64) *int64 { return &v }
	s := func(v string) *string { return &v }
	strs := []*string{nil, s(""), s("end_turn"), s(appendSeeds[len(appendSeeds)-1])}
	ints := []*int64{nil, n(0), n(42), n(-1)}
	for _, str := range append(appendSeeds, "msg_01") {
		for _, opt := range strs {
			for j, num := range ints {
				m := newMessage(str, str+"model", nil) // no stop reason or sequence yet
				m.Usage = outUsage{
					InputTokens: num, CacheCreationInputTokens: ints[(j+1)%len(ints)],
					CacheReadInputTokens: ints[(j+2)%len(ints)], OutputTokens: ints[(j+3)%len(ints)],
				}
				if j%2 == 1 {
					m.Usage.ServiceTier = str
				}
				want := marshal(messageStart{Type: anthropic.EventMessageStart, Message: m})
				if diff := cmp.Diff(string(want), string(appendMessageStart([]byte(messageStartHead.json), m.ID, m.Model, &m.Usage))); diff != "" {
					t.Errorf("message_start (-Marshal +appendMessageStart):\n%s", diff)
				}
				md := messageDelta{Type: anthropic.EventMessageDelta, Delta: outDelta{StopReason: opt}}
				md.Usage = outUsageEnd{
					OutputTokens: num, InputTokens: ints[(j+1)%len(ints)],
					CacheCreationInputTokens: ints[(j+2)%len(ints)], CacheReadInputTokens: ints[(j+3)%len(ints)],
				}
				want = marshal(md)
				if diff := cmp.Diff(string(want), string(appendMessageDelta([]byte(messageDeltaHead.json), md.Delta.StopReason, &md.Usage))); diff != "" {
					t.Errorf("message_delta (-Marshal +appendMessageDelta):\n%s", diff)
				}
			}
		}
	}
}

// newMessage returns the message object of a message_start, or of an
// assistant snapshot carrying content (see AppendMessage).
func newMessage(id, model string, content []json.RawMessage) outMessage {
	if content == nil {
		content = []json.RawMessage{}
	}
	return outMessage{ID: id, Type: "message", Role: "assistant", Model: model, Content: content}
}

// The shapes of the stream events the Streamer writes without encoding/json
// (appendMessageStart, appendMessageDelta, appendBlockStop, AppendMessage's
// message object): the tests compare what those write with Marshal of
// these. Field order is the API's.
type (
	outMessage struct {
		ID           string            `json:"id"`
		Type         string            `json:"type"`
		Role         string            `json:"role"`
		Model        string            `json:"model"`
		Content      []json.RawMessage `json:"content"`
		StopReason   *string           `json:"stop_reason"`
		StopSequence *string           `json:"stop_sequence"`
		Usage        outUsage          `json:"usage"`
	}
	messageStart struct {
		Type    string     `json:"type"`
		Message outMessage `json:"message"`
	}
	blockStop struct {
		Type  string `json:"type"`
		Index int    `json:"index"`
	}
	messageDelta struct {
		Type  string      `json:"type"`
		Delta outDelta    `json:"delta"`
		Usage outUsageEnd `json:"usage"`
	}
	outDelta struct {
		StopReason   *string `json:"stop_reason"`
		StopSequence *string `json:"stop_sequence"`
	}
)
