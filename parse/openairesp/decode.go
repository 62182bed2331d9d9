package openairesp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openaistream"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/respwire"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one SSE message and one tool call's arguments (event.DefaultMaxBytes if 0)
	Agent         string // agent id of every event (the body names none)
	// MaxOpen caps the output items of a response open at once (added
	// and not done) the decoder follows (openset.DefaultMax if 0).
	// Beyond it, it lets go of the one with the lowest output_index (the
	// oldest: the API numbers items in order): a tool call is emitted
	// with the arguments so far; reported once, wrapping
	// event.ErrTooManyOpen.
	MaxOpen int
}

// Decoder reads Responses API streaming bodies (one or more,
// concatenated) and yields canonical events. See the package
// documentation for the grammar and tolerance rules.
type Decoder struct {
	drv openaistream.Driver // the read loop; its Decode is d.decode
	cfg Config

	resp   *response
	seq    int64 // last sequence_number; -1 before the first
	er     wire.Reader
	ev     wire.StreamEvent // the event being read
	deltas deltabatch.Batch
	items  map[int]*itemState // the items of the response being read, kept from one to the next

	capped bool              // event.ErrTooManyOpen was reported
	capErr *event.ParseError // that report, until it is returned
}

// response is the state of the response being read.
type response struct {
	id    string
	model string
	tools bool // it has client tool calls
	items map[int]*itemState
	text  *textState // the open output_text or refusal part
	think bool       // a thinking block is open
	held  bool       // a thinking block's end waits for its item's encrypted_content
}

type itemState struct {
	typ      string
	id       string
	callID   string
	name     string
	server   string
	args     strings.Builder
	streamed bool // its content arrived as deltas
}

type textState struct {
	annotations []wire.Annotation
}

// blockStart returns the BlockStart of a block of item it (nil when the
// stream named none).
func (d *Decoder) blockStart(kind event.BlockKind, it *itemState, refusal bool) *event.BlockStart {
	bs := &event.BlockStart{Agent: d.cfg.Agent, Kind: kind, Refusal: refusal}
	if it != nil {
		bs.ID = it.id
	}
	return bs
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{seq: -1, items: map[int]*itemState{}}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxOpen <= 0 {
		d.cfg.MaxOpen = openset.DefaultMax
	}
	d.drv = openaistream.NewDriver(r, d.cfg.Source, &d.cfg.MaxEventBytes, d.decode, d.truncation)
	return d
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.drv.Next() }

// Detect reports whether an input whose first unit is h is a Responses
// API streaming body: SSE whose first event's type (its event: field or
// its data's type) begins "response.", or an error event alone
// ({"type":"error"} with a top-level message or code, unlike the Messages
// API's nested error object).
func Detect(h format.Head) bool {
	if !h.SSE {
		return false
	}
	m := h.Fields()
	typ, _ := format.String(m, "type")
	if typ == "" {
		typ = h.EventType
	}
	if strings.HasPrefix(typ, "response.") {
		return h.EventType == "" || h.EventType == typ
	}
	if typ != wire.EvError {
		return false
	}
	_, nested := m["error"]
	_, msg := m["message"]
	_, code := m["code"]
	return !nested && (msg || code)
}

// truncation flushes the response the input stopped in: the tool calls
// whose arguments had begun are emitted with what arrived.
func (d *Decoder) truncation() error {
	r := d.resp
	if r == nil {
		return d.drv.Cut()
	}
	d.resp = nil
	what := ""
	switch {
	case r.text != nil:
		what = " (inside a text part)"
	case r.think:
		what = " (inside a reasoning summary)"
	}
	for _, i := range slices.Sorted(maps.Keys(r.items)) {
		it := r.items[i]
		if isCall(it) {
			tc := d.toolCall(it, nil)
			tc.Truncated = true
			if it.args.Len() == 0 {
				tc.Input = json.RawMessage(`""`) // nothing arrived: no invented {}
			}
			d.drv.Emit(tc)
			what = fmt.Sprintf(" (in the arguments of tool call %s)", it.callID)
		}
	}
	return d.drv.Truncated("stream ended without response.completed, inside response %s%s", r.id, what)
}

