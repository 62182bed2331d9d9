package openairesp

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openai"
	wire "github.com/agentstream/agentstream/internal/openai/respwire"
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
	w      io.Writer
	cfg    Config
	err    error
	losses event.Losses
	main   string
	seen   bool
	model  string // from SessionStart
	n      int    // ids made
	buf    []byte

	turn     bool
	explicit bool
	id       string
	tmodel   string
	seq      int64
	index    int               // next output_index
	output   []json.RawMessage // the turn's items, for its final response object
	tools    int
	pending  map[string]bool
	text     *block          // the open (or ended, awaiting citations) text item
	think    *block          // the open reasoning item
	held     *event.ToolCall // a server or MCP call awaiting its result
	ended    *event.TurnEnd  // a turn end without stop reason: an error may take its place
}

// block is a message or reasoning item being streamed.
type block struct {
	id          string
	index       int
	text        strings.Builder
	ended       bool
	annotations []json.RawMessage
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{w: w}
	if cfg != nil {
		e.cfg = *cfg
	}
	return e
}

func (e *Encoder) warn(what string) { e.losses.Report(e.cfg.Warn, wire.Name, what) }

func (e *Encoder) newID(prefix string) string {
	e.n++
	return fmt.Sprintf("%s_agentstream_%04d", prefix, e.n)
}

func (e *Encoder) nextSeq() int64 {
	s := e.seq
	e.seq++
	return s
}

// event writes one SSE message of type typ.
func (e *Encoder) event(typ string, v any) {
	if e.err != nil {
		return
	}
	data, err := openai.Marshal(v)
	if err != nil {
		e.err = fmt.Errorf("%s: %w", wire.Name, err)
		return
	}
	e.buf = append(e.buf[:0], "event: "...)
	e.buf = append(e.buf, typ...)
	e.buf = append(e.buf, "\ndata: "...)
	e.buf = append(e.buf, data...)
	e.buf = append(e.buf, "\n\n"...)
	_, e.err = e.w.Write(e.buf)
}

func (e *Encoder) response(status string) outResponse {
	out := e.output
	if out == nil {
		out = []json.RawMessage{}
	}
	return outResponse{ID: e.id, Object: "response", Status: status, Model: e.tmodel, Output: out}
}

func (e *Encoder) begin(id, model string) {
	if id == "" {
		id = e.newID("resp")
	}
	if model == "" {
		model = e.model
	}
	e.turn, e.id, e.tmodel, e.seq, e.index, e.output, e.tools = true, id, model, 0, 0, nil, 0
	clear(e.pending)
	e.event(wire.EvCreated, respEvent{Type: wire.EvCreated, Seq: e.nextSeq(), Response: e.response(openai.StatusInProgress)})
	e.event(wire.EvInProgress, respEvent{Type: wire.EvInProgress, Seq: e.nextSeq(), Response: e.response(openai.StatusInProgress)})
}

func (e *Encoder) ensureTurn() {
	if !e.turn {
		e.begin("", "")
	}
}

// end writes the turn's final event: response.completed, or
// response.incomplete for max_tokens and refusal.
func (e *Encoder) end(stop string, u *event.Usage) {
	e.flush()
	if !e.turn {
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
	}
	typ := wire.EvCompleted
	if status == openai.StatusIncomplete {
		typ = wire.EvIncomplete
	}
	e.event(typ, respEvent{Type: typ, Seq: e.nextSeq(), Response: r})
	e.turn, e.output = false, nil
}

// fail ends the turn with response.failed.
func (e *Encoder) fail(msg string) {
	e.flush()
	e.ensureTurn()
	r := e.response(openai.StatusFailed)
	r.Error = &openai.APIError{Code: openai.TurnFailed, Message: msg}
	e.event(wire.EvFailed, respEvent{Type: wire.EvFailed, Seq: e.nextSeq(), Response: r})
	e.turn, e.output = false, nil
}

