package wirecheck

import (
	"encoding/json"
	"slices"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// The rules of the Messages API stream events, shared by the anthropic and
// claude formats.
const (
	RuleOrder = "MSG001"
	RuleDelta = "MSG002"
)

// MessagesRules returns the rules Order checks.
func MessagesRules() []format.Rule {
	return []format.Rule{
		{ID: RuleOrder, Name: "event-order", Doc: "Messages API stream events come in order: message_start; per block content_block_start, its deltas, content_block_stop, one block at a time in index order; message_delta; message_stop (Claude: per agent scope, over stream_event lines)"},
		{ID: RuleDelta, Name: "delta-type", Doc: "a delta suits its block: text_delta and citations_delta for text, thinking_delta and signature_delta for thinking, input_json_delta for tool use"},
	}
}

// Order checks the order of one scope's Messages API stream events:
// message_start, then per block content_block_start, its deltas and
// content_block_stop, blocks one at a time in index order, then
// message_delta and message_stop.
type Order struct {
	open   bool // inside a message
	start  Pos
	blocks map[int]*msgBlock
	next   int // index the next block should have
	cur    *int
	ended  bool // message_delta seen
}

type msgBlock struct {
	typ     string
	stopped bool
}

// deltaBlocks says which block types each delta type belongs to.
var deltaBlocks = map[string][]string{
	anthropic.DeltaText:      {anthropic.BlockText},
	anthropic.DeltaCitations: {anthropic.BlockText},
	anthropic.DeltaThinking:  {anthropic.BlockThinking},
	anthropic.DeltaSignature: {anthropic.BlockThinking},
	anthropic.DeltaInputJSON: {anthropic.BlockToolUse, anthropic.BlockServerToolUse, anthropic.BlockMCPToolUse},
}

// Event checks the stream event raw, read at p.
func (o *Order) Event(v *Checker, p Pos, raw []byte) {
	var se anthropic.StreamEvent
	if json.Unmarshal(raw, &se) != nil {
		return // the decoder reports it
	}
	outside := func() bool {
		if !o.open {
			v.Report(RuleOrder, p, "%s outside a message (no message_start before it)", se.Type)
			return true
		}
		return false
	}
	// index is the block a content_block_* event inside a message names.
	index := func() (int, bool) {
		if outside() {
			return 0, false
		}
		if se.Index == nil {
			v.Report(RuleOrder, p, "%s has no index", se.Type)
			return 0, false
		}
		return *se.Index, true
	}
	switch se.Type {
	case anthropic.EventMessageStart:
		if o.open {
			v.Report(RuleOrder, p, "message_start while the message started at line %d has no message_stop", o.start.Line)
		}
		*o = Order{open: true, start: p, blocks: map[int]*msgBlock{}}
	case anthropic.EventContentBlockStart:
		i, ok := index()
		if !ok {
			return
		}
		if o.blocks[i] != nil {
			v.Report(RuleOrder, p, "second content_block_start for block %d", i)
			return
		}
		if o.cur != nil {
			v.Report(RuleOrder, p, "content_block_start for block %d while block %d has no content_block_stop", i, *o.cur)
		}
		if i != o.next {
			v.Report(RuleOrder, p, "content_block_start for block %d, expected block %d", i, o.next)
		}
		var b struct {
			Type string `json:"type"`
		}
		json.Unmarshal(se.ContentBlock, &b)
		o.blocks[i] = &msgBlock{typ: b.Type}
		o.cur, o.next = &i, i+1
	case anthropic.EventContentBlockDelta:
		i, ok := index()
		if !ok {
			return
		}
		b := o.blocks[i]
		switch {
		case b == nil:
			v.Report(RuleOrder, p, "content_block_delta for block %d before its content_block_start", i)
			return
		case b.stopped:
			v.Report(RuleOrder, p, "content_block_delta for block %d after its content_block_stop", i)
			return
		}
		var d struct {
			Type string `json:"type"`
		}
		json.Unmarshal(se.Delta, &d)
		if want, known := deltaBlocks[d.Type]; known && !slices.Contains(want, b.typ) {
			v.Report(RuleDelta, p, "%s for block %d, a %s block", d.Type, i, b.typ)
		}
	case anthropic.EventContentBlockStop:
		i, ok := index()
		if !ok {
			return
		}
		b := o.blocks[i]
		switch {
		case b == nil:
			v.Report(RuleOrder, p, "content_block_stop for block %d before its content_block_start", i)
		case b.stopped:
			v.Report(RuleOrder, p, "second content_block_stop for block %d", i)
		default:
			b.stopped = true
			if o.cur != nil && *o.cur == i {
				o.cur = nil
			}
		}
	case anthropic.EventMessageDelta:
		if outside() {
			return
		}
		if o.cur != nil {
			v.Report(RuleOrder, p, "message_delta while block %d has no content_block_stop", *o.cur)
		}
		o.ended = true
	case anthropic.EventMessageStop:
		if outside() {
			return
		}
		if o.cur != nil {
			v.Report(RuleOrder, p, "message_stop while block %d has no content_block_stop", *o.cur)
		}
		if !o.ended {
			v.Report(RuleOrder, p, "message_stop without a message_delta (which carries the stop reason)")
		}
		o.open = false
	case anthropic.EventError:
		o.open = false // the response ends with the error
	}
}
