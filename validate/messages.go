package validate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"slices"

	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/messages"
	"github.com/agentstream/agentstream/parse/claude"
)

// msgOrder checks the order of one scope's Messages API stream events:
// message_start, then per block content_block_start, its deltas and
// content_block_stop, blocks one at a time in index order, then
// message_delta and message_stop.
type msgOrder struct {
	open   bool // inside a message
	start  pos
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
	messages.DeltaText:      {messages.BlockText},
	messages.DeltaCitations: {messages.BlockText},
	messages.DeltaThinking:  {messages.BlockThinking},
	messages.DeltaSignature: {messages.BlockThinking},
	messages.DeltaInputJSON: {messages.BlockToolUse, messages.BlockServerToolUse, messages.BlockMCPToolUse},
}

func (o *msgOrder) event(v *checker, p pos, raw []byte) {
	var se messages.StreamEvent
	if json.Unmarshal(raw, &se) != nil {
		return // the decoder reports it
	}
	outside := func() bool {
		if !o.open {
			v.report(MsgOrder, p, "%s outside a message (no message_start before it)", se.Type)
			return true
		}
		return false
	}
	index := func() (int, bool) {
		if se.Index == nil {
			v.report(MsgOrder, p, "%s has no index", se.Type)
			return 0, false
		}
		return *se.Index, true
	}
	switch se.Type {
	case messages.EventMessageStart:
		if o.open {
			v.report(MsgOrder, p, "message_start while the message started at line %d has no message_stop", o.start.line)
		}
		*o = msgOrder{open: true, start: p, blocks: map[int]*msgBlock{}}
	case messages.EventContentBlockStart:
		if outside() {
			return
		}
		i, ok := index()
		if !ok {
			return
		}
		if o.blocks[i] != nil {
			v.report(MsgOrder, p, "second content_block_start for block %d", i)
			return
		}
		if o.cur != nil {
			v.report(MsgOrder, p, "content_block_start for block %d while block %d has no content_block_stop", i, *o.cur)
		}
		if i != o.next {
			v.report(MsgOrder, p, "content_block_start for block %d, expected block %d", i, o.next)
		}
		var b struct {
			Type string `json:"type"`
		}
		json.Unmarshal(se.ContentBlock, &b)
		o.blocks[i] = &msgBlock{typ: b.Type}
		o.cur, o.next = &i, i+1
	case messages.EventContentBlockDelta:
		if outside() {
			return
		}
		i, ok := index()
		if !ok {
			return
		}
		b := o.blocks[i]
		switch {
		case b == nil:
			v.report(MsgOrder, p, "content_block_delta for block %d before its content_block_start", i)
			return
		case b.stopped:
			v.report(MsgOrder, p, "content_block_delta for block %d after its content_block_stop", i)
			return
		}
		var d struct {
			Type string `json:"type"`
		}
		json.Unmarshal(se.Delta, &d)
		if want, known := deltaBlocks[d.Type]; known && !slices.Contains(want, b.typ) {
			v.report(MsgDelta, p, "%s for block %d, a %s block", d.Type, i, b.typ)
		}
	case messages.EventContentBlockStop:
		if outside() {
			return
		}
		i, ok := index()
		if !ok {
			return
		}
		b := o.blocks[i]
		switch {
		case b == nil:
			v.report(MsgOrder, p, "content_block_stop for block %d before its content_block_start", i)
		case b.stopped:
			v.report(MsgOrder, p, "second content_block_stop for block %d", i)
		default:
			b.stopped = true
			if o.cur != nil && *o.cur == i {
				o.cur = nil
			}
		}
	case messages.EventMessageDelta:
		if outside() {
			return
		}
		if o.cur != nil {
			v.report(MsgOrder, p, "message_delta while block %d has no content_block_stop", *o.cur)
		}
		o.ended = true
	case messages.EventMessageStop:
		if outside() {
			return
		}
		if o.cur != nil {
			v.report(MsgOrder, p, "message_stop while block %d has no content_block_stop", *o.cur)
		}
		if !o.ended {
			v.report(MsgOrder, p, "message_stop without a message_delta (which carries the stop reason)")
		}
		o.open = false
	case messages.EventError:
		o.open = false // the response ends with the error
	}
}

// anthropic checks the wire rules of a Messages API SSE body.
func (v *checker) anthropic(r io.Reader) {
	f := frame.NewSSE(bufio.NewReaderSize(r, 64<<10), v.cfg.Source, v.cfg.MaxEventBytes)
	var o msgOrder
	for {
		m, err := f.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if isParseError(err) {
				continue // the decoder reports it
			}
			return
		}
		p := pos{m.Line, 1}
		if m.Type == messages.EventPing || m.Data == "" {
			continue
		}
		var t struct {
			Type string `json:"type"`
		}
		if json.Unmarshal([]byte(m.Data), &t) != nil {
			continue // the decoder reports it
		}
		if m.Type != "" && t.Type != m.Type {
			v.report(MsgEventName, p, "event: %s carries data of type %s", m.Type, t.Type)
		}
		o.event(v, p, []byte(m.Data))
	}
}

// claude checks the wire rules of Claude Code stream-json: the order of
// stream_event lines per agent scope, and the result line.
func (v *checker) claude(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	if peekNonBlank(br) == '[' {
		return // --output-format json: one array, no stream events
	}
	lines := frame.NewLines(br, v.cfg.Source, v.cfg.MaxEventBytes)
	order := map[string]*msgOrder{}
	var last pos
	result := false
	any := false
	for {
		line, num, _, err := lines.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if isParseError(err) {
				continue // the decoder reports it
			}
			return
		}
		// The decoder accepts several JSON values on one line; so does this.
		dec := json.NewDecoder(bytes.NewReader(line))
		for dec.More() {
			var l claude.Line
			if dec.Decode(&l) != nil {
				break // the decoder reports it
			}
			p := pos{num, 1}
			any, last = true, p
			switch l.Type {
			case claude.TypeStreamEvent:
				scope := ""
				if l.ParentToolUseID != nil {
					scope = *l.ParentToolUseID
				}
				o := order[scope]
				if o == nil {
					o = &msgOrder{}
					order[scope] = o
				}
				o.event(v, p, l.Event)
			case claude.TypeResult:
				if l.ParentToolUseID == nil || *l.ParentToolUseID == "" {
					result = true
				}
			}
		}
	}
	if any && !result {
		v.report(ClaudeResult, last, "stream has no result line (the run did not finish, or the stream was cut)")
	}
}

// peekNonBlank returns the first byte of br that is not blank space, or 0.
func peekNonBlank(br *bufio.Reader) byte {
	for n := 1; ; n++ {
		b, _ := br.Peek(n)
		if len(b) < n {
			return 0
		}
		switch c := b[n-1]; c {
		case ' ', '\t', '\r', '\n':
			continue
		default:
			return c
		}
	}
}
