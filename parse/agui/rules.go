package agui

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/agui"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// Rule ids of the format's own validate rules: the order @ag-ui/client's
// event verifier (verifyEvents) enforces, and the members events.ts
// requires.
const (
	ruleFirst    = "AGU001"
	ruleAfterEnd = "AGU002"
	ruleOpen     = "AGU003"
	ruleFinish   = "AGU004"
	ruleStep     = "AGU005"
	ruleSubagent = "AGU006"
	ruleOwner    = "AGU007"
	ruleFields   = "AGU008"
	ruleType     = "AGU009"
)

// rules returns the format's validate rules, in report order.
func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleFirst, Name: "run-started", Doc: "the first event is RUN_STARTED (or RUN_ERROR), and no RUN_STARTED comes while a run is going on"},
		{ID: ruleAfterEnd, Name: "after-run-end", Doc: "after RUN_FINISHED or RUN_ERROR the only event is a new RUN_STARTED"},
		{ID: ruleOpen, Name: "open-close", Doc: "content and end events of text messages, reasoning messages and spans, and tool calls name one that is open; a start names none that is open"},
		{ID: ruleFinish, Name: "finished-closed", Doc: "RUN_FINISHED comes when no text or reasoning message, reasoning span, tool call, step or subagent is open"},
		{ID: ruleStep, Name: "steps", Doc: "STEP_FINISHED names a step its agent has open, and STEP_STARTED none it has open"},
		{ID: ruleSubagent, Name: "subagents", Doc: "SUBAGENT_STARTED names a new subagent and a parent started in the run; SUBAGENT_FINISHED and SUBAGENT_ERROR name an active one"},
		{ID: ruleOwner, Name: "attribution", Doc: "an event's subagentRunId agrees with the subagent of the message or tool call it continues"},
		{ID: ruleFields, Name: "fields", Doc: "every event has the members its type requires (events.ts), and no optional member is null"},
		{ID: ruleType, Name: "event-type", Doc: "every event's type is one of the protocol's (@ag-ui/client drops the others)"},
	}
}

// check checks an AG-UI stream against rules. Data that is not a JSON
// object with a type is skipped (the decoder reports it).
func check(r io.Reader, c *format.CheckConfig, rep format.Reporter) {
	(&checkState{rep: rep}).check(r, c)
}

func (k *checkState) check(r io.Reader, c *format.CheckConfig) {
	k.reset()
	for m := range frame.NewSSE(r, c.Source, c.MaxEventBytes).Messages() {
		k.message(m)
	}
}

// maxOwners caps the owners the checker remembers per kind for the run,
// as the client does for the whole run: beyond, a later entity's
// attribution is not checked.
const maxOwners = 1 << 16

// owner is the subagent an entity belongs to: nil for the parent agent.
type owner = *string

type checkState struct {
	rep      format.Reporter
	line     int
	first    bool // an event has been read
	running  bool
	finished bool // RUN_FINISHED ended the last run
	errored  bool // RUN_ERROR ended the last run

	// What is open, and the subagents of the run, at most
	// openset.DefaultMax of each (wirecheck.Held): past it the oldest is
	// let go of, reported once as a violation of the rule it weakens
	// (held.what), and is no longer checked.
	messages, toolCalls, spans, reasoning held // open
	steps                                 held // owner key + name
	active, closed                        held // subagents
	owners                                map[string]map[string]owner
}

// held is a set of ids the checker keeps, what says what they are
// (plural) and rule is the rule that checks them.
type held struct {
	wirecheck.Held[struct{}]
	what, rule string
	// window: the ids seen (the subagents ended), not state a valid run
	// leaves open, so past the cap the oldest is let go of silently.
	window bool
}

func (k *checkState) reset() {
	for _, h := range []struct {
		h          *held
		what, rule string
	}{
		{&k.messages, "text messages open", ruleOpen},
		{&k.toolCalls, "tool calls open", ruleOpen},
		{&k.spans, "reasoning spans open", ruleOpen},
		{&k.reasoning, "reasoning messages open", ruleOpen},
		{&k.steps, "steps open", ruleStep},
		{&k.active, "subagents active", ruleSubagent},
		{&k.closed, "subagents ended", ruleSubagent},
	} {
		h.h.Clear()
		h.h.what, h.h.rule = h.what, h.rule
	}
	k.closed.window = true
	k.owners = map[string]map[string]owner{"message": {}, "toolCall": {}, "reasoning": {}}
}

