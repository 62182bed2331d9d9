package openairesp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/emit/internal/lost"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openaistream"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/respwire"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Agent is the scope of events whose agent is empty.
	Agent string
	// Warn receives what the body cannot carry. Nil discards it.
	Warn func(error)
}

// Encoder writes canonical events as Responses API streaming bodies.
type Encoder struct {
	b openaistream.Encoder // output, main agent, the response being written

	seq    int64
	index  int               // next output_index
	output []json.RawMessage // the turn's items, for its final response object
	tools  int
	text   *block          // the open (or ended, awaiting citations) text item
	think  *block          // the open reasoning item
	held   *event.ToolCall // a server or MCP call awaiting its result
	spare  *block          // the memory of the last block finished
	ended  *event.TurnEnd  // a turn end without stop reason: an error may take its place
	// waiting is the end of a main agent's turn that is not over for the
	// run (openaistream.Encoder.Waits): written when the main agent goes on,
	// when the other agents' turns end, or at Close; a cut before then
	// leaves the response unfinished.
	waiting *event.TurnEnd

	scratch []byte // an item being added, reused
	// dhead is the delta events of part dpart (see block.part) up to
	// their delta, without their sequence number, which goes at dsplit.
	dpart    int
	dhead    []byte
	dsplit   int
	parts    int // the parts begun, which number them
	outBytes int // the bytes of the turn's items, kept in output up to maxOutput
	// kept holds the bytes of output's items one after the other: their
	// memory, reused from turn to turn (see dropOutput).
	kept []byte
	jr   jsontext.Reader
	resp respText // the turn's responses' id and model written (appendResponse)
	call callText // the function call being written (functionCall)
}

// maxOutput caps the bytes of the output items the encoder keeps for a
// response's final event: event.DefaultMaxBytes, the readers' cap on one
// SSE message. Beyond it the final event's output is written empty
// (warned once).
const maxOutput = event.DefaultMaxBytes

// block is a message or reasoning item being streamed, and its part
// being streamed (a content part of a message, a summary part of a
// reasoning item): a block of the source is a part, and consecutive
// blocks of one item id are the parts of one item.
type block struct {
	id    string
	qid   []byte // id as a JSON string
	index int
	ref   []byte            // the item's id and index in its events, set by at
	parts []json.RawMessage // the parts done, in partMem
	// partMem holds the parts done one after the other: their memory,
	// reused by the next block (they are copied into the item when it is
	// done, and let go of then).
	partMem []byte
	// esc is the current part's text escaped as a JSON string's, the
	// concatenation of its escaped deltas, while no delta had an invalid
	// byte (which a split character may be); from the first that had
	// one (escBad), text holds the text.
	esc         []byte
	escBad      bool
	text        []byte
	refusal     bool // the current part is a refusal
	ended       bool // the current part's block ended (a text part's citations may follow)
	done        bool // the current part's done events are written
	annotations []json.RawMessage
	sig         string // a reasoning item's encrypted_content
	part        int    // the current part's number among the encoder's (from 1)
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	if cfg == nil {
		cfg = &Config{}
	}
	return &Encoder{b: openaistream.NewEncoder(w, wire.Name, cfg.Agent, cfg.Warn)}
}

func (e *Encoder) warn(what string) { e.b.Warn(what) }

func (e *Encoder) nextSeq() int64 {
	s := e.seq
	e.seq++
	return s
}

// event writes one SSE message of type typ.
func (e *Encoder) event(typ string, v any) {
	if e.b.Err != nil {
		return
	}
	b := appendEventHead(e.b.Buf[:0], typ)
	b, err := appendJSON(b, v)
	e.b.Buf = b
	if err != nil {
		e.b.Err = fmt.Errorf("%s: %w", wire.Name, err)
		return
	}
	e.b.Buf = append(b, "\n\n"...)
	e.b.Write()
}

// appendEventHead appends an SSE message's event line of typ and the
// start of its data line.
func appendEventHead(b []byte, typ string) []byte {
	b = append(append(b, "event: "...), typ...)
	return append(b, "\ndata: "...)
}

func (e *Encoder) response(status string) outResponse {
	out := e.output
	if out == nil {
		out = []json.RawMessage{}
	}
	return outResponse{ID: e.b.ID, Object: "response", CreatedAt: e.b.Created, Status: status, Model: e.b.Model, Output: out}
}

func (e *Encoder) begin(id, model string, created int64) {
	e.b.Begin(id, model, "resp_agentstream_")
	e.b.Created = created
	e.seq, e.index, e.outBytes, e.tools = 0, 0, 0, 0
	e.dropOutput()
	r := e.response(openai.StatusInProgress)
	e.respEvents(&r, evCreated, evInProgress)
}

