package convert

import (
	"fmt"
	"slices"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// AbandonMarker is an Encoder whose format writes a partial message its
// source abandoned (event.NoticeAbandoned: a message given up and begun
// again) its own way: marked as given up (jsonenv's rollback envelope,
// an Anthropic message left without its stop), or left out. HoldAbandoned
// leaves what such an encoder writes alone.
type AbandonMarker interface {
	MarksAbandoned() bool
}

// MaxAbandonHold caps what an AbandonHold holds (the events it has
// taken and not yet passed on, each counted as its text and payloads
// plus a fixed 64 bytes): past it, everything held is written, and a
// block written so cannot be dropped if its source abandons it later
// (warned then).
const MaxAbandonHold = 1 << 20

// AbandonHold is the stage that drops what a source abandons for an
// encoder whose format cannot mark it: as assemble does, the text and
// thinking blocks an agent has open when its source gives the message up
// (event.NoticeAbandoned) are no part of the answer, so they are never
// written, and the notice is passed on.
//
// While the source may abandon (its format's Abandons), a text or
// thinking block is held from its start until it is known not to be
// abandoned: at its BlockEnd, at an Error of its agent (which cuts it
// short, as assemble ends it), at a new start of its kind (which ends
// it, truncated), or at the end of the input (Close, Cut). Everything
// that comes after a held block is held behind it, so the output keeps
// the input's order; it all leaves, in order, as soon as nothing before
// it is still held. Flush lets what is held go only on a live input
// (SetLive). For a source that cannot abandon,
// or an encoder that marks abandons itself (AbandonMarker), the stage
// holds nothing and passes every event on at once.
//
// What is held is bounded by MaxAbandonHold; past it everything held
// leaves at once and a block of it abandoned later is written as the
// target writes an interrupted block, warned. The blocks written so and
// still open are remembered, at most maxLeaked, for that warning.
type AbandonHold struct {
	enc  event.Encoder
	to   string
	warn func(error)
	on   bool // the source may abandon and enc cannot mark it
	// live: the input may wait for data not yet arrived (SetLive), so
	// Flush lets what is held go; liveLeak: it did for a block still open.
	live, liveLeak bool

	q      []held            // the events held, in input order
	bytes  int               // their cost (see cost)
	open   map[blockKey]bool // the blocks open in the input whose events are in q (true) or were written (false)
	leaked int               // the blocks open in open that were written (false)
	// last is open's entry for the block of the last Delta looked up
	// (a block's deltas come one after another: each run of them
	// hashes its key once). It is dropped whenever an entry of open
	// changes or goes; a new entry changes no other.
	last struct {
		key       blockKey
		tentative bool
		ok        bool
	}
	losses event.Losses
	err    error // of a release SetSource made, returned by the next Encode
}

type held struct {
	ev event.Event
	// key is the block the event is part of (a BlockStart or Delta of
	// a block that may still be abandoned); tentative says it still may.
	key       blockKey
	tentative bool
}

type blockKey struct {
	agent string
	kind  event.BlockKind
}

// maxLeaked bounds the open blocks an AbandonHold remembers as written
// past MaxAbandonHold: past it a block written so is not remembered (its
// abandon, if it comes, is not warned about as written).
const maxLeaked = 1024

// HoldAbandoned returns the stage in front of enc, an encoder of format
// to, for a run read in format from (see AbandonHold). Warnings go to
// warn.
func HoldAbandoned(enc event.Encoder, from format.Format, to Format, warn func(error)) *AbandonHold {
	h := &AbandonHold{enc: enc, to: to.Name, warn: warn, open: map[blockKey]bool{}}
	h.SetSource(from)
	return h
}

// SetSource says the events to come are read in format from (a command
// reading several inputs into one output calls it before each). A
// source that cannot abandon lets what is held go.
func (h *AbandonHold) SetSource(from format.Format) {
	m, ok := h.enc.(AbandonMarker)
	h.on = from.Abandons && !(ok && m.MarksAbandoned())
	if !h.on {
		h.err = h.release(len(h.q))
		clear(h.open)
		h.last.ok = false
		h.leaked = 0
	}
}

// SetLive says whether the input being read is live: a pipe, a URL or a
// file followed (-F), where a read may wait for data that has not
// arrived. On a live input Flush (called when the input has nothing more
// buffered) lets what is held go, so that text leaves as it arrives, as
// the streaming law asks; a block written so that its source abandons
// later stays written, warned. A file read to its end holds, and drops
// exactly. An encoder that holds output of its own until it is known to
// stand (emit/acp's setup answers) is told too.
func (h *AbandonHold) SetLive(live bool) {
	h.live = live
	if l, ok := h.enc.(interface{ SetLive(bool) }); ok {
		l.SetLive(live)
	}
}

// Encode passes ev on, or holds it (see AbandonHold).
func (h *AbandonHold) Encode(ev event.Event) error {
	if h.err != nil {
		return h.err
	}
	if !h.on {
		return h.enc.Encode(ev)
	}
	agent := ev.AgentID()
	e := held{ev: ev}
	switch ev := ev.(type) {
	case *event.BlockStart:
		k := blockKey{agent, ev.Kind}
		h.settle(k) // a block begun again without its end: ended, truncated
		e.key, e.tentative = k, true
		h.open[k] = true
	case *event.Delta:
		k := blockKey{agent, ev.Kind}
		if !h.last.ok || h.last.key != k {
			t, ok := h.open[k]
			if !ok {
				t = true
				h.open[k] = t // a delta opens its block (as assemble has it)
			}
			h.last.key, h.last.tentative, h.last.ok = k, t, true
		}
		e.key, e.tentative = k, h.last.tentative
	case *event.BlockEnd:
		h.settle(blockKey{agent, ev.Kind})
	case *event.Error:
		h.settle(blockKey{agent, event.Text})
		h.settle(blockKey{agent, event.Thinking})
	case *event.Notice:
		if ev.Kind == event.NoticeAbandoned {
			h.drop(agent)
		}
	}
	if len(h.q) == 0 && !e.tentative {
		return h.enc.Encode(ev)
	}
	h.q = append(h.q, e)
	h.bytes += cost(ev)
	if h.bytes > MaxAbandonHold {
		h.spill()
	}
	return h.release(h.firm())
}

// settle says block k is known not to be abandoned (ended, or cut short):
// its held events may leave.
func (h *AbandonHold) settle(k blockKey) {
	tentative, ok := h.open[k]
	if !ok {
		return
	}
	delete(h.open, k)
	h.last.ok = false
	if !tentative {
		h.leaked--
		return
	}
	for i := range h.q {
		if h.q[i].tentative && h.q[i].key == k {
			h.q[i].tentative = false
		}
	}
}

// drop takes out of q the events of agent's open blocks, given up: they
// are never written. A block of agent's already written (past the cap)
// cannot be taken back: warned.
func (h *AbandonHold) drop(agent string) {
	dropped, written := false, false
	for _, kind := range []event.BlockKind{event.Text, event.Thinking} {
		k := blockKey{agent, kind}
		tentative, ok := h.open[k]
		if !ok {
			continue
		}
		delete(h.open, k)
		h.last.ok = false
		if !tentative {
			h.leaked--
			written = true
			continue
		}
		dropped = true
	}
	if dropped {
		h.q = slices.DeleteFunc(h.q, func(e held) bool {
			if e.tentative && e.key.agent == agent {
				h.bytes -= cost(e.ev)
				return true
			}
			return false
		})
		h.losses.Report(h.warn, h.to, "abandoned partial messages (dropped)")
	}
	if written && h.liveLeak {
		h.losses.Report(h.warn, h.to,
			"abandoned partial messages of a live input (written as they arrived, before the source gave them up: they read back as content)")
	} else if written {
		h.losses.Report(h.warn, h.to, fmt.Sprintf(
			"abandoned partial messages held past %d bytes (written before the source gave them up: they read back as content)", MaxAbandonHold))
	}
}

// spill writes everything held, past MaxAbandonHold: the blocks held
// are written from now on as they come, and can no longer be dropped.
func (h *AbandonHold) spill() {
	h.last.ok = false
	for _, e := range h.q {
		if !e.tentative || !h.open[e.key] {
			continue
		}
		if h.leaked < maxLeaked {
			h.open[e.key] = false
			h.leaked++
		} else {
			delete(h.open, e.key) // not remembered (see maxLeaked)
		}
	}
	for i := range h.q {
		h.q[i].tentative = false
	}
}

// firm returns how many events at the head of q may leave: those before
// the first one still tentative.
func (h *AbandonHold) firm() int {
	for i, e := range h.q {
		if e.tentative {
			return i
		}
	}
	return len(h.q)
}

// release passes the first n held events on.
func (h *AbandonHold) release(n int) error {
	if n == 0 {
		return nil
	}
	var err error
	for i, e := range h.q[:n] {
		h.bytes -= cost(e.ev)
		if err == nil {
			err = h.enc.Encode(e.ev)
		}
		h.q[i] = held{}
	}
	h.q = append(h.q[:0], h.q[n:]...)
	if len(h.q) == 0 && cap(h.q) > 1024 {
		h.q = nil // what one large hold grew is let go
	}
	return err
}

// cost is what ev counts for against MaxAbandonHold: its text and
// payloads, plus a fixed 64 bytes for the event itself.
func cost(ev event.Event) int {
	n := 64
	switch ev := ev.(type) {
	case *event.Delta:
		n += len(ev.Text)
	case *event.ToolCall:
		n += len(ev.Input)
	case *event.ToolResult:
		for _, p := range ev.Content {
			n += len(p.Text) + len(p.Source)
		}
		n += len(ev.Structured)
	case *event.SessionStart:
		n += len(ev.Meta) + len(ev.Prompt)
	case *event.RunEnd:
		n += len(ev.Meta) + len(ev.Result)
	case *event.Error:
		n += len(ev.Raw) + len(ev.Message)
	case *event.Notice:
		n += len(ev.Raw) + len(ev.Message)
	case *event.Unknown:
		n += len(ev.Raw)
	case *event.Files:
		n += len(ev.Raw)
	}
	return n
}

// Close passes on what is held (the input ended: nothing more can be
// abandoned), then closes the encoder.
func (h *AbandonHold) Close() error {
	if err := h.release(len(h.q)); err != nil {
		return err
	}
	return h.enc.Close()
}

// Release passes on what is held, without ending the encoder: the input
// stopped before its end (a --strict stop, an unreadable input), so what
// the hold kept was read and never abandoned, and is written as it would
// have been without the hold.
func (h *AbandonHold) Release() error {
	h.spill()
	return h.release(len(h.q))
}

// Cut passes on what is held, then ends the encoder as cut
// (event.Cutter): the blocks that were open stay open.
func (h *AbandonHold) Cut() error {
	if err := h.release(len(h.q)); err != nil {
		return err
	}
	return event.End(h.enc, true)
}

// Flush passes Flush on to the encoder (FlushEncoder). On a live input
// (SetLive) what is held leaves first, its open blocks written from now
// on as they come; otherwise it stays held until it is known not to be
// abandoned.
func (h *AbandonHold) Flush() error {
	if h.live && len(h.q) > 0 {
		h.liveLeak = h.liveLeak || h.firm() < len(h.q)
		h.spill()
		if err := h.release(len(h.q)); err != nil {
			return err
		}
	}
	return FlushEncoder(h.enc)
}
