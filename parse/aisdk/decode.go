package aisdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/slab"
	"github.com/agentstream/agentstream/internal/textlist"
	wire "github.com/agentstream/agentstream/internal/wire/aisdk"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Name is the format's name, and the event.Unknown.Format of its items.
const Name = wire.Name

// MetaKind is the SessionStart.MetaKind and RunEnd.MetaKind of the start
// and finish chunks this decoder keeps verbatim in Meta.
const MetaKind = "aisdk"

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one SSE message and on one tool call's streamed input (event.DefaultMaxBytes if 0)
	Agent         string // agent id of every event (the stream names none)
	StopAtDone    bool   // end the input at data: [DONE]
	// MaxOpen caps the tool calls whose input streams at once
	// (openset.DefaultMax if 0). Beyond it the oldest is emitted with the
	// input so far, reported once, wrapping event.ErrTooManyOpen.
	MaxOpen int
}

// Decoder reads a UI message stream and yields canonical events. See the
// package documentation for the grammar and tolerance rules.
type Decoder struct {
	jr     jsontext.Reader // reads the wire structs in one pass
	str    slab.Strings    // the strings jr makes (ids, deltas)
	chunk  wire.Chunk      // the chunk being decoded
	deltas deltabatch.Batch
	// The structural events of a step, which come as often as its
	// deltas, in batches too.
	turnStarts  deltabatch.Of[event.TurnStart]
	turnEnds    deltabatch.Of[event.TurnEnd]
	blockStarts deltabatch.Of[event.BlockStart]
	blockEnds   deltabatch.Of[event.BlockEnd]
	// And the start and finish of each message, with the chunks' Raw
	// texts (raws).
	sessionStarts deltabatch.Of[event.SessionStart]
	runEnds       deltabatch.Of[event.RunEnd]
	raws          slab.Bytes
	// And the data parts (Unknown), errors and tool calls and results,
	// a few in every step of many streams.
	unknowns  deltabatch.Of[event.Unknown]
	errs      deltabatch.Of[event.Error]
	toolCalls deltabatch.Of[event.ToolCall]
	results   deltabatch.Of[event.ToolResult]
	output    string // a tool output read as a string (toolOutput)

	cfg Config
	sse *frame.SSE
	st  decoderstate.State
	cut error // the framer's report of an input cut inside an SSE message

	line int // position of the message being decoded
	off  int64
	bad  badutf8.Once
	// compact: the chunk being decoded was read whole by jr, which found
	// no white space outside its strings (jsontext.Reader.Spaced).
	compact bool

	open     [2]openPart          // the open text and reasoning part (partOf)
	inputs   []*toolInput         // tool calls whose input is streaming, oldest first
	inBytes  int                  // their input so far
	step     bool                 // a start-step is not yet finished
	ended    bool                 // finish or abort arrived
	capped   bool                 // ErrTooManyOpen was reported
	sources  []event.Citation     // sources in a row, until the next other chunk
	calls    *openset.Set[string] // tool calls not yet answered, at most MaxOpen
	names    map[string]string    // their names, which their results take
	anything bool                 // a chunk arrived
}

// openPart is the id of a text or reasoning part, if one is open.
type openPart struct {
	id string
	ok bool
}

// partOf is the open part of kind (a text or reasoning part).
func (d *Decoder) partOf(kind event.BlockKind) *openPart {
	if kind == event.Thinking {
		return &d.open[1]
	}
	return &d.open[0]
}

type toolInput struct {
	id, name string
	server   bool
	text     strings.Builder
	deltas   []int  // the fragments' lengths, in few while they fit
	few      [4]int // (an input streams in a few fragments)
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxEventBytes <= 0 {
		d.cfg.MaxEventBytes = event.DefaultMaxBytes
	}
	if d.cfg.MaxOpen <= 0 {
		d.cfg.MaxOpen = openset.DefaultMax
	}
	d.sse = frame.NewSSE(r, d.cfg.Source, d.cfg.MaxEventBytes)
	d.jr.SetStrings(d.str.String)
	d.calls, d.names = openset.New[string](d.cfg.MaxOpen), map[string]string{}
	return d
}