// respEvents writes an event of each type in types about response r, as
// openai.Marshal writes a respEvent, r's bytes made once (a failed
// response's error object goes through encoding/json).
func (e *Encoder) respEvents(r *outResponse, types ...evType) {
	if r.Error == nil {
		e.scratch = e.appendResponse(e.scratch[:0], r)
	}
	for _, typ := range types {
		seq := e.nextSeq()
		switch {
		case e.b.Err != nil:
		case r.Error != nil:
			e.event(typ.name, respEvent{Type: typ.name, Seq: seq, Response: *r})
		default:
			b := appendHead(e.b.Buf[:0], typ, seq)
			b = append(b, `,"response":`...)
			b = append(b, e.scratch...)
			e.b.Buf = append(b, "}\n\n"...)
			e.b.Write()
		}
	}
}

func (e *Encoder) ensureTurn() {
	if !e.b.Turn {
		e.begin("", "", 0)
	}
}

// end writes the turn's final event: response.completed, or
// response.incomplete for max_tokens and refusal.
func (e *Encoder) end(stop string, u *event.Usage) {
	e.flush()
	if !e.b.Turn {
		return
	}
	status, reason, ok := openai.StatusFromStop(stop)
	if !ok {
		e.warn("stop reason " + stop + " (written as completed)")
	}
	r := e.response(status)
	if reason != "" {
		r.IncompleteDetails = &incomplete{Reason: reason}
	}
	if u != nil {
		o, lost := openai.FromEvent(u)
		if lost {
			e.warn("cache write token counts (counted in input_tokens)")
		}
		r.Usage = wire.UsageOf(o)
		tier, lost := openai.Tier(u)
		if lost {
			e.warn("service tiers of other providers")
		}
		r.ServiceTier = tier
	}
	typ := evCompleted
	if status == openai.StatusIncomplete {
		typ = evIncomplete
	}
	e.respEvents(&r, typ)
	e.b.Turn = false
	e.dropOutput()
}

// fail ends the turn with response.failed.
func (e *Encoder) fail(msg string) {
	e.flush()
	e.ensureTurn()
	r := e.response(openai.StatusFailed)
	r.Error = &openai.APIError{Code: openai.TurnFailed, Message: msg}
	e.respEvents(&r, evFailed)
	e.b.Turn = false
	e.dropOutput()
}

// flush finishes what waits for a next event: a text item (its
// citations or its next part may follow), a reasoning item (its next
// summary part may follow), a held server call.
func (e *Encoder) flush() {
	e.finishText()
	e.finishThinking()
	e.releaseCall(nil)
}

// addItem writes the added event of the next output item, raw (its
// JSON), and returns the item's output index.
func (e *Encoder) addItem(raw []byte) int {
	idx := e.index
	e.index++
	e.itemEvent(evItemAdded, idx, raw)
	return idx
}

// doneItem writes the done event of output item idx, raw, and keeps a
// copy of raw for the response's output, in kept.
func (e *Encoder) doneItem(idx int, raw []byte) {
	if e.outBytes += len(raw); e.outBytes > maxOutput {
		// The final event could not be read back (a reader's cap on one
		// SSE message); the items were each written done.
		e.warn(fmt.Sprintf("the output of a response over %d bytes in its final event (written empty there)", maxOutput))
		clear(e.output)
		e.output, e.kept = e.output[:0:0], nil
	} else {
		// The items kept before stay where they are when kept grows
		// into new memory: nothing writes over them until dropOutput.
		n := len(e.kept)
		e.kept = append(e.kept, raw...)
		e.output = append(e.output, e.kept[n:len(e.kept):len(e.kept)])
	}
	e.itemEvent(evItemDone, idx, raw)
}

// reuseMax is the memory kept for reuse at most: of a turn's items for
// the next turn's (dropOutput), of a block's parts for the next block's
// (freeBlock), of a function call's arguments for the next call's
// (functionCall).
const reuseMax = 1 << 20

// dropOutput forgets the turn's items, when its final event is written
// or a new turn begins; their memory is kept for the next turn's.
func (e *Encoder) dropOutput() {
	clear(e.output)
	e.output = e.output[:0]
	if cap(e.kept) > reuseMax {
		e.kept = nil
	} else {
		e.kept = e.kept[:0]
	}
}

// itemEvent writes an event of type typ about output item idx, raw, as
// appendJSON writes an itemEvent (TestItemEvent).
func (e *Encoder) itemEvent(typ evType, idx int, raw []byte) {
	seq := e.nextSeq()
	if e.b.Err != nil {
		return
	}
	b := num(appendHead(e.b.Buf[:0], typ, seq), `,"output_index":`, int64(idx))
	b = append(append(b, `,"item":`...), raw...)
	e.b.Buf = append(b, "}\n\n"...)
	e.b.Write()
}