// decode decodes the data of one SSE message, of event type evType (the
// data's type when it names none).
func (d *Decoder) decode(evType string, data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if string(data) == "[DONE]" {
		return nil // not part of the Responses API; validate reports it
	}
	ev := &d.ev
	if err := d.er.Decode(data, ev); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return d.drv.Errorf(event.ErrSyntax, "data is not a JSON object: %s", jsontext.Problem(err))
		}
		// A known field of another shape: a vendor's event, kept.
		var head struct {
			Type string `json:"type"`
		}
		json.Unmarshal(data, &head)
		d.drv.Emit(&event.Unknown{Agent: d.cfg.Agent, Format: Name, Type: head.Type, Raw: bytes.Clone(data)})
		return nil
	}
	if ev.Type == "" {
		ev.Type = evType
	}
	problem := d.sequence(ev)
	if err := d.event(ev, data); err != nil {
		return err
	}
	if problem == nil && d.capErr != nil {
		problem, d.capErr = d.capErr, nil
	}
	return problem
}

// isCall reports whether an item is a tool call whose arguments stream.
func isCall(it *itemState) bool {
	return it != nil && (it.typ == wire.ItemFunctionCall || it.typ == wire.ItemCustomToolCall || it.typ == wire.ItemMCPCall)
}

// addItem keeps the state of item index of r. Beyond MaxOpen items, it
// lets go of the one with the lowest output_index.
func (d *Decoder) addItem(r *response, index int, st *itemState) {
	if _, held := r.items[index]; !held && len(r.items) >= d.cfg.MaxOpen {
		old := index
		for i := range r.items {
			if i < old || old == index {
				old = i
			}
		}
		it := r.items[old]
		delete(r.items, old)
		what := ""
		if isCall(it) {
			d.drv.Emit(d.toolCall(it, nil))
			what = ", a tool call, emitted with the arguments so far"
		}
		if !d.capped {
			d.capped = true
			d.capErr = d.drv.Errorf(event.ErrTooManyOpen, "more than %d output items open at once in response %s; let go of the oldest, output_index %d%s (later ones are not reported)", d.cfg.MaxOpen, r.id, old, what)
		}
	}
	r.items[index] = st
}

// sequence checks an event's sequence_number against the last one.
func (d *Decoder) sequence(ev *wire.StreamEvent) error {
	if ev.SequenceNumber == nil {
		return nil
	}
	n := *ev.SequenceNumber
	if ev.Type == wire.EvCreated || ev.Type == wire.EvQueued && d.resp == nil {
		d.seq = n
		return nil
	}
	last := d.seq
	d.seq = max(d.seq, n)
	switch {
	case last < 0 || n == last+1:
		return nil
	case n <= last:
		return d.drv.Errorf(event.ErrSyntax, "sequence_number %d after %d: out of order", n, last)
	}
	return d.drv.Errorf(event.ErrSyntax, "sequence_number %d after %d: %d events missing", n, last, n-last-1)
}

func (d *Decoder) begin(rs *wire.Response) {
	if rs == nil {
		rs = &wire.Response{}
	}
	id := openai.Given(rs.ID) // an id agentstream made up is none
	if d.resp != nil && d.resp.id == id {
		return
	}
	if d.resp != nil {
		d.end(nil, "") // a new response without the last one's end
	}
	clear(d.items)
	d.resp = &response{id: id, model: rs.Model, items: d.items}
	d.drv.Emit(&event.TurnStart{Agent: d.cfg.Agent, MessageID: id, Model: rs.Model, Created: openai.Created(rs.CreatedAt)})
}

func (d *Decoder) ensure() *response {
	if d.resp == nil {
		d.begin(nil)
	}
	return d.resp
}