// add adds id to h, and reports once that h let go of the oldest.
func (k *checkState) add(h *held, id string) {
	if old, first := h.Put(id, struct{}{}); first && !h.window {
		k.report(h.rule, "more than "+strconv.Itoa(openset.DefaultMax)+" "+h.what+"; forgot the oldest, "+strconv.Quote(old)+": what comes of it is no longer checked")
	}
}

func (k *checkState) report(rule, msg string) { k.rep.Report(rule, k.line, 1, msg) }

// stepKey keys a step by its owner and name ("" names no subagent, "s:"
// prefixes one, so no subagent id collides with the parent).
func stepKey(o owner, name string) string {
	if o == nil {
		return "p\x00" + name
	}
	return "s:" + *o + "\x00" + name
}

func ownerName(o owner) string {
	if o == nil {
		return "the parent agent"
	}
	return "subagent " + strconv.Quote(*o)
}

// agree reports an event whose attribution disagrees with the opener of
// the entity it continues.
func (k *checkState) agree(typ string, tag owner, kind, id string) {
	if tag == nil {
		return
	}
	o, ok := k.owners[kind][id]
	if ok && (o == nil || *o != *tag) {
		k.report(ruleOwner, typ+" of "+strconv.Quote(id)+" is attributed to "+ownerName(tag)+", its opener to "+ownerName(o))
	}
}

// fields is what the checker reads of any event.
type fields struct {
	Type          string          `json:"type"`
	SubagentRunID *string         `json:"subagentRunId"`
	MessageID     string          `json:"messageId"`
	ToolCallID    string          `json:"toolCallId"`
	StepName      string          `json:"stepName"`
	ParentSub     *string         `json:"parentSubagentRunId"`
	ParentMessage *string         `json:"parentMessageId"`
	Outcome       json.RawMessage `json:"outcome"`
}

// optional lists the optional members a null may not stand in for.
var optional = []string{"subagentRunId", "role", "name", "parentMessageId", "description", "parentSubagentRunId", "parentToolCallId", "code", "outcome", "metadata"}