// startText returns the open text part. A block of the message item
// being written (same id) is its next content part; another begins a
// new item, with the block's id, else one made up.
func (e *Encoder) startText(id string, refusal bool) *block {
	if b := e.text; b != nil && !b.ended {
		return b
	} else if b != nil && id != "" && id == b.id {
		e.finishPart(b)
		e.newPart(b, refusal)
		return b
	}
	e.finishText()
	e.finishThinking()
	e.releaseCall(nil)
	e.ensureTurn()
	if id == "" {
		id = e.b.NewID("msg_agentstream_")
	}
	b := e.newBlock(id)
	e.scratch = appendMessageAdded(e.scratch[:0], b)
	b.at(e.addItem(e.scratch))
	e.text = b
	e.newPart(b, refusal)
	return b
}

// newPart begins the next content part of message item b.
func (e *Encoder) newPart(b *block, refusal bool) {
	b.reset()
	b.refusal, b.ended, b.done, b.annotations = refusal, false, false, nil
	e.parts++
	b.part = e.parts
	p := emptyTextPart
	if refusal {
		p = emptyRefusalPart
	}
	e.itemField(evPartAdded, b, `,"content_index":`, len(b.parts), `,"part":`, []byte(p), "}")
}

// The parts the added events of a part carry, as appendJSON writes
// textPart{Type: wire.PartOutputText, Annotations: []json.RawMessage{},
// Logprobs: []any{}}, refusalPart{Type: wire.PartRefusal} and
// part{Type: wire.PartSummaryText} (TestEmptyParts).
const (
	emptyTextPart    = `{"type":` + quotedOutputText + `,"annotations":[],"logprobs":[],"text":""}`
	emptyRefusalPart = `{"type":` + quotedRefusal + `,"refusal":""}`
	emptySummaryPart = `{"type":` + quotedSummaryText + `,"text":""}`
)

// finishPart writes the done events of message item b's current part.
// Its text is escaped once, into the part kept for the item, and copied
// from there into the done events.
func (e *Encoder) finishPart(b *block) {
	if b.done {
		return
	}
	b.done = true
	ci := len(b.parts)
	var raw, esc []byte
	if b.refusal {
		raw, esc = b.appendPart([]byte(`{"type":` + quotedRefusal + `,"refusal":`))
		e.itemField(evRefusalDone, b, `,"content_index":`, ci, `,"refusal":`, esc, "}")
	} else {
		anns := b.annotations
		if anns == nil {
			anns = []json.RawMessage{}
		}
		head := append(e.scratch[:0], `{"type":`+quotedOutputText+`,"annotations":`...)
		head = appendRaws(head, anns)
		e.scratch = append(head, `,"logprobs":[],"text":`...)
		raw, esc = b.appendPart(e.scratch)
		e.itemField(evTextDone, b, `,"content_index":`, ci, `,"text":`, esc, `,"logprobs":[]}`)
	}
	e.itemField(evPartDone, b, `,"content_index":`, ci, `,"part":`, raw, "}")
	b.parts = append(b.parts, raw)
}

// The JSON strings of the part types whose done events finishPart and
// endSummary write by hand.
const (
	quotedOutputText  = `"` + wire.PartOutputText + `"`
	quotedRefusal     = `"` + wire.PartRefusal + `"`
	quotedSummaryText = `"` + wire.PartSummaryText + `"`
)

// reset empties the current part's text.
func (b *block) reset() {
	b.text, b.esc, b.escBad = b.text[:0], b.esc[:0], false
}

// newBlock returns a block of item id, with the memory of the last one
// finished (spare).
func (e *Encoder) newBlock(id string) *block {
	b := e.spare
	if b == nil {
		b = &block{}
	}
	e.spare = nil
	*b = block{
		id: id, qid: jsontext.AppendMarshalString(b.qid[:0], id), ref: b.ref[:0],
		parts: b.parts[:0], partMem: b.partMem[:0], text: b.text[:0], esc: b.esc[:0],
	}
	return b
}

// at notes that b's item is output item idx: its id and index are
// written once, for each of its events to copy.
func (b *block) at(idx int) {
	b.index = idx
	b.ref = append(append(b.ref[:0], `,"item_id":`...), b.qid...)
	b.ref = num(b.ref, `,"output_index":`, int64(idx))
}

// freeBlock keeps the memory of b, finished, for the next block.
func (e *Encoder) freeBlock(b *block) {
	clear(b.parts)
	if cap(b.partMem) > reuseMax {
		b.partMem = nil
	}
	e.spare = b
}