func (d *Decoder) event(ev *wire.StreamEvent, data []byte) error {
	a := d.cfg.Agent
	switch typ := ev.Type; {
	case typ == wire.EvCreated || typ == wire.EvInProgress || typ == wire.EvQueued:
		d.begin(ev.Response)
	case typ == wire.EvCompleted || typ == wire.EvIncomplete || typ == wire.EvFailed:
		d.ensure()
		d.end(ev.Response, typ)
	case typ == wire.EvError:
		if d.resp != nil {
			d.closeOpen()
			d.drv.Emit(&event.TurnEnd{Agent: a, MessageID: d.resp.id})
			d.resp = nil
		}
		// Raw is the event's error object: its code, message and param.
		e := &openai.APIError{Message: ev.Message, Code: ev.Code, Param: ev.Param}
		raw, _ := openai.Marshal(e)
		d.drv.Emit(&event.Error{Agent: a, Message: ev.Message, Type: e.Kind(), Fatal: true, Raw: raw})
	case typ == wire.EvItemAdded:
		r := d.ensure()
		if ev.Item == nil {
			return d.drv.Errorf(event.ErrSyntax, "%s without an item", typ)
		}
		d.releaseThinking()
		d.addItem(r, ev.OutputIndex, &itemState{
			typ: ev.Item.Type, id: openai.Given(ev.Item.ID), callID: ev.Item.CallID, name: ev.Item.Name, server: ev.Item.ServerLabel,
		})
	case typ == wire.EvItemDone:
		d.ensure()
		if ev.Item == nil {
			return d.drv.Errorf(event.ErrSyntax, "%s without an item", typ)
		}
		return d.itemDone(ev.OutputIndex, ev.Item)
	case typ == wire.EvPartAdded:
		d.ensure()
		if ev.Part != nil && (ev.Part.Type == wire.PartOutputText || ev.Part.Type == wire.PartRefusal) {
			d.openText(ev.OutputIndex, ev.Part.Type == wire.PartRefusal)
		}
	case typ == wire.EvTextDelta || typ == wire.EvRefusalDelta:
		d.ensure()
		d.openText(ev.OutputIndex, typ == wire.EvRefusalDelta)
		if ev.Delta != "" {
			d.drv.Emit(d.deltas.New(a, event.Text, ev.Delta))
		}
	case typ == wire.EvAnnotation:
		r := d.ensure()
		if r.text != nil && ev.Annotation != nil {
			r.text.annotations = append(r.text.annotations, *ev.Annotation)
		}
	case typ == wire.EvPartDone:
		r := d.ensure()
		if r.text != nil && len(r.text.annotations) == 0 && ev.Part != nil {
			r.text.annotations = ev.Part.Annotations
		}
		d.closeText()
	case typ == wire.EvTextDone || typ == wire.EvRefusalDone:
		// content_part.done ends the block.
	case typ == wire.EvSummaryPartAdded:
		d.ensure()
		d.openThinking(ev.OutputIndex)
	case typ == wire.EvSummaryDelta || typ == wire.EvReasoningDelta:
		d.ensure()
		if !d.resp.think {
			d.openThinking(ev.OutputIndex)
		}
		if ev.Delta != "" {
			d.drv.Emit(d.deltas.New(a, event.Thinking, ev.Delta))
		}
	case typ == wire.EvSummaryPartDone || typ == wire.EvSummaryDone || typ == wire.EvReasoningDone:
		r := d.ensure()
		if r.think {
			r.think, r.held = false, true
		}
	case typ == wire.EvArgsDelta || typ == wire.EvCustomInputDelta || typ == wire.EvMCPArgsDelta:
		it := d.item(ev.OutputIndex)
		if it.args.Len()+len(ev.Delta) > d.cfg.MaxEventBytes {
			return d.drv.Errorf(event.ErrTooLarge, "tool call arguments larger than %d bytes (raise the cap, MaxEventBytes)", d.cfg.MaxEventBytes)
		}
		it.args.WriteString(ev.Delta)
	case typ == wire.EvArgsDone || typ == wire.EvMCPArgsDone:
		it := d.item(ev.OutputIndex)
		it.args.Reset()
		it.args.WriteString(ev.Arguments)
	case typ == wire.EvCustomInputDone:
		it := d.item(ev.OutputIndex)
		it.args.Reset()
		it.args.WriteString(ev.Input)
	case isProgress(typ) || typ == wire.EvImagePartial:
		// Progress of a built-in tool: its item carries the outcome.
	default:
		d.drv.Emit(&event.Unknown{Agent: a, Format: Name, Type: typ, Raw: bytes.Clone(data)})
	}
	return nil
}