// Detect reports whether an input whose first unit is h is a UI message
// stream: SSE without event: fields whose first data is a chunk of the
// protocol (an error chunk by its errorText, which tells it from the
// other formats' error objects).
func Detect(h format.Head) bool {
	if !h.SSE || h.EventType != "" {
		return false
	}
	m := h.Fields()
	typ, ok := format.String(m, "type")
	if !ok {
		return false
	}
	switch typ {
	case wire.TypeError:
		_, ok := m["errorText"]
		return ok
	case wire.TypeStart:
		// The only chunk a stream begins with; its members tell it from
		// another format's "start".
		for k := range m {
			if k != "type" && k != "messageId" && k != "messageMetadata" {
				return false
			}
		}
		return true
	}
	if wire.IsData(typ) {
		_, ok := m["data"]
		return ok
	}
	f, ok := wire.FieldsOf(typ)
	if !ok {
		return false
	}
	for _, k := range f.Required {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.st.Next(d.read, d.truncation) }

func (d *Decoder) read() {
	data, _, err := d.sse.NextData()
	if err == nil {
		d.line, d.off = d.sse.Pos()
		d.message(data)
		return
	}
	// An input that ends inside a message loses what it held: one
	// truncation is reported, after what is flushed.
	d.cut = d.st.ReadError(err)
}

// message decodes the data of one SSE message, at d.line and d.off. It is
// borrowed from the framer: what events keep of it, they copy.
func (d *Decoder) message(data []byte) {
	warn := false
	if !jsontext.IsASCII(data) && !utf8.Valid(data) {
		data, _, warn = d.bad.Fix(data)
	}
	if n := len(data); n > 0 && (isSpaceByte(data[0]) || isSpaceByte(data[n-1])) {
		data = bytes.TrimSpace(data)
	}
	d.st.Problem(d.decode(data))
	if warn {
		d.st.Problem(badutf8.Warning(d.cfg.Source, d.line, 1, d.off))
	}
}

// isSpaceByte reports whether b may begin or end a character that
// bytes.TrimSpace trims: ASCII white space or any byte of a multi-byte
// UTF-8 sequence.
func isSpaceByte(b byte) bool { return b <= ' ' || b >= utf8.RuneSelf }

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.line, Column: 1, Offset: d.off,
		Err: event.Errorf(sentinel, format, args...),
	}
}

func (d *Decoder) emit(evs ...event.Event) { d.st.Emit(evs...) }