// appendPart returns a part whose last field is its text, made in
// partMem: head (the part up to that field's value), the current part's
// text as a JSON string, and '}'; and the escaped text in it. The parts
// made before stay where they are when partMem grows into new memory.
func (b *block) appendPart(head []byte) (part, esc []byte) {
	n := len(b.partMem)
	p := append(b.partMem, head...)
	start := len(p)
	if !b.escBad {
		p = append(append(append(p, '"'), b.esc...), '"')
	} else {
		p = jsontext.AppendMarshalString(p, string(b.text))
	}
	b.partMem = append(p, '}')
	return b.partMem[n:len(b.partMem):len(b.partMem)], b.partMem[start : len(b.partMem)-1]
}

// itemField writes an event of type typ about item b whose fields after
// the item's output index are idxKey with idx, then key with val (JSON
// already), then tail, which closes the object: the done events of a
// part, as appendJSON writes them.
func (e *Encoder) itemField(typ evType, b *block, idxKey string, idx int, key string, val []byte, tail string) {
	seq := e.nextSeq()
	if e.b.Err != nil {
		return
	}
	buf := append(appendHead(e.b.Buf[:0], typ, seq), b.ref...)
	buf = num(buf, idxKey, int64(idx))
	buf = append(buf, key...)
	buf = append(buf, val...)
	buf = append(buf, tail...)
	e.b.Buf = append(buf, "\n\n"...)
	e.b.Write()
}

// appendMessageAdded appends the message item of b as its added event
// carries it: as appendJSON writes a messageItem of b's id, in progress,
// role assistant, no content yet (TestMessageItem); written by hand from
// the id b escaped once.
func appendMessageAdded(dst []byte, b *block) []byte {
	dst = append(append(dst, `{"id":`...), b.qid...)
	return append(dst, `,"type":"`+wire.ItemMessage+`","status":"`+openai.StatusInProgress+`","role":"assistant","content":[]}`...)
}

// appendMessageDone appends the message item of b, completed, its
// content b's parts, as appendMessageAdded appends it added.
func appendMessageDone(dst []byte, b *block) []byte {
	dst = append(append(dst, `{"id":`...), b.qid...)
	dst = append(dst, `,"type":"`+wire.ItemMessage+`","status":"`+openai.StatusCompleted+`","role":"assistant","content":`...)
	return append(appendRaws(dst, b.parts), '}')
}

// finishText ends the message item being written.
func (e *Encoder) finishText() {
	b := e.text
	if b == nil {
		return
	}
	e.text = nil
	e.finishPart(b)
	e.scratch = appendMessageDone(e.scratch[:0], b)
	e.doneItem(b.index, e.scratch)
	e.freeBlock(b)
}

// startThinking returns the open summary part. A block of the reasoning
// item being written (same id) is its next summary part; another begins
// a new item, with the block's id, else one made up.
func (e *Encoder) startThinking(id string) *block {
	if b := e.think; b != nil && !b.ended {
		return b
	} else if b != nil && id != "" && id == b.id {
		e.newSummary(b)
		return b
	}
	e.finishText()
	e.finishThinking()
	e.releaseCall(nil)
	e.ensureTurn()
	if id == "" {
		id = e.b.NewID("rs_agentstream_")
	}
	b := e.newBlock(id)
	e.scratch = appendReasoningItem(e.scratch[:0], &reasoningItem{ID: b.id, Type: wire.ItemReasoning, Summary: []json.RawMessage{}})
	b.at(e.addItem(e.scratch))
	e.think = b
	e.newSummary(b)
	return b
}

// newSummary begins the next summary part of reasoning item b.
func (e *Encoder) newSummary(b *block) {
	b.reset()
	b.ended, b.sig = false, ""
	e.parts++
	b.part = e.parts
	e.itemField(evSummaryPartAdded, b, `,"summary_index":`, len(b.parts), `,"part":`, []byte(emptySummaryPart), "}")
}

// endSummary writes the done events of the current summary part of the
// reasoning item being written; sig is the item's encrypted_content
// when this is its last part.
func (e *Encoder) endSummary(sig string) {
	b := e.think
	if b == nil || b.ended {
		return
	}
	b.ended, b.sig = true, sig
	si := len(b.parts)
	raw, esc := b.appendPart([]byte(`{"type":` + quotedSummaryText + `,"text":`))
	e.itemField(evSummaryDone, b, `,"summary_index":`, si, `,"text":`, esc, "}")
	e.itemField(evSummaryPartDone, b, `,"summary_index":`, si, `,"part":`, raw, "}")
	b.parts = append(b.parts, raw)
}

// finishThinking ends the reasoning item being written.
func (e *Encoder) finishThinking() {
	b := e.think
	if b == nil {
		return
	}
	e.endSummary("")
	e.think = nil
	e.scratch = appendReasoningItem(e.scratch[:0], &reasoningItem{ID: b.id, Type: wire.ItemReasoning, Summary: b.parts, EncryptedContent: b.sig})
	e.doneItem(b.index, e.scratch)
	e.freeBlock(b)
}