func (d *Decoder) item(index int) *itemState {
	r := d.ensure()
	it := r.items[index]
	if it == nil {
		it = &itemState{}
		d.addItem(r, index, it)
	}
	return it
}

func (d *Decoder) openText(index int, refusal bool) {
	r := d.resp
	d.releaseThinking()
	it := d.item(index)
	it.streamed = true
	if r.text == nil {
		r.text = &textState{}
		d.drv.Emit(d.blockStart(event.Text, it, refusal))
	}
}

func (d *Decoder) closeText() {
	r := d.resp
	if r.text == nil {
		return
	}
	anns := r.text.annotations
	r.text = nil
	d.drv.Emit(&event.BlockEnd{Agent: d.cfg.Agent, Kind: event.Text})
	d.citations(anns)
}

func (d *Decoder) citations(anns []wire.Annotation) {
	if len(anns) == 0 {
		return
	}
	items := make([]event.Citation, len(anns))
	for i, an := range anns {
		items[i] = event.Citation{
			Type: an.Type, URL: an.URL, Title: an.Title, StartCharIndex: an.StartIndex, EndCharIndex: an.EndIndex,
			DocumentTitle: an.Filename, DocumentIndex: an.Index, Raw: jsontext.Compact(an.Raw),
		}
	}
	d.drv.Emit(&event.Citations{Agent: d.cfg.Agent, Items: items})
}

func (d *Decoder) openThinking(index int) {
	r := d.resp
	d.closeText()
	d.releaseThinking()
	it := d.item(index)
	it.streamed = true
	r.think = true
	d.drv.Emit(d.blockStart(event.Thinking, it, false))
}

// releaseThinking ends a thinking block whose end was held for its
// item's encrypted_content, without it (another summary part follows).
func (d *Decoder) releaseThinking() {
	if r := d.resp; r != nil && (r.held || r.think) {
		r.held, r.think = false, false
		d.drv.Emit(&event.BlockEnd{Agent: d.cfg.Agent, Kind: event.Thinking})
	}
}

// closeOpen ends the open text or thinking block.
func (d *Decoder) closeOpen() {
	d.closeText()
	d.releaseThinking()
}