func (k *checkState) message(m frame.RawMessage) {
	data := bytes.TrimSpace(m.Data)
	if len(data) == 0 {
		return
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal(data, &raw) != nil {
		return
	}
	var f fields
	if json.Unmarshal(data, &f) != nil && f.Type == "" {
		return
	}
	if f.Type == "" {
		return
	}
	k.line = m.Line
	typ := f.Type
	if !wire.Known(typ) {
		k.report(ruleType, "unknown event type "+strconv.Quote(typ))
	}
	lacking := false
	for _, req := range wire.Required[typ] {
		if v, ok := raw[req]; !ok || string(v) == "null" {
			k.report(ruleFields, typ+" without "+req)
			lacking = true
		}
	}
	for _, opt := range optional {
		if v, ok := raw[opt]; ok && string(v) == "null" {
			k.report(ruleFields, typ+" with "+opt+" null (absent is the only spelling)")
		}
	}

	if lacking {
		return // the decoder skips it
	}

	// The run's lifecycle.
	switch {
	case !k.first:
		k.first = true
		if typ != wire.RunStarted && typ != wire.RunError {
			k.report(ruleFirst, "the first event is "+typ+", not RUN_STARTED")
			k.running = true
		}
	case k.errored && typ != wire.RunStarted:
		k.report(ruleAfterEnd, typ+" after RUN_ERROR")
		return
	case k.finished && typ != wire.RunStarted && typ != wire.RunError:
		k.report(ruleAfterEnd, typ+" after RUN_FINISHED")
		return
	case typ == wire.RunStarted && k.running:
		k.report(ruleFirst, "RUN_STARTED while a run is going on")
	}

	tag := f.SubagentRunID
	switch typ {
	case wire.RunStarted:
		if k.finished || k.errored {
			k.reset()
		}
		k.running, k.finished, k.errored = true, false, false
	case wire.RunFinished:
		k.finish()
		k.running, k.finished = false, true
	case wire.RunError:
		k.running, k.errored = false, true
	case wire.TextMessageStart:
		if k.messages.Has(f.MessageID) {
			k.report(ruleOpen, "TEXT_MESSAGE_START of message "+strconv.Quote(f.MessageID)+", which is open")
		}
		k.opener("message", f.MessageID, tag)
		k.add(&k.messages, f.MessageID)
	case wire.TextMessageContent, wire.TextMessageEnd:
		k.continues(typ, &k.messages, "message", f.MessageID, tag, typ == wire.TextMessageEnd)
	case wire.ToolCallStart:
		if k.toolCalls.Has(f.ToolCallID) {
			k.report(ruleOpen, "TOOL_CALL_START of tool call "+strconv.Quote(f.ToolCallID)+", which is open")
		}
		if f.ParentMessage != nil && tag != nil {
			k.agree(typ, tag, "message", *f.ParentMessage)
		}
		k.opener("toolCall", f.ToolCallID, tag)
		k.add(&k.toolCalls, f.ToolCallID)
	case wire.ToolCallArgs, wire.ToolCallEnd:
		k.continues(typ, &k.toolCalls, "toolCall", f.ToolCallID, tag, typ == wire.ToolCallEnd)
	case wire.ToolCallResult:
		if len(k.owners["message"]) < maxOwners {
			k.owners["message"][f.MessageID] = tag
		}
	case wire.ReasoningStart, wire.ReasoningMessageStart:
		open := &k.reasoning
		if typ == wire.ReasoningStart {
			open = &k.spans
		}
		if open.Has(f.MessageID) {
			k.report(ruleOpen, typ+" of "+strconv.Quote(f.MessageID)+", which is open")
		}
		k.opener("reasoning", f.MessageID, tag)
		k.add(open, f.MessageID)
	case wire.ReasoningMessageContent, wire.ReasoningMessageEnd:
		k.continues(typ, &k.reasoning, "reasoning", f.MessageID, tag, typ == wire.ReasoningMessageEnd)
	case wire.ReasoningEnd:
		k.continues(typ, &k.spans, "reasoning", f.MessageID, tag, true)
	case wire.StepStarted:
		key := stepKey(tag, f.StepName)
		if k.steps.Has(key) {
			k.report(ruleStep, "step "+strconv.Quote(f.StepName)+" of "+ownerName(tag)+" is started again before its end")
		}
		k.add(&k.steps, key)
	case wire.StepFinished:
		key := stepKey(tag, f.StepName)
		if !k.steps.Has(key) && !k.steps.Lost() {
			k.report(ruleStep, "STEP_FINISHED of step "+strconv.Quote(f.StepName)+", which "+ownerName(tag)+" has not open")
		}
		k.steps.Delete(key)
	case wire.SubagentStarted:
		if tag == nil {
			break // AGU008 reports it
		}
		id := *tag
		if k.active.Has(id) || k.closed.Has(id) {
			k.report(ruleSubagent, "SUBAGENT_STARTED of subagent "+strconv.Quote(id)+", which was started in this run")
		}
		if p := f.ParentSub; p != nil && !k.active.Has(*p) && !k.closed.Has(*p) && !k.active.Lost() && !k.closed.Lost() {
			k.report(ruleSubagent, "SUBAGENT_STARTED with parent "+strconv.Quote(*p)+", which was not started in this run")
		}
		k.add(&k.active, id)
	case wire.SubagentFinished, wire.SubagentError:
		if tag == nil {
			break
		}
		id := *tag
		if !k.active.Has(id) && !k.active.Lost() {
			k.report(ruleSubagent, typ+" of subagent "+strconv.Quote(id)+", which is not active")
		}
		k.active.Delete(id)
		k.add(&k.closed, id)
	}
}

// opener records the owner of an entity opened, the first opener's, and
// reports a reopening by another owner.
func (k *checkState) opener(kind, id string, tag owner) {
	if _, ok := k.owners[kind][id]; ok {
		k.agree("reopening", tag, kind, id)
		return
	}
	if len(k.owners[kind]) < maxOwners {
		k.owners[kind][id] = tag
	}
}

// continues checks a continuation or end of an open entity.
func (k *checkState) continues(typ string, open *held, kind, id string, tag owner, end bool) {
	if !open.Has(id) {
		if !open.Lost() { // else it may be one let go of
			k.report(ruleOpen, typ+" of "+strconv.Quote(id)+", which is not open")
		}
		return
	}
	k.agree(typ, tag, kind, id)
	if end {
		open.Delete(id)
	}
}

// finish reports what RUN_FINISHED leaves open.
func (k *checkState) finish() {
	var open []string
	add := func(what string, m *held) {
		for _, id := range m.Sorted() {
			open = append(open, what+" "+strconv.Quote(id))
		}
	}
	add("text message", &k.messages)
	add("reasoning message", &k.reasoning)
	add("reasoning span", &k.spans)
	add("tool call", &k.toolCalls)
	for _, s := range k.steps.Sorted() {
		_, name, _ := strings.Cut(s, "\x00")
		open = append(open, "step "+strconv.Quote(name))
	}
	add("subagent", &k.active)
	if len(open) > 0 {
		k.report(ruleFinish, "RUN_FINISHED while open: "+strings.Join(open, ", "))
	}
}