// Encode writes the stream events of ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.b.Err != nil {
		return e.b.Err
	}
	agent, main := e.b.Agent(ev)
	if !main {
		e.b.Other(agent, ev)
		if w := e.waiting; w != nil && !e.b.Waits() {
			e.waiting = nil
			e.end(w.StopReason, w.Usage)
		}
		e.warn("subagents (only the main agent's turns are written)")
		return e.b.Err
	}
	if w := e.waiting; w != nil && !openai.Aside(ev) {
		e.waiting = nil
		e.end(w.StopReason, w.Usage)
	}
	if er, ok := ev.(*event.Error); ok && !er.Fatal {
		// The run went on: an error event would end the response, and
		// the SDKs raise at it.
		e.warn("non-fatal errors (an error event ends the response)")
		return nil
	}
	if h := e.ended; h != nil {
		e.ended = nil
		if _, ok := ev.(*event.Error); !ok {
			e.end(h.StopReason, h.Usage)
		} else if h.Usage != nil {
			e.warn("the usage of a response an error ended")
		}
	}
	if e.text != nil && e.text.ended && !e.continuesText(ev) {
		e.finishText()
	}
	if r, ok := ev.(*event.ToolResult); ok && e.held != nil && r.ID == e.held.ID {
		e.releaseCall(r)
		return e.b.Err
	}
	e.releaseCall(nil)
	switch ev := ev.(type) {
	case *event.SessionStart:
		e.b.Session(ev)
	case *event.Error:
		e.errorEvent(ev)
	case *event.Unknown:
		e.unknown(ev)
	case *event.TurnStart:
		e.b.Explicit = true
		e.end("", nil)
		e.begin(ev.MessageID, ev.Model, ev.Created)
	case *event.TurnEnd:
		e.b.TurnUsage = e.b.TurnUsage || ev.Usage != nil
		if ev.Error != "" {
			e.fail(ev.Error)
			break
		}
		if ev.StopReason == "" {
			e.flush()
			e.ended = ev
			break
		}
		if e.b.Waits() {
			e.flush()
			e.waiting = ev
			break
		}
		e.end(ev.StopReason, ev.Usage)
	case *event.BlockStart:
		if ev.Kind == event.Thinking {
			e.startThinking(ev.ID)
		} else {
			e.startText(ev.ID, ev.Refusal)
		}
	case *event.Delta:
		e.delta(ev)
	case *event.BlockEnd:
		if ev.Kind == event.Thinking {
			e.startThinking("")
			e.endSummary(ev.Signature)
		} else {
			e.startText("", false).ended = true
		}
	case *event.Citations:
		e.citations(ev)
	case *event.ToolCall:
		e.toolCall(ev)
	case *event.ToolResult:
		if e.b.Result(ev, e.tools, "server tool results of other providers") {
			e.end(openai.StopToolUse, nil)
		}
	case *event.RunEnd:
		// A run no turn of which had usage: its usage is the usage of
		// the response it ends inside (a source without turns).
		var u *event.Usage
		if !e.b.TurnUsage {
			u = ev.Usage
		}
		e.end(ev.StopReason, u)
		e.warn("run summaries")
	default:
		e.warn(lost.Kind(ev))
	}
	return e.b.Err
}

func (e *Encoder) delta(ev *event.Delta) {
	var b *block
	if ev.Kind == event.Thinking {
		b = e.startThinking("")
	} else {
		b = e.startText("", false)
	}
	bad, n := b.escBad, len(b.esc)
	switch {
	case ev.Kind == event.Thinking:
		e.deltas(wire.EvSummaryDelta, b.id, b.index, `"summary_index":`, len(b.parts), ev.Text, "", b)
	case b.refusal:
		e.deltas(wire.EvRefusalDelta, b.id, b.index, `"content_index":`, len(b.parts), ev.Text, "", b)
	default:
		e.deltas(wire.EvTextDelta, b.id, b.index, `"content_index":`, len(b.parts), ev.Text, `,"logprobs":[]`, b)
	}
	if b.escBad {
		if !bad {
			// The deltas before this one were valid: their text is
			// what their escaped text says.
			var s string
			json.Unmarshal(append(append([]byte{'"'}, b.esc[:n]...), '"'), &s)
			b.text = append(b.text[:0], s...)
		}
		b.text = append(b.text, ev.Text...)
	}
}

// continuesText reports whether ev belongs to the message item whose
// text part ended: its citations, or its next part.
func (e *Encoder) continuesText(ev event.Event) bool {
	switch ev := ev.(type) {
	case *event.Citations:
		return true
	case *event.BlockStart:
		return ev.Kind == event.Text && ev.ID != "" && ev.ID == e.text.id
	}
	return false
}