func (d *Decoder) decode(data []byte) error {
	if len(data) == 0 {
		return nil // a message with no data (a comment, id: or retry: alone)
	}
	if string(data) == wire.Done {
		if d.cfg.StopAtDone {
			d.st.End()
		}
		return nil
	}
	// The chunk is the decoder's, reused: nothing an event keeps points
	// into it (its strings are fresh each time or its last ids' text,
	// never changed; the values its pointers point to are its own, read
	// from, never kept, but for a source's URL and Title, fresh each
	// time). It is read as jsontext.DecodeValid reads it, whose calls
	// cost as much as reading a short chunk.
	c := &d.chunk
	wire.ResetChunk(c)
	if d.jr.ResetValid(data); wire.ReadChunk(&d.jr, c) && d.jr.End() {
		// Read whole: the reader saw any white space outside strings.
		d.compact = !d.jr.Spaced()
	} else {
		d.compact = false
		*c = wire.Chunk{}
		if err := json.Unmarshal(data, c); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return d.errorf(event.ErrSyntax, "chunk: %s", jsontext.Problem(err))
			}
			return d.errorf(event.ErrSyntax, "data is not a JSON object: %s", jsontext.Problem(err))
		}
	}
	d.anything = true
	if len(d.sources) > 0 && c.Type != wire.TypeSourceURL && c.Type != wire.TypeSourceDocument {
		d.flushSources()
	}
	agent := d.cfg.Agent
	switch c.Type {
	case wire.TypeStart:
		ss := d.sessionStarts.New()
		ss.Agent, ss.Meta, ss.MetaKind = agent, d.raw(data), MetaKind
		ss.Checked = event.CompactJSON(ss.Meta)
		d.emit(ss)
	case wire.TypeStartStep:
		d.endStep()
		d.step = true
		ts := d.turnStarts.New()
		ts.Agent = agent
		d.emit(ts)
	case wire.TypeFinishStep:
		d.closeBlocks()
		d.endStep()
	case wire.TypeTextStart, wire.TypeReasoningStart:
		kind := kindOf(c.Type)
		d.closeBlock(kind)
		*d.partOf(kind) = openPart{c.ID, true}
		bs := d.blockStarts.New()
		bs.Agent, bs.Kind = agent, kind
		d.emit(bs)
	case wire.TypeTextDelta, wire.TypeReasoningDelta:
		kind := kindOf(c.Type)
		if p := d.partOf(kind); !p.ok || p.id != c.ID {
			return d.errorf(event.ErrSyntax, "%s for part %q, which is not open", c.Type, c.ID)
		}
		if c.Delta != nil && *c.Delta != "" {
			d.emit(d.deltas.New(agent, kind, *c.Delta))
		}
	case wire.TypeTextEnd, wire.TypeReasoningEnd:
		kind := kindOf(c.Type)
		if p := d.partOf(kind); !p.ok || p.id != c.ID {
			return d.errorf(event.ErrSyntax, "%s for part %q, which is not open", c.Type, c.ID)
		}
		d.closeBlock(kind)
	case wire.TypeToolInputStart:
		return d.inputStart(c)
	case wire.TypeToolInputDelta:
		return d.inputDelta(c)
	case wire.TypeToolInputAvailable:
		d.toolCall(c)
	case wire.TypeToolInputError:
		d.toolCall(c)
		d.result(&event.ToolResult{Agent: agent, ID: c.ToolCallID, Content: textPart(c.ErrorText), IsError: true, Server: isTrue(c.ProviderExecuted)})
	case wire.TypeToolOutputAvailable:
		d.result(d.toolOutput(agent, c))
	case wire.TypeToolOutputError:
		d.result(&event.ToolResult{Agent: agent, ID: c.ToolCallID, Content: textPart(c.ErrorText), IsError: true, Server: isTrue(c.ProviderExecuted)})
	case wire.TypeToolOutputDenied:
		d.result(&event.ToolResult{Agent: agent, ID: c.ToolCallID, Status: StatusDenied})
	case wire.TypeSourceURL, wire.TypeSourceDocument:
		// Consecutive sources are one Citations: the text before them
		// has them all.
		d.sources = append(d.sources, source(c, d.raw(data)))
	case wire.TypeError:
		msg := ""
		if c.ErrorText != nil {
			msg = *c.ErrorText
		}
		d.closeBlocks()
		e := d.errs.New()
		e.Agent, e.Message, e.Raw = agent, msg, d.raw(data)
		e.Checked = event.CompactJSON(e.Raw)
		d.emit(e)
	case wire.TypeAbort:
		d.ended = true
		d.open = [2]openPart{} // the Error ends them
		msg := "aborted"
		if c.Reason != nil && *c.Reason != "" {
			msg = *c.Reason
		}
		raw := d.raw(data)
		d.emit(&event.Error{Agent: agent, Message: msg, Type: ErrorAbort, Fatal: true, Raw: raw, Checked: event.CompactJSON(raw)})
		if d.step {
			// The stream stops here: so does its step.
			d.step = false
			d.emit(&event.TurnEnd{Agent: agent, Error: msg})
		}
	case wire.TypeFinish:
		d.closeBlocks()
		d.endStep()
		d.ended = true
		re := d.runEnds.New()
		re.Agent, re.Meta, re.MetaKind = agent, d.raw(data), MetaKind
		re.Checked = event.CompactJSON(re.Meta)
		if c.FinishReason == wire.FinishError {
			re.IsError = true
		} else {
			re.StopReason = wire.StopFromFinish(c.FinishReason)
		}
		d.emit(re)
	case wire.TypeResetStep:
		// The step's open parts are given up: the ones it finished stay.
		d.open = [2]openPart{}
		d.dropInputs()
		raw := d.raw(data)
		d.emit(&event.Notice{Agent: agent, Kind: event.NoticeAbandoned, Message: "reset-step: the step is begun again", Raw: raw, Checked: event.CompactJSON(raw)})
	default:
		// data-*, file, reasoning-file, message-metadata, custom,
		// tool-approval-*, steering-message and types to come: data.
		u := d.unknowns.New()
		u.Agent, u.Format, u.Type, u.Raw = agent, Name, c.Type, d.raw(data)
		u.Checked = event.CompactJSON(u.Raw)
		d.emit(u)
	}
	return nil
}