// flush finishes what waits for a next event: an ended text item (its
// citations may follow), an open reasoning item, a held server call.
func (e *Encoder) flush() {
	e.finishText()
	e.finishThinking("")
	e.releaseCall(nil)
}

func (e *Encoder) addItem(item any) (int, json.RawMessage) {
	raw, err := openai.Marshal(item)
	if err != nil {
		e.err = err
	}
	idx := e.index
	e.index++
	e.event(wire.EvItemAdded, itemEvent{Type: wire.EvItemAdded, Seq: e.nextSeq(), OutputIndex: idx, Item: raw})
	return idx, raw
}

func (e *Encoder) doneItem(idx int, item any) {
	raw, err := openai.Marshal(item)
	if err != nil {
		e.err = err
		return
	}
	e.output = append(e.output, raw)
	e.event(wire.EvItemDone, itemEvent{Type: wire.EvItemDone, Seq: e.nextSeq(), OutputIndex: idx, Item: raw})
}

func (e *Encoder) startText() *block {
	if e.text != nil && !e.text.ended {
		return e.text
	}
	e.finishText()
	e.finishThinking("")
	e.releaseCall(nil)
	e.ensureTurn()
	b := &block{id: e.newID("msg")}
	b.index, _ = e.addItem(messageItem{ID: b.id, Type: wire.ItemMessage, Status: openai.StatusInProgress, Role: "assistant", Content: []textPart{}})
	e.event(wire.EvPartAdded, partEvent{
		Type: wire.EvPartAdded, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index,
		Part: textPart{Type: wire.PartOutputText, Annotations: []json.RawMessage{}, Logprobs: []any{}},
	})
	e.text = b
	return b
}

func (e *Encoder) finishText() {
	b := e.text
	if b == nil {
		return
	}
	e.text = nil
	text := b.text.String()
	anns := b.annotations
	if anns == nil {
		anns = []json.RawMessage{}
	}
	p := textPart{Type: wire.PartOutputText, Annotations: anns, Logprobs: []any{}, Text: text}
	e.event(wire.EvTextDone, textDone{Type: wire.EvTextDone, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index, Text: text, Logprobs: []any{}})
	e.event(wire.EvPartDone, partEvent{Type: wire.EvPartDone, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index, Part: p})
	e.doneItem(b.index, messageItem{ID: b.id, Type: wire.ItemMessage, Status: openai.StatusCompleted, Role: "assistant", Content: []textPart{p}})
}

func (e *Encoder) startThinking() *block {
	if e.think != nil {
		return e.think
	}
	e.finishText()
	e.releaseCall(nil)
	e.ensureTurn()
	b := &block{id: e.newID("rs")}
	b.index, _ = e.addItem(reasoningItem{ID: b.id, Type: wire.ItemReasoning, Summary: []part{}})
	e.event(wire.EvSummaryPartAdded, summaryPartEvent{
		Type: wire.EvSummaryPartAdded, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index, Part: part{Type: wire.PartSummaryText},
	})
	e.think = b
	return b
}

func (e *Encoder) finishThinking(sig string) {
	b := e.think
	if b == nil {
		return
	}
	e.think = nil
	text := b.text.String()
	p := part{Type: wire.PartSummaryText, Text: text}
	e.event(wire.EvSummaryDone, summaryDone{Type: wire.EvSummaryDone, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index, Text: text})
	e.event(wire.EvSummaryPartDone, summaryPartEvent{Type: wire.EvSummaryPartDone, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index, Part: p})
	e.doneItem(b.index, reasoningItem{ID: b.id, Type: wire.ItemReasoning, Summary: []part{p}, EncryptedContent: sig})
}