// deltas writes s as delta events of type typ of item id at output index
// idx, in pieces of at most openai.MaxDelta bytes, as encoding/json writes
// textDelta, summaryDelta and argsDelta (midKey and mid, the index of
// the part, when not empty, and end are their fields before and after
// the delta), without allocating; and appends the escaped pieces to
// blk.esc, when blk is not nil.
func (e *Encoder) deltas(typ, id string, idx int, midKey string, mid int, s, end string, blk *block) {
	if blk == nil || blk.part != e.dpart {
		h := appendTypeHead(e.dhead[:0], typ)
		e.dsplit = len(h)
		if blk != nil {
			e.dpart = blk.part
			h = append(h, blk.ref...) // id and idx, written once for the item
		} else {
			e.dpart = 0 // the arguments of a call come in one call
			h = appendItemRef(h, id, idx)
		}
		h = append(h, ',')
		if midKey != "" {
			h = append(h, midKey...)
			h = strconv.AppendInt(h, int64(mid), 10)
			h = append(h, ',')
		}
		e.dhead = append(h, `"delta":`...)
	}
	for rest := s; rest != "" && e.b.Err == nil; {
		var p string
		p, rest = openai.Cut(rest)
		b := append(e.b.Buf[:0], e.dhead[:e.dsplit]...)
		b = strconv.AppendInt(b, e.nextSeq(), 10)
		b = append(b, e.dhead[e.dsplit:]...)
		start := len(b)
		b = jsontext.AppendMarshalString(b, p)
		if blk != nil && !blk.escBad {
			esc := b[start+1 : len(b)-1]
			blk.esc = append(blk.esc, esc...)
			// An invalid byte written as \ufffd makes the text 5 bytes
			// longer; other escapes, 1 to 5.
			blk.escBad = len(esc) >= len(p)+5 && replaced(esc)
		}
		b = append(b, end...)
		e.b.Buf = append(b, "}\n\n"...)
		e.b.Write()
	}
}

// replaced reports whether esc, text escaped by AppendMarshalString, has
// a \ufffd escape: the text had an invalid byte (U+FFFD itself is written
// as it is).
func replaced(esc []byte) bool {
	for i := bytes.IndexByte(esc, '\\'); i >= 0; {
		if esc[i+1] == 'u' {
			if string(esc[i+2:i+6]) == "fffd" {
				return true
			}
			i += 6
		} else {
			i += 2
		}
		j := bytes.IndexByte(esc[i:], '\\')
		if j < 0 {
			break
		}
		i += j
	}
	return false
}

// citations writes annotations into the text part that just ended.
func (e *Encoder) citations(ev *event.Citations) {
	b := e.text
	if b == nil || b.done {
		b = e.startText("", false)
	}
	b.ended = true
	for _, c := range ev.Items {
		raw := annotation(c)
		if raw == nil {
			e.warn("citations without a URL or file")
			continue
		}
		e.event(wire.EvAnnotation, annotationEvent{
			Type: wire.EvAnnotation, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index, ContentIndex: len(b.parts),
			AnnotationIndex: len(b.annotations), Annotation: raw,
		})
		b.annotations = append(b.annotations, raw)
	}
	e.finishPart(b)
}

// annotation returns a citation as an output_text annotation: its Raw
// when it was one, else a url_citation; nil when it has no URL.
func annotation(c event.Citation) json.RawMessage {
	switch c.Type {
	case "url_citation", "file_citation", "container_file_citation", "file_path":
		if len(c.Raw) > 0 && json.Valid(c.Raw) {
			return jsontext.CompactValid(c.Raw)
		}
	}
	if c.URL == nil {
		return nil
	}
	type urlCitation struct {
		Type       string `json:"type"`
		URL        string `json:"url"`
		Title      string `json:"title"`
		StartIndex int64  `json:"start_index"`
		EndIndex   int64  `json:"end_index"`
	}
	u := urlCitation{Type: "url_citation", URL: *c.URL}
	if c.Title != nil {
		u.Title = *c.Title
	}
	if c.StartCharIndex != nil {
		u.StartIndex = *c.StartCharIndex
	}
	if c.EndCharIndex != nil {
		u.EndIndex = *c.EndCharIndex
	}
	raw, _ := openai.Marshal(u)
	return raw
}