func (d *Decoder) itemDone(index int, item *wire.Item) error {
	r := d.resp
	item.ID = openai.Given(item.ID) // an id agentstream made up is none
	st := r.items[index]
	if st == nil {
		st = &itemState{typ: item.Type, id: item.ID, callID: item.CallID, name: item.Name, server: item.ServerLabel}
	}
	delete(r.items, index)
	a := d.cfg.Agent
	switch item.Type {
	case wire.ItemMessage:
		if r.text != nil {
			d.closeText()
			break
		}
		if st.streamed {
			break
		}
		for _, p := range item.Content {
			text := p.Text
			if p.Type == wire.PartRefusal {
				text = p.Refusal
			}
			d.drv.Emit(&event.BlockStart{Agent: a, Kind: event.Text, ID: item.ID, Refusal: p.Type == wire.PartRefusal})
			if text != "" {
				d.drv.Emit(&event.Delta{Agent: a, Kind: event.Text, Text: text})
			}
			d.drv.Emit(&event.BlockEnd{Agent: a, Kind: event.Text})
			d.citations(p.Annotations)
		}
	case wire.ItemReasoning:
		d.closeText()
		if r.held || r.think {
			r.held, r.think = false, false
			d.drv.Emit(&event.BlockEnd{Agent: a, Kind: event.Thinking, Signature: item.EncryptedContent})
			break
		}
		if st.streamed {
			break
		}
		parts := item.Summary
		if len(parts) == 0 {
			parts = item.Content // reasoning_text parts
		}
		if len(parts) == 0 && item.EncryptedContent != "" {
			parts = []wire.Part{{}}
		}
		for i, p := range parts {
			d.drv.Emit(&event.BlockStart{Agent: a, Kind: event.Thinking, ID: item.ID})
			if p.Text != "" {
				d.drv.Emit(&event.Delta{Agent: a, Kind: event.Thinking, Text: p.Text})
			}
			sig := ""
			if i == len(parts)-1 {
				sig = item.EncryptedContent
			}
			d.drv.Emit(&event.BlockEnd{Agent: a, Kind: event.Thinking, Signature: sig})
		}
	case wire.ItemFunctionCall, wire.ItemCustomToolCall, wire.ItemLocalShell:
		d.closeOpen()
		r.tools = true
		d.drv.Emit(d.toolCall(st, item))
	case wire.ItemMCPCall:
		d.closeOpen()
		d.drv.Emit(d.toolCall(st, item))
		res := &event.ToolResult{Agent: a, ID: item.ID, Name: item.Name, Status: item.Status}
		if item.Output != nil {
			res.Content = []event.Part{{Type: "text", Text: *item.Output}}
		}
		if len(item.Error) > 0 && string(item.Error) != "null" {
			res.IsError = true
			var msg string
			if json.Unmarshal(item.Error, &msg) != nil {
				msg = string(validJSON(item.Error))
			}
			res.Content = append(res.Content, event.Part{Type: "text", Text: msg})
		}
		d.drv.Emit(res)
	case wire.ItemWebSearch, wire.ItemFileSearch, wire.ItemCodeInterp, wire.ItemImageGen:
		d.closeOpen()
		d.serverItem(item)
	case wire.ItemToolSearch:
		// Codex's client-side tool search: a client tool call whose
		// arguments are an object.
		d.closeOpen()
		r.tools = true
		in := json.RawMessage("{}")
		if len(item.Arguments) > 0 {
			in = validJSON(item.Arguments)
			if in[0] == '"' {
				var s string
				json.Unmarshal(in, &s)
				in = toolInput(s)
			}
		}
		d.drv.Emit(&event.ToolCall{Agent: a, ID: item.CallID, Name: wire.ToolSearchTool, Input: in, ItemID: item.ID})
	default:
		d.closeOpen()
		d.drv.Emit(&event.Unknown{Agent: a, Format: Name, Type: item.Type, Raw: jsontext.Compact(item.Raw)})
	}
	return nil
}

// toolCall returns the ToolCall of a client or MCP tool item. item is
// nil when the stream was cut before the item's end.
func (d *Decoder) toolCall(st *itemState, item *wire.Item) *event.ToolCall {
	tc := &event.ToolCall{Agent: d.cfg.Agent, ID: st.callID, Name: st.name, ItemID: st.id}
	args := st.args.String()
	typ := st.typ
	if item != nil {
		typ = item.Type
		tc.ID, tc.Name, tc.ItemID = item.CallID, item.Name, item.ID
		switch {
		case item.Type == wire.ItemCustomToolCall:
			args = item.Input
		case len(item.Arguments) > 0 && item.Arguments[0] == '"':
			json.Unmarshal(item.Arguments, &args)
		}
	}
	switch typ {
	case wire.ItemCustomToolCall:
		tc.Input, _ = openai.Marshal(args) // free text: a JSON string
	case wire.ItemLocalShell:
		tc.Name = wire.LocalShellTool
		tc.Input = json.RawMessage("{}")
		if item != nil && len(item.Action) > 0 {
			tc.Input = validJSON(item.Action)
		}
	case wire.ItemMCPCall:
		tc.ID, tc.MCPServer, tc.ItemID = st.id, st.server, ""
		if item != nil {
			tc.ID, tc.MCPServer = item.ID, item.ServerLabel
		}
		tc.Input = toolInput(args)
	default:
		tc.Input = toolInput(args)
	}
	return tc
}