// raw is the chunk's Raw: data, decoded, is valid JSON, which
// CompactValid compacts as json.Compact does, returning data itself
// (borrowed: copied here) when it has no white space to drop. So Raw is
// valid, compact JSON, as its events note (event.CompactJSON).
func (d *Decoder) raw(data []byte) json.RawMessage {
	// The chunk's reader found no white space in it (compact), or it
	// has no space, tab or line break (the framer joins a message's data
	// lines with one; a carriage return ends a line): nothing to drop.
	if d.compact || bytes.IndexByte(data, ' ') < 0 && bytes.IndexByte(data, '\t') < 0 && bytes.IndexByte(data, '\n') < 0 {
		return d.raws.Copy(data)
	}
	c := jsontext.CompactValid(data)
	if len(c) == len(data) {
		c = d.raws.Copy(c)
	}
	return c
}

// The statuses and error types this decoder gives what has no field of
// its own in the event model.
const (
	// StatusDenied is the ToolResult.Status of a tool-output-denied chunk.
	StatusDenied = "denied"
	// ErrorAbort is the Error.Type of an abort chunk.
	ErrorAbort = "abort"
)

func kindOf(typ string) event.BlockKind {
	if strings.HasPrefix(typ, "reasoning-") {
		return event.Thinking
	}
	return event.Text
}

func isTrue(b *bool) bool { return b != nil && *b }

func textPart(s *string) []event.Part {
	if s == nil {
		return nil
	}
	return []event.Part{{Type: "text", Text: *s}}
}

// toolOutput is the result of a tool-output-available chunk: a string
// output is its text, any other JSON value its structured output.
func (d *Decoder) toolOutput(agent string, c *wire.Chunk) *event.ToolResult {
	tr := d.results.New()
	tr.Agent, tr.ID, tr.Server = agent, c.ToolCallID, isTrue(c.ProviderExecuted)
	if len(c.Output) > 0 && c.Output[0] == '"' && jsontext.DecodeValid(&d.jr, c.Output, &d.output, readString) == nil {
		tr.Content = []event.Part{{Type: "text", Text: d.output}}
	} else if len(c.Output) > 0 {
		tr.Structured = jsontext.CompactValid(c.Output) // the chunk's own copy, valid
		tr.Checked = event.CompactJSON(tr.Structured)
	}
	return tr
}

// readString reads a JSON string for jsontext.DecodeValid.
func readString(r *jsontext.Reader, s *string) bool {
	r.StringField(s)
	return !r.Failed()
}

// source is the citation of a source-url or source-document chunk; Raw
// keeps the chunk.
func source(c *wire.Chunk, raw json.RawMessage) event.Citation {
	ci := event.Citation{Type: c.Type, Raw: raw}
	if c.Type == wire.TypeSourceURL {
		ci.URL, ci.Title = c.URL, c.Title
	} else {
		ci.DocumentTitle = c.Title
	}
	return ci
}

func (d *Decoder) flushSources() {
	if len(d.sources) > 0 {
		d.emit(&event.Citations{Agent: d.cfg.Agent, Items: d.sources})
		d.sources = nil
	}
}

// closeBlock ends the open part of kind, if any.
func (d *Decoder) closeBlock(kind event.BlockKind) {
	if p := d.partOf(kind); p.ok {
		*p = openPart{}
		be := d.blockEnds.New()
		be.Agent, be.Kind = d.cfg.Agent, kind
		d.emit(be)
	}
}

// closeBlocks ends the open parts: a step, the stream or an error ends
// them in the SDK's client too (it drops their state).
func (d *Decoder) closeBlocks() {
	d.closeBlock(event.Thinking)
	d.closeBlock(event.Text)
}

func (d *Decoder) endStep() {
	if d.step {
		d.step = false
		te := d.turnEnds.New()
		te.Agent = d.cfg.Agent
		d.emit(te)
	}
}

func (d *Decoder) input(id string) *toolInput {
	for _, t := range d.inputs {
		if t.id == id {
			return t
		}
	}
	return nil
}

func (d *Decoder) inputStart(c *wire.Chunk) error {
	var problem error
	if d.input(c.ToolCallID) == nil && len(d.inputs) >= d.cfg.MaxOpen {
		old := d.inputs[0]
		d.inputs = slices.Delete(d.inputs, 0, 1)
		d.inBytes -= old.text.Len()
		d.emit(old.call(d.cfg.Agent))
		if !d.capped {
			d.capped = true
			problem = d.errorf(event.ErrTooManyOpen, "more than %d tool inputs streaming at once; emitted the oldest, %q, with its input so far (later ones are not reported)", d.cfg.MaxOpen, old.id)
		}
	}
	t := d.input(c.ToolCallID)
	if t == nil {
		t = &toolInput{id: c.ToolCallID}
		t.deltas = t.few[:0]
		d.inputs = append(d.inputs, t)
	}
	if c.ToolName != nil {
		t.name = *c.ToolName
	}
	t.server = isTrue(c.ProviderExecuted)
	return problem
}