func (e *Encoder) toolCall(ev *event.ToolCall) {
	e.flush()
	if ev.Server || ev.MCPServer != "" {
		e.held = ev // its item carries its result: wait for it
		return
	}
	e.ensureTurn()
	e.tools++
	e.b.Called(ev.ID)
	input := ev.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	id := ev.ItemID
	if id == "" {
		id = e.b.NewID("fc_agentstream_")
	}
	if ev.Name == wire.ToolSearchTool && input[0] == '{' {
		// Codex's client tool search: an item of its own, whose
		// arguments are an object, written whole as the API does.
		item := toolSearchItem{ID: id, Type: wire.ItemToolSearch, CallID: ev.ID, Execution: "client", Status: openai.StatusCompleted, Arguments: input}
		if !jsontext.Valid(&e.jr, input) {
			_, e.b.Err = openai.Marshal(item) // encoding/json's error
			return
		}
		item.Arguments = jsontext.CompactValid(input)
		e.scratch = appendToolSearchItem(e.scratch[:0], &item)
		e.doneItem(e.addItem(e.scratch), e.scratch)
		return
	}
	var free string
	if input[0] == '"' && json.Unmarshal(input, &free) == nil {
		// Free text, not JSON arguments: a custom tool call.
		e.scratch = appendCustomItem(e.scratch[:0], &customItem{ID: id, Type: wire.ItemCustomToolCall, Status: openai.StatusInProgress, CallID: ev.ID, Name: ev.Name})
		idx := e.addItem(e.scratch)
		e.argDeltas(wire.EvCustomInputDelta, id, idx, free)
		e.event(wire.EvCustomInputDone, inputDone{Type: wire.EvCustomInputDone, Seq: e.nextSeq(), ItemID: id, OutputIndex: idx, Input: free})
		e.scratch = appendCustomItem(e.scratch[:0], &customItem{ID: id, Type: wire.ItemCustomToolCall, Status: openai.StatusCompleted, CallID: ev.ID, Name: ev.Name, Input: free})
		e.doneItem(idx, e.scratch)
		return
	}
	e.functionCall(id, ev, string(e.compact(input)))
}

// functionCall writes the events of function call ev, id its item's,
// args its arguments: its item added, its arguments' deltas and done
// event, its item done. What they share (the item id, the arguments, the
// call id and name) is escaped once, and the events but the deltas are
// written by hand: as appendJSON writes itemEvent, argsDone and
// functionItem (TestFunctionCall).
func (e *Encoder) functionCall(id string, ev *event.ToolCall, args string) {
	c := &e.call
	c.id = jsontext.AppendMarshalString(c.id[:0], id)
	c.args = jsontext.AppendMarshalString(c.args[:0], args)
	c.tail = jsontext.AppendMarshalString(append(c.tail[:0], `,"call_id":`...), ev.ID)
	c.tail = append(jsontext.AppendMarshalString(append(c.tail, `,"name":`...), ev.Name), '}')
	e.scratch = c.appendItem(e.scratch[:0], openai.StatusInProgress, []byte(`""`))
	idx := e.addItem(e.scratch)
	e.argDeltas(wire.EvArgsDelta, id, idx, args)
	if seq := e.nextSeq(); e.b.Err == nil {
		b := append(append(appendHead(e.b.Buf[:0], evArgsDone, seq), `,"item_id":`...), c.id...)
		b = append(num(b, `,"output_index":`, int64(idx)), `,"arguments":`...)
		e.b.Buf = append(append(b, c.args...), "}\n\n"...)
		e.b.Write()
	}
	e.scratch = c.appendItem(e.scratch[:0], openai.StatusCompleted, c.args)
	e.doneItem(idx, e.scratch)
	if cap(c.args) > reuseMax || cap(e.scratch) > reuseMax {
		c.args, e.scratch = nil, nil // a large call's memory is not kept for the next
	}
}

// callText is what the events of a function call share, escaped once
// (Encoder.functionCall): its item id and its arguments as JSON strings,
// and the end of its item from its call_id on.
type callText struct{ id, args, tail []byte }

// appendItem appends the function call's item with status (one of
// openai's, which need no escaping) and args (a JSON string).
func (c *callText) appendItem(b []byte, status string, args []byte) []byte {
	b = append(append(b, `{"id":`...), c.id...)
	b = append(append(b, `,"type":"`+wire.ItemFunctionCall+`","status":"`...), status...)
	b = append(append(b, `","arguments":`...), args...)
	return append(b, c.tail...)
}

// compact returns raw without insignificant white space, or raw itself
// when it is not valid JSON, as jsontext.Compact does, in one pass by
// e's reader where it can (jsontext.Compacted).
func (e *Encoder) compact(raw []byte) []byte {
	if c, ok := jsontext.Compacted(&e.jr, raw); ok {
		return c
	}
	return raw
}

func (e *Encoder) argDeltas(typ, id string, idx int, s string) {
	e.deltas(typ, id, idx, "", 0, s, "", nil)
}