func toolInput(args string) json.RawMessage {
	if args == "" {
		return json.RawMessage("{}")
	}
	return event.JSONText(args)
}

// serverItem emits a built-in tool's item as a server ToolCall (its
// input: the action, queries or code) and ToolResult (its results, with
// the whole item as Structured, which the encoder writes back).
func (d *Decoder) serverItem(item *wire.Item) {
	a := d.cfg.Agent
	in := json.RawMessage("{}")
	var out json.RawMessage
	switch item.Type {
	case wire.ItemWebSearch:
		if len(item.Action) > 0 {
			in = item.Action
		}
	case wire.ItemFileSearch:
		if len(item.Queries) > 0 {
			in, _ = openai.Marshal(struct {
				Queries json.RawMessage `json:"queries"`
			}{item.Queries})
		}
		out = item.Results
	case wire.ItemCodeInterp:
		if item.Code != nil {
			in, _ = openai.Marshal(struct {
				Code        string `json:"code"`
				ContainerID string `json:"container_id,omitempty"`
			}{*item.Code, item.ContainerID})
		}
		out = item.Outputs
	case wire.ItemImageGen:
		if item.Result != nil {
			out, _ = openai.Marshal(*item.Result)
		}
	}
	d.drv.Emit(&event.ToolCall{Agent: a, ID: item.ID, Name: strings.TrimSuffix(item.Type, "_call"), Input: validJSON(in), Server: true})
	res := &event.ToolResult{Agent: a, ID: item.ID, Name: item.Type, Server: true, Status: item.Status, Structured: validJSON(item.Raw)}
	if len(out) > 0 && string(out) != "null" {
		res.Content = []event.Part{{Type: "text", Text: string(validJSON(out))}}
	}
	d.drv.Emit(res)
}

// end closes the open response with the final response object (nil when
// a new response began without the last one's end).
func (d *Decoder) end(rs *wire.Response, typ string) {
	r := d.resp
	if r == nil {
		return
	}
	d.closeOpen()
	d.resp = nil
	te := &event.TurnEnd{Agent: d.cfg.Agent, MessageID: r.id}
	if rs == nil {
		d.drv.Emit(te)
		return
	}
	reason := ""
	if rs.IncompleteDetails != nil {
		reason = rs.IncompleteDetails.Reason
	}
	status := rs.Status
	if status == "" {
		status = strings.TrimPrefix(typ, "response.")
	}
	te.StopReason = openai.StopFromStatus(status, reason, r.tools)
	if rs.Usage != nil {
		te.Usage = rs.Usage.Counts().Event()
		te.Usage.ServiceTier = rs.ServiceTier
	}
	if status == openai.StatusFailed {
		te.Error = "response failed"
		if rs.Error != nil && rs.Error.Message != "" {
			te.Error = rs.Error.Message
		}
	}
	d.drv.Emit(te)
}

// validJSON returns raw (valid JSON) compacted, with invalid UTF-8 in its
// strings replaced by U+FFFD as encoding/json decodes it: what a decoder
// passes on as text must be valid UTF-8.
func validJSON(raw json.RawMessage) json.RawMessage {
	c := jsontext.Compact(raw)
	if utf8.Valid(c) {
		return c
	}
	var v any
	if json.Unmarshal(c, &v) != nil {
		return c
	}
	b, err := openai.Marshal(v)
	if err != nil {
		return c
	}
	return b
}