// Encode writes the stream events of ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	agent := ev.AgentID()
	if agent == "" {
		agent = e.cfg.Agent
	}
	if !e.seen {
		e.seen, e.main = true, agent
	}
	if agent != e.main {
		e.warn("subagents (only the main agent's turns are written)")
		return nil
	}
	if h := e.ended; h != nil {
		e.ended = nil
		if _, ok := ev.(*event.Error); !ok || agent != e.main {
			e.end(h.StopReason, h.Usage)
		}
	}
	if _, ok := ev.(*event.Citations); !ok {
		if e.text != nil && e.text.ended {
			e.finishText()
		}
	}
	if r, ok := ev.(*event.ToolResult); ok && e.held != nil && r.ID == e.held.ID {
		e.releaseCall(r)
		return e.err
	}
	e.releaseCall(nil)
	switch ev := ev.(type) {
	case *event.SessionStart:
		if ev.Model != "" {
			e.model = ev.Model
		}
		e.warn("session metadata")
	case *event.TurnStart:
		e.explicit = true
		e.end("", nil)
		e.begin(ev.MessageID, ev.Model)
	case *event.TurnEnd:
		if ev.Error != "" {
			e.fail(ev.Error)
			break
		}
		if ev.StopReason == "" {
			e.flush()
			e.ended = ev
			break
		}
		e.end(ev.StopReason, ev.Usage)
	case *event.BlockStart:
		if ev.Kind == event.Thinking {
			e.startThinking()
		} else {
			e.startText()
		}
	case *event.Delta:
		e.delta(ev)
	case *event.BlockEnd:
		if ev.Kind == event.Thinking {
			e.startThinking()
			e.finishThinking(ev.Signature)
		} else {
			e.startText().ended = true
		}
	case *event.Citations:
		e.citations(ev)
	case *event.ToolCall:
		e.toolCall(ev)
	case *event.ToolResult:
		if ev.Server {
			e.warn("server tool results of other providers")
			break
		}
		e.warn("client tool results (the client sends them in the next request)")
		delete(e.pending, ev.ID)
		if e.turn && !e.explicit && e.tools > 0 && len(e.pending) == 0 {
			e.end(openai.StopToolUse, nil)
		}
	case *event.Error:
		e.errorEvent(ev)
	case *event.RunEnd:
		e.end(ev.StopReason, nil)
		e.warn("run summaries")
	case *event.Unknown:
		e.unknown(ev)
	default:
		e.warn(openai.Lost(ev))
	}
	return e.err
}

func (e *Encoder) delta(ev *event.Delta) {
	var b *block
	if ev.Kind == event.Thinking {
		b = e.startThinking()
	} else {
		b = e.startText()
	}
	b.text.WriteString(ev.Text)
	openai.Split(ev.Text, func(s string) error {
		if ev.Kind == event.Thinking {
			e.event(wire.EvSummaryDelta, summaryDelta{Type: wire.EvSummaryDelta, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index, Delta: s})
		} else {
			e.event(wire.EvTextDelta, textDelta{Type: wire.EvTextDelta, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index, Delta: s, Logprobs: []any{}})
		}
		return e.err
	})
}

// citations writes annotations into the text item that just ended.
func (e *Encoder) citations(ev *event.Citations) {
	b := e.text
	if b == nil {
		b = e.startText()
	}
	b.ended = true
	for _, c := range ev.Items {
		raw := annotation(c)
		if raw == nil {
			e.warn("citations without a URL or file")
			continue
		}
		e.event(wire.EvAnnotation, annotationEvent{
			Type: wire.EvAnnotation, Seq: e.nextSeq(), ItemID: b.id, OutputIndex: b.index,
			AnnotationIndex: len(b.annotations), Annotation: raw,
		})
		b.annotations = append(b.annotations, raw)
	}
	e.finishText()
}