// releaseCall writes the held server or MCP call, with its result r
// (nil when the next event was something else).
func (e *Encoder) releaseCall(r *event.ToolResult) {
	c := e.held
	if c == nil {
		return
	}
	e.held = nil
	e.ensureTurn()
	if c.Server {
		var it wire.Item
		if r == nil || json.Unmarshal(r.Structured, &it) != nil || !wire.IsServerItem(it.Type) {
			e.warn("server tool calls of other providers")
			return
		}
		raw := jsontext.CompactValid(r.Structured) // it unmarshalled
		e.doneItem(e.addItem(raw), raw)
		return
	}
	args := string(e.compact(c.Input))
	if len(c.Input) == 0 {
		args = "{}"
	}
	item := mcpItem{ID: c.ID, Type: wire.ItemMCPCall, ServerLabel: c.MCPServer, Name: c.Name}
	e.scratch = appendMcpItem(e.scratch[:0], &item)
	idx := e.addItem(e.scratch)
	e.argDeltas(wire.EvMCPArgsDelta, c.ID, idx, args)
	e.event(wire.EvMCPArgsDone, argsDone{Type: wire.EvMCPArgsDone, Seq: e.nextSeq(), ItemID: c.ID, OutputIndex: idx, Arguments: args})
	item.Arguments = args
	if r != nil {
		item.Status = r.Status
		var text []string
		for _, p := range r.Content {
			if p.Type == "text" {
				text = append(text, p.Text)
			}
		}
		s := strings.Join(text, "\n")
		if r.IsError {
			item.Error = &s
		} else {
			item.Output = &s
		}
	}
	e.scratch = appendMcpItem(e.scratch[:0], &item)
	e.doneItem(idx, e.scratch)
}

// unknown writes back an item or event of this format the decoder kept.
func (e *Encoder) unknown(ev *event.Unknown) {
	var m map[string]json.RawMessage
	if ev.Format != wire.Name || json.Unmarshal(ev.Raw, &m) != nil {
		e.warn("unknown " + ev.Format + " events")
		return
	}
	var typ string
	json.Unmarshal(m["type"], &typ)
	if strings.HasPrefix(typ, "response.") || typ == "" || typ == wire.EvError {
		// An event type the SDKs do not know makes them fail: only
		// unknown items, which they keep, are written back.
		e.warn("unknown " + wire.Name + " event types")
		return
	}
	e.flush()
	e.ensureTurn()
	raw := json.RawMessage(jsontext.CompactValid(ev.Raw)) // it unmarshalled
	e.doneItem(e.addItem(raw), raw)
}

// errorEvent writes an error event, which ends the response it
// interrupts (Encode drops a non-fatal one).
func (e *Encoder) errorEvent(ev *event.Error) {
	e.flush()
	out := errorEvent{Type: wire.EvError, Code: nilIfEmpty(ev.Type), Message: ev.Message}
	var orig openai.APIError
	if json.Unmarshal(ev.Raw, &orig) == nil && orig.Kind() == ev.Type && orig.Message == ev.Message {
		out.Param = orig.Param // the error this format's decoder read
	}
	out.Seq = e.nextSeq()
	e.event(wire.EvError, out)
	e.b.Turn = false
	e.dropOutput()
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Cut ends a stream whose input was cut off (event.Cutter): a response
// the source ended is ended; the response being written gets no
// response.completed, nor does one whose turn was not over for the run
// (a client tool call of it waiting for its result, the other choices
// of its completion still streaming: what the cut came inside of).
func (e *Encoder) Cut() error {
	if e.b.Err != nil {
		return e.b.Err
	}
	e.waiting = nil
	if h := e.ended; h != nil {
		e.ended = nil
		if e.b.Waits() {
			e.flush()
		} else {
			e.end(h.StopReason, h.Usage)
		}
	}
	if (e.text == nil || e.text.ended) && (e.think == nil || e.think.ended) {
		e.flush() // an ended text item's citations, a held server call
	}
	if e.b.Err != nil {
		return e.b.Err
	}
	return fmt.Errorf("%s: %w: the input was cut off, no response.completed written", wire.Name, event.ErrTruncated)
}

// Close ends the open response. When a text or reasoning block is still
// open (the input was cut off), it writes no final event, like the
// stream it copies, and reports the truncation.
func (e *Encoder) Close() error {
	if e.b.Err != nil {
		return e.b.Err
	}
	if w := e.waiting; w != nil {
		e.waiting = nil
		e.end(w.StopReason, w.Usage)
	}
	if h := e.ended; h != nil {
		e.ended = nil
		e.end(h.StopReason, h.Usage)
	}
	if (e.text != nil && !e.text.ended) || (e.think != nil && !e.think.ended) {
		return fmt.Errorf("%s: %w: a block was left open, no response.completed written", wire.Name, event.ErrTruncated)
	}
	e.end("", nil)
	return e.b.Err
}