func (d *Decoder) inputDelta(c *wire.Chunk) error {
	t := d.input(c.ToolCallID)
	if t == nil {
		return d.errorf(event.ErrSyntax, "tool-input-delta for tool call %q, which has no tool-input-start", c.ToolCallID)
	}
	if c.InputTextDelta == nil {
		return nil
	}
	s := *c.InputTextDelta
	if d.inBytes+len(s) > d.cfg.MaxEventBytes {
		return d.errorf(event.ErrTooLarge, "tool input larger than %d bytes (raise the cap, MaxEventBytes)", d.cfg.MaxEventBytes)
	}
	d.inBytes += len(s)
	t.text.WriteString(s)
	t.deltas = append(t.deltas, len(s))
	return nil
}

// call is the ToolCall of a tool input cut before it was available: a
// truncated call with the input text that arrived (none: an empty string,
// never a made-up {}).
func (t *toolInput) call(agent string) *event.ToolCall {
	return &event.ToolCall{
		Agent: agent, ID: t.id, Name: t.name, Input: event.JSONText(t.text.String()), Server: t.server,
		Truncated: true,
	}
}

// toolCall emits the ToolCall of a tool-input-available or
// tool-input-error chunk. The fragments it streamed in are kept as
// InputDeltas when they spell the input exactly.
func (d *Decoder) toolCall(c *wire.Chunk) {
	tc := d.toolCalls.New()
	tc.Agent, tc.ID, tc.Server = d.cfg.Agent, c.ToolCallID, isTrue(c.ProviderExecuted)
	if c.ToolName != nil {
		tc.Name = *c.ToolName
	}
	if len(c.Input) > 0 {
		tc.Input = jsontext.CompactValid(c.Input) // the chunk's own copy, valid
	} else {
		tc.Input = json.RawMessage("{}")
	}
	tc.Checked = event.CompactJSON(tc.Input)
	if i := slices.IndexFunc(d.inputs, func(t *toolInput) bool { return t.id == c.ToolCallID }); i >= 0 {
		t := d.inputs[i]
		d.inputs = slices.Delete(d.inputs, i, i+1)
		d.inBytes -= t.text.Len()
		if len(t.deltas) > 1 && t.text.String() == string(tc.Input) {
			tc.InputDeltas = t.deltas
		}
	}
	d.emit(tc)
	if old, out := d.calls.Add(tc.ID); out {
		delete(d.names, old)
	}
	d.names[tc.ID] = tc.Name
}

// result emits a tool result, with the name of its call (the stream
// names a tool only in its call's chunks, as the SDK's client does).
func (d *Decoder) result(tr *event.ToolResult) {
	if name, ok := d.names[tr.ID]; ok {
		tr.Name = name
		delete(d.names, tr.ID)
		d.calls.Remove(tr.ID)
	}
	d.emit(tr)
}

// dropInputs forgets the tool inputs streaming (reset-step).
func (d *Decoder) dropInputs() {
	d.inputs, d.inBytes = nil, 0
}

// truncation ends the input: a stream that ends without finish or abort
// was cut. The tool calls whose input had begun are emitted with what
// arrived; the open parts stay open.
func (d *Decoder) truncation() error {
	d.flushSources()
	if d.ended {
		return d.cut
	}
	var open []string
	for _, kind := range []event.BlockKind{event.Text, event.Thinking} {
		if p := d.partOf(kind); p.ok {
			open = append(open, fmt.Sprintf("%s part %q", partName(kind), p.id))
		}
	}
	for _, t := range d.inputs {
		d.emit(t.call(d.cfg.Agent))
		open = append(open, fmt.Sprintf("the input of tool call %q", t.id))
	}
	d.inputs = nil
	if d.cut != nil || !d.anything {
		return d.cut
	}
	msg := "stream ended without a finish chunk"
	if len(open) > 0 {
		msg += ", inside " + textlist.Join(open, ", ")
	}
	return &event.ParseError{Source: d.cfg.Source, Line: d.line, Offset: d.off, Err: event.Errorf(event.ErrTruncated, "%s", msg)}
}

func partName(kind event.BlockKind) string {
	if kind == event.Thinking {
		return "reasoning"
	}
	return "text"
}
