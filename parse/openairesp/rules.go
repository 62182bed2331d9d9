package openairesp

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/openaistream"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/openai/respwire"
)

// Rule ids of the format's own validate rules.
const (
	ruleOrder    = "OAR001"
	ruleSequence = "OAR002"
	ruleNoDone   = "OAR003"
	ruleIndex    = "OAR004"
	ruleArgs     = "OAR005"
)

// check checks a Responses API body against rules. Events that are not
// JSON are skipped (the decoder reports them).
func check(r io.Reader, c *format.CheckConfig, rep format.Reporter) {
	k := checkState{seq: -1}
	k.openItems()
	openaistream.Messages(r, c, func(m frame.RawMessage) { k.message(m, rep) })
	if k.open {
		rep.Report(ruleOrder, k.line, 1, "the body ends without response.completed, response.incomplete, response.failed or error")
	}
}

type checkState struct {
	open   bool // a response has begun and not ended
	queued bool // it began with response.queued
	line   int
	seq    int64
	next   int               // next output_index
	items  *openset.Set[int] // output indexes added and not done, oldest first
	// forgot is the highest output index let go of (the set holds at
	// most openset.DefaultMax), -1 when none: an index at or below it
	// that the set does not hold may be one, and is not checked.
	forgot int
}

// openItems starts the items of a response.
func (k *checkState) openItems() { k.items, k.forgot = openset.New[int](0), -1 }

// added notes item i added. Beyond openset.DefaultMax open items the
// oldest is let go of, reported once.
func (k *checkState) added(i, line int, rep format.Reporter) {
	old, out := k.items.Add(i)
	if !out {
		return
	}
	if k.forgot < 0 {
		rep.Report(ruleIndex, line, 1, fmt.Sprintf("more than %d output items open at once; forgot the oldest, output_index %d: whether it is done, and its events, are no longer checked (later ones are not reported)", k.items.Max(), old))
	}
	k.forgot = max(k.forgot, old)
}

// isOpen reports whether item i is open, or may be (let go of).
func (k *checkState) isOpen(i int) bool { return k.items.Has(i) || i <= k.forgot }

type checkEvent struct {
	Type           string     `json:"type"`
	SequenceNumber *int64     `json:"sequence_number"`
	OutputIndex    *int       `json:"output_index"`
	Item           *wire.Item `json:"item"`
}

func (k *checkState) message(m frame.RawMessage, rep format.Reporter) {
	data := bytes.TrimSpace(m.Data)
	if len(data) == 0 {
		return
	}
	k.line = m.Line
	if string(data) == "[DONE]" {
		rep.Report(ruleNoDone, m.Line, 1, "data: [DONE] in a Responses API body")
		return
	}
	var ev checkEvent
	if json.Unmarshal(data, &ev) != nil {
		return
	}
	typ := ev.Type
	if typ == "" {
		typ = m.Type
	}
	switch {
	case typ == wire.EvCreated && k.open && k.queued:
		// response.queued began it (a background response).
		k.queued = false
	case typ == wire.EvCreated || typ == wire.EvQueued:
		if k.open {
			rep.Report(ruleOrder, m.Line, 1, typ+" before the last response ended")
		}
		k.queued = typ == wire.EvQueued
		k.open, k.next = true, 0
		k.openItems()
		if ev.SequenceNumber != nil && *ev.SequenceNumber != 0 {
			rep.Report(ruleSequence, m.Line, 1, fmt.Sprintf("%s has sequence_number %d, not 0", typ, *ev.SequenceNumber))
		}
		k.seq = -1
	case !k.open && typ == wire.EvError:
		// An error alone: the API refused the request.
	case !k.open:
		rep.Report(ruleOrder, m.Line, 1, typ+" outside a response (no response.created before it)")
		k.open = true
		k.openItems()
	}
	if ev.SequenceNumber == nil {
		rep.Report(ruleSequence, m.Line, 1, typ+" has no sequence_number")
	} else {
		n := *ev.SequenceNumber
		switch {
		case k.seq >= 0 && n <= k.seq:
			rep.Report(ruleSequence, m.Line, 1, fmt.Sprintf("sequence_number %d after %d: out of order", n, k.seq))
		case n > k.seq+1 && k.seq >= 0:
			rep.Report(ruleSequence, m.Line, 1, fmt.Sprintf("sequence_number %d after %d: %d events missing", n, k.seq, n-k.seq-1))
		}
		k.seq = max(k.seq, n)
	}
	switch typ {
	case wire.EvItemAdded:
		if ev.OutputIndex != nil {
			if *ev.OutputIndex != k.next {
				rep.Report(ruleIndex, m.Line, 1, fmt.Sprintf("item added at output_index %d, expected %d", *ev.OutputIndex, k.next))
			}
			k.next = *ev.OutputIndex + 1
			k.added(*ev.OutputIndex, m.Line, rep)
		}
	case wire.EvItemDone:
		if it := ev.Item; it != nil && (it.Type == wire.ItemFunctionCall || it.Type == wire.ItemMCPCall) && !argsObject(it.Arguments) {
			rep.Report(ruleArgs, m.Line, 1, fmt.Sprintf("the arguments of %s %s (%s) are not a JSON object", it.Type, cmp.Or(it.CallID, it.ID), it.Name))
		}
		if ev.OutputIndex != nil {
			if !k.isOpen(*ev.OutputIndex) {
				rep.Report(ruleIndex, m.Line, 1, fmt.Sprintf("output_item.done for output_index %d, which is not open", *ev.OutputIndex))
			}
			k.items.Remove(*ev.OutputIndex)
		}
	case wire.EvCompleted, wire.EvIncomplete, wire.EvFailed, wire.EvError:
		if typ != wire.EvError {
			if k.items.Len() > 0 {
				first := math.MaxInt // the oldest, whatever the set's order
				for i := range k.items.All() {
					first = min(first, i)
				}
				rep.Report(ruleOrder, m.Line, 1, fmt.Sprintf("%s with item %d not done", typ, first))
			}
		}
		k.open = false
	default:
		if ev.OutputIndex != nil && !k.isOpen(*ev.OutputIndex) {
			rep.Report(ruleOrder, m.Line, 1, fmt.Sprintf("%s for output_index %d outside its output_item.added and output_item.done", typ, *ev.OutputIndex))
		}
	}
}

// argsObject reports whether a call's arguments are a JSON object, or a
// string of one (as the API writes them).
func argsObject(args json.RawMessage) bool {
	var s string
	if json.Unmarshal(args, &s) == nil {
		args = json.RawMessage(s)
	}
	var obj map[string]json.RawMessage
	return json.Unmarshal(args, &obj) == nil && obj != nil
}

// rules returns the format's validate rules, in report order.
func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleOrder, Name: "event-order", Doc: "a body begins with response.created (or response.queued) and ends with response.completed, response.incomplete, response.failed or error; an item's events come between its output_item.added and output_item.done"},
		{ID: ruleSequence, Name: "sequence-number", Doc: "every event has a sequence_number, 0 at response.created and one more at each event"},
		{ID: ruleNoDone, Name: "no-done", Doc: "the body has no data: [DONE] (the Responses API sends none)"},
		{ID: ruleIndex, Name: "output-index", Doc: "output items are added at output_index 0, 1, 2, ... and each is done once"},
		{ID: ruleArgs, Name: "tool-arguments", Doc: "a function_call's or mcp_call's arguments are a JSON object (a custom_tool_call's input is free text: validate's tool-input-json does not hold for this format)"},
	}
}