// annotation returns a citation as an output_text annotation: its Raw
// when it was one, else a url_citation; nil when it has no URL.
func annotation(c event.Citation) json.RawMessage {
	switch c.Type {
	case "url_citation", "file_citation", "container_file_citation", "file_path":
		if len(c.Raw) > 0 && json.Valid(c.Raw) {
			return jsontext.Compact(c.Raw)
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
	if e.pending == nil {
		e.pending = map[string]bool{}
	}
	e.pending[ev.ID] = true
	input := ev.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	id := e.newID("fc")
	var free string
	if input[0] == '"' && json.Unmarshal(input, &free) == nil {
		// Free text, not JSON arguments: a custom tool call.
		idx, _ := e.addItem(customItem{ID: id, Type: wire.ItemCustomToolCall, Status: openai.StatusInProgress, CallID: ev.ID, Name: ev.Name})
		e.argDeltas(wire.EvCustomInputDelta, id, idx, free)
		e.event(wire.EvCustomInputDone, inputDone{Type: wire.EvCustomInputDone, Seq: e.nextSeq(), ItemID: id, OutputIndex: idx, Input: free})
		e.doneItem(idx, customItem{ID: id, Type: wire.ItemCustomToolCall, Status: openai.StatusCompleted, CallID: ev.ID, Name: ev.Name, Input: free})
		return
	}
	args := string(jsontext.Compact(input))
	idx, _ := e.addItem(functionItem{ID: id, Type: wire.ItemFunctionCall, Status: openai.StatusInProgress, CallID: ev.ID, Name: ev.Name})
	e.argDeltas(wire.EvArgsDelta, id, idx, args)
	e.event(wire.EvArgsDone, argsDone{Type: wire.EvArgsDone, Seq: e.nextSeq(), ItemID: id, OutputIndex: idx, Arguments: args})
	e.doneItem(idx, functionItem{ID: id, Type: wire.ItemFunctionCall, Status: openai.StatusCompleted, Arguments: args, CallID: ev.ID, Name: ev.Name})
}

func (e *Encoder) argDeltas(typ, id string, idx int, s string) {
	openai.Split(s, func(p string) error {
		e.event(typ, argsDelta{Type: typ, Seq: e.nextSeq(), ItemID: id, OutputIndex: idx, Delta: p})
		return e.err
	})
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
		idx, _ := e.addItem(json.RawMessage(jsontext.Compact(r.Structured)))
		e.doneItem(idx, json.RawMessage(jsontext.Compact(r.Structured)))
		return
	}
	args := string(jsontext.Compact(c.Input))
	if len(c.Input) == 0 {
		args = "{}"
	}
	item := mcpItem{ID: c.ID, Type: wire.ItemMCPCall, ServerLabel: c.MCPServer, Name: c.Name}
	idx, _ := e.addItem(item)
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
	e.doneItem(idx, item)
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
	raw := json.RawMessage(jsontext.Compact(ev.Raw))
	idx, _ := e.addItem(raw)
	e.doneItem(idx, raw)
}

// errorEvent writes an error event, which ends the response it
// interrupts.
func (e *Encoder) errorEvent(ev *event.Error) {
	e.flush()
	out := errorEvent{Type: wire.EvError, Code: nilIfEmpty(ev.Type), Message: ev.Message}
	var orig openai.APIError
	if json.Unmarshal(ev.Raw, &orig) == nil && orig.Kind() == ev.Type && orig.Message == ev.Message {
		out.Param = orig.Param // the error this format's decoder read
	}
	out.Seq = e.nextSeq()
	e.event(wire.EvError, out)
	e.turn, e.output = false, nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Close ends the open response. When a text or reasoning block is still
// open (the input was cut off), it writes no final event, like the
// stream it copies, and reports the truncation.
func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	if h := e.ended; h != nil {
		e.ended = nil
		e.end(h.StopReason, h.Usage)
	}
	if (e.text != nil && !e.text.ended) || e.think != nil {
		return fmt.Errorf("%s: %w: a block was left open, no response.completed written", wire.Name, event.ErrTruncated)
	}
	e.end("", nil)
	return e.err
}
