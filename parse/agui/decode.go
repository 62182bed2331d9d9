package agui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/agui"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one SSE message and one tool call's arguments (event.DefaultMaxBytes if 0)
	// Agent is the main agent's id when RUN_STARTED names no run (an
	// empty runId).
	Agent string
	// MaxOpen caps the messages and tool calls open at once, and the
	// tool call names remembered for their results (openset.DefaultMax
	// if 0). Beyond it the oldest is let go of: a message stays open
	// downstream, a tool call is emitted with its arguments so far;
	// reported once, wrapping event.ErrTooManyOpen.
	MaxOpen int
	// Foreign names the format of a line of another format
	// (format.Options.Foreign).
	Foreign format.Foreign
}

// Decoder reads an AG-UI event stream and yields canonical events. See
// the package documentation for the grammar and tolerance rules.
type Decoder struct {
	deltas deltabatch.Batch
	jr     jsontext.Reader // reads the wire structs in one pass
	cfg    Config
	sse    *frame.SSE
	st     decoderstate.State
	utf8   badutf8.Once
	line   int
	off    int64
	cut    error // the framer's report of an input cut inside a message

	read    bool   // an event has been read
	running bool   // RUN_STARTED read, and no RUN_FINISHED or RUN_ERROR
	main    string // the run's agent
	capped  bool

	msgs  ordered // ids of the open messages, oldest first
	msg   map[string]*message
	calls ordered // ids of the open tool calls
	call  map[string]*toolCall
	names ordered // ids of recent tool calls, for their results' names
	name  map[string]string
	// input holds the inputs of recent tool calls without a result yet,
	// for a RUN_FINISHED that names them as pending; inputBytes is their
	// size, at most MaxEventBytes (beyond, the oldest is let go of).
	input      map[string]json.RawMessage
	inputBytes int
	chunks     map[string]*chunkLane // per agent: the streams opened by *_CHUNK events
	steps      []step                // open steps, oldest first
}

// step is an open step (a turn) of an agent.
type step struct{ agent, name string }

// message is an open text or reasoning message (other = a text message
// of a role other than assistant, kept as Unknown events).
type message struct {
	agent string
	kind  event.BlockKind
	other bool
	sig   string
}

type toolCall struct {
	id, name, agent string
	args            strings.Builder
	frags           []int
}

// chunkLane is an agent's streams opened by chunk events.
type chunkLane struct {
	text, reasoning, tool string
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{msg: map[string]*message{}, call: map[string]*toolCall{}, name: map[string]string{}, input: map[string]json.RawMessage{}, chunks: map[string]*chunkLane{}}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxEventBytes <= 0 {
		d.cfg.MaxEventBytes = event.DefaultMaxBytes
	}
	if d.cfg.MaxOpen <= 0 {
		d.cfg.MaxOpen = openset.DefaultMax
	}
	d.main = d.cfg.Agent
	d.sse = frame.NewSSE(r, d.cfg.Source, d.cfg.MaxEventBytes)
	return d
}

// Detect reports whether an input whose first unit is h is an AG-UI
// event stream: SSE whose first data is a JSON object with an AG-UI event
// type.
func Detect(h format.Head) bool {
	if !h.SSE || h.EventType != "" {
		return false
	}
	t, ok := format.String(h.Fields(), "type")
	return ok && wire.Known(t)
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.st.Next(d.readMessage, d.truncation) }

func (d *Decoder) readMessage() {
	m, err := d.sse.Next()
	if err != nil {
		d.cut = d.st.ReadError(err)
		return
	}
	d.line, d.off = m.Line, m.Offset
	d.decode(m)
}

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{Source: d.cfg.Source, Line: d.line, Column: 1, Offset: d.off, Err: event.Errorf(sentinel, format, args...)}
}

func (d *Decoder) emit(evs ...event.Event) { d.st.Emit(evs...) }

// truncation ends the input: what a run left open is flushed (tool calls
// with their arguments so far; messages stay open) and reported.
func (d *Decoder) truncation() error {
	if !d.running {
		return d.cut
	}
	var open []string
	for _, id := range d.msgs.ids {
		open = append(open, "message "+id)
	}
	for _, id := range slices.Clone(d.calls.ids) {
		open = append(open, "tool call "+id)
		d.endCall(id, true)
	}
	what := "no RUN_FINISHED or RUN_ERROR"
	if len(open) > 0 {
		what += ", inside " + strings.Join(open, ", ")
	}
	return &event.ParseError{Source: d.cfg.Source, Line: d.line, Offset: d.off, Err: event.Errorf(event.ErrTruncated, "stream ended in run %q: %s", d.main, what)}
}

// agent returns the agent an event is attributed to.
func (d *Decoder) agent(sub *string) string {
	if sub != nil {
		return *sub
	}
	return d.main
}

func (d *Decoder) decode(m frame.Message) {
	data := []byte(strings.TrimSpace(m.Data))
	if len(data) == 0 {
		return // a message with no data (a comment, id: or retry: alone)
	}
	data, col, warn := d.utf8.Fix(data)
	var h wire.Header
	if err := jsontext.DecodeValid(&d.jr, data, &h, wire.ReadHeader); err != nil {
		d.st.Problem(d.errorf(event.ErrSyntax, "data is not a JSON object: %s", jsontext.Problem(err)))
		return
	}
	if warn {
		d.st.Problem(badutf8.Warning(d.cfg.Source, m.Line, col+1, m.Offset))
	}
	if h.Type == "" {
		d.st.Problem(d.errorf(event.ErrSyntax, "event has no type"))
		return
	}
	if !d.read && h.Type != wire.RunStarted && h.Type != wire.RunError {
		d.running = true // tolerated: a stream that begins without RUN_STARTED
	}
	d.read = true
	if err := d.event(h.Type, data); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			d.st.Problem(d.errorf(event.ErrSyntax, "%s: %s", h.Type, jsontext.Problem(err)))
			return
		}
		d.st.Problem(err)
	}
}

// missing returns the problem of an event that lacks a required member
// (absent, or null; the last of duplicate members counts). The members
// are looked at in one pass of the Reader; an event it does not read
// exactly as json.Unmarshal into a map would (a key with an escape or
// a non-ASCII byte, nesting too deep) is read into the map.
func (d *Decoder) missing(typ string, data []byte) error {
	req := wire.Required[typ]
	if len(req) == 0 {
		return nil
	}
	if absent, ok := d.requiredAbsent(req, data); ok {
		if absent != "" {
			return d.errorf(event.ErrSyntax, "%s without %s", typ, absent)
		}
		return nil
	}
	return d.missingFromMap(typ, data)
}

// requiredAbsent returns the first of req that data, a JSON object,
// lacks or holds null, or "", and whether the Reader could tell.
func (d *Decoder) requiredAbsent(req []string, data []byte) (string, bool) {
	var set uint64 // bit i: req[i] is there and not null
	if len(req) > 64 {
		return "", false
	}
	r := &d.jr
	r.ResetValid(data)
	if !r.Object() {
		return "", false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		i := slices.Index(req, string(key))
		switch {
		case i < 0:
			r.Skip()
		case r.Null():
			set &^= 1 << i
		default:
			r.Skip()
			set |= 1 << i
		}
	}
	if !r.End() {
		return "", false
	}
	for i, k := range req {
		if set&(1<<i) == 0 {
			return k, true
		}
	}
	return "", true
}

// missingFromMap is missing for any event: data read into a map.
func (d *Decoder) missingFromMap(typ string, data []byte) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	for _, k := range wire.Required[typ] {
		if v, ok := m[k]; !ok || string(v) == "null" {
			return d.errorf(event.ErrSyntax, "%s without %s", typ, k)
		}
	}
	return nil
}

// event decodes one event of type typ.
func (d *Decoder) event(typ string, data []byte) error {
	if err := d.missing(typ, data); err != nil {
		return err
	}
	if !strings.HasSuffix(typ, "_CHUNK") {
		d.endChunks(typ, data)
	}
	switch typ {
	case wire.RunStarted:
		var e wire.RunStartedEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadRunStartedEvent); err != nil {
			return err
		}
		return d.runStarted(&e)
	case wire.RunFinished:
		var e wire.RunFinishedEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadRunFinishedEvent); err != nil {
			return err
		}
		d.runFinished(&e)
	case wire.RunError:
		var e wire.RunErrorEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadRunErrorEvent); err != nil {
			return err
		}
		// What the error cut short is what arrived of it: the client
		// keeps it so.
		d.closeOpen()
		d.emit(&event.Error{Agent: d.main, Message: e.Message, Type: deref(e.Code), Fatal: true, Raw: jsontext.Compact(data)})
		d.emit(&event.RunEnd{Agent: d.main, IsError: true, Usage: usage(e.Usage)})
		d.endRun()
	case wire.StepStarted:
		var e wire.StepStartedEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadStepStartedEvent); err != nil {
			return err
		}
		st := step{d.agent(e.SubagentRunID), e.StepName}
		if len(d.steps) >= d.cfg.MaxOpen {
			d.tooMany(fmt.Sprintf("more than %d steps open at once; stopped following step %q", d.cfg.MaxOpen, d.steps[0].name))
			d.steps = d.steps[1:]
		}
		d.steps = append(d.steps, st)
		d.emit(&event.TurnStart{Agent: st.agent, MessageID: e.StepName})
	case wire.StepFinished:
		var e wire.StepFinishedEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadStepFinishedEvent); err != nil {
			return err
		}
		st := step{d.agent(e.SubagentRunID), e.StepName}
		if i := slices.Index(d.steps, st); i >= 0 {
			d.steps = slices.Delete(d.steps, i, i+1)
		}
		d.emit(&event.TurnEnd{Agent: st.agent, MessageID: e.StepName})
	case wire.TextMessageStart:
		var e wire.TextMessageStartEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadTextMessageStartEvent); err != nil {
			return err
		}
		role := deref(e.Role)
		if role != "" && role != wire.RoleAssistant {
			d.open(e.MessageID, &message{agent: d.agent(e.SubagentRunID), kind: event.Text, other: true})
			d.unknown(typ, e.SubagentRunID, data)
			return nil
		}
		return d.startMessage(e.MessageID, d.agent(e.SubagentRunID), event.Text)
	case wire.TextMessageContent, wire.ReasoningMessageContent:
		var e wire.TextMessageContentEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadTextMessageContentEvent); err != nil {
			return err
		}
		return d.content(typ, e.MessageID, e.SubagentRunID, e.Delta, data)
	case wire.TextMessageEnd, wire.ReasoningMessageEnd:
		var e wire.TextMessageEndEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadTextMessageEndEvent); err != nil {
			return err
		}
		return d.endMessage(typ, e.MessageID, e.SubagentRunID, data)
	case wire.ReasoningMessageStart:
		var e wire.ReasoningMessageStartEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadReasoningMessageStartEvent); err != nil {
			return err
		}
		return d.startMessage(e.MessageID, d.agent(e.SubagentRunID), event.Thinking)
	case wire.ReasoningStart, wire.ReasoningEnd:
		// A span of reasoning: its messages carry the content.
		var e wire.ReasoningStartEvent
		return jsontext.DecodeValid(&d.jr, data, &e, wire.ReadReasoningStartEvent)
	case wire.ReasoningEncryptedValue:
		var e wire.ReasoningEncryptedValueEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadReasoningEncryptedValueEvent); err != nil {
			return err
		}
		if m := d.msg[e.EntityID]; m != nil && e.Subtype == wire.EncryptedMessage && m.kind == event.Thinking {
			m.sig = e.EncryptedValue
			return nil
		}
		d.unknown(typ, e.SubagentRunID, data)
	case wire.ToolCallStart:
		var e wire.ToolCallStartEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadToolCallStartEvent); err != nil {
			return err
		}
		return d.startCall(e.ToolCallID, e.ToolCallName, d.agent(e.SubagentRunID))
	case wire.ToolCallArgs:
		var e wire.ToolCallArgsEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadToolCallArgsEvent); err != nil {
			return err
		}
		return d.args(e.ToolCallID, e.Delta, e.SubagentRunID)
	case wire.ToolCallEnd:
		var e wire.ToolCallEndEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadToolCallEndEvent); err != nil {
			return err
		}
		if d.call[e.ToolCallID] == nil {
			return d.errorf(event.ErrSyntax, "TOOL_CALL_END of tool call %q, which is not open", e.ToolCallID)
		}
		d.endCall(e.ToolCallID, false)
	case wire.ToolCallResult:
		var e wire.ToolCallResultEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadToolCallResultEvent); err != nil {
			return err
		}
		return d.result(&e)
	case wire.TextMessageChunk:
		var e wire.TextMessageChunkEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadTextMessageChunkEvent); err != nil {
			return err
		}
		if r := deref(e.Role); r != "" && r != wire.RoleAssistant {
			d.unknown(typ, e.SubagentRunID, data)
			return nil
		}
		return d.chunk(event.Text, e.SubagentRunID, e.MessageID, e.Delta)
	case wire.ReasoningMessageChunk:
		var e wire.ReasoningMessageChunkEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadReasoningMessageChunkEvent); err != nil {
			return err
		}
		return d.chunk(event.Thinking, e.SubagentRunID, e.MessageID, e.Delta)
	case wire.ToolCallChunk:
		var e wire.ToolCallChunkEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadToolCallChunkEvent); err != nil {
			return err
		}
		return d.toolChunk(&e)
	case wire.SubagentStarted:
		var e wire.SubagentStartedEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadSubagentStartedEvent); err != nil {
			return err
		}
		parent := d.main
		if e.ParentSubagentRunID != nil {
			parent = *e.ParentSubagentRunID
		}
		d.emit(&event.SessionStart{
			Agent: e.SubagentRunID, ParentAgent: parent, ParentToolID: deref(e.ParentToolCallID),
			Name: e.Name, Description: deref(e.Description),
		})
	case wire.SubagentFinished:
		var e wire.SubagentFinishedEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadSubagentFinishedEvent); err != nil {
			return err
		}
		var result string
		if json.Unmarshal(e.Result, &result) != nil {
			result = ""
		}
		d.emit(&event.RunEnd{Agent: e.SubagentRunID, Result: result})
	case wire.SubagentError:
		var e wire.SubagentErrorEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadSubagentErrorEvent); err != nil {
			return err
		}
		d.emit(&event.Error{Agent: e.SubagentRunID, Message: e.Message, Type: deref(e.Code), Fatal: true, Raw: jsontext.Compact(data)})
		d.emit(&event.RunEnd{Agent: e.SubagentRunID, IsError: true})
	case wire.Custom:
		var e wire.CustomEvent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadCustomEvent); err != nil {
			return err
		}
		var v wire.ErrorValue
		if e.Name == wire.CustomError && jsontext.DecodeValid(&d.jr, e.Value, &v, wire.ReadErrorValue) == nil {
			d.emit(&event.Error{Agent: d.agent(e.SubagentRunID), Message: v.Message, Type: v.Type, Fatal: v.Fatal, Raw: jsontext.Compact(data)})
			return nil
		}
		d.unknown(typ, e.SubagentRunID, data)
	case wire.LegacyThinkingStart, wire.LegacyThinkingEnd:
		// A span of reasoning of a producer older than 1.0.
	case wire.LegacyThinkingTextMessageStart, wire.LegacyThinkingTextMessageContent, wire.LegacyThinkingTextMessageEnd:
		return d.legacyThinking(typ, data)
	default:
		if !wire.Known(typ) {
			if k := d.cfg.Foreign.Of(data); k != "" {
				// A line of another format, not an event of a newer
				// protocol.
				return d.errorf(event.ErrSyntax, "%s event of another format (it looks like %s); skipped", typ, k)
			}
		}
		// STATE_*, MESSAGES_SNAPSHOT, ACTIVITY_*, RAW, and types the
		// protocol does not know: kept as data.
		var e struct {
			wire.Attributable
		}
		if json.Unmarshal(data, &e) != nil {
			e.SubagentRunID = nil
		}
		d.unknown(typ, e.SubagentRunID, data)
	}
	return nil
}

// legacyThinking reads the THINKING_TEXT_MESSAGE_* events of producers
// older than 1.0 as a thinking block of the run's agent: they carry no
// message id, so one is open at a time.
func (d *Decoder) legacyThinking(typ string, data []byte) error {
	const id = "\x00thinking" // no AG-UI message id: ids are JSON strings without NUL
	switch typ {
	case wire.LegacyThinkingTextMessageStart:
		if d.msg[id] != nil {
			d.endMessage(typ, id, nil, nil)
		}
		return d.startMessage(id, d.main, event.Thinking)
	case wire.LegacyThinkingTextMessageContent:
		var e wire.LegacyThinkingContent
		if err := jsontext.DecodeValid(&d.jr, data, &e, wire.ReadLegacyThinkingContent); err != nil {
			return err
		}
		if d.msg[id] == nil {
			d.startMessage(id, d.main, event.Thinking)
		}
		d.emit(d.deltas.New(d.main, event.Thinking, e.Delta))
	default:
		if d.msg[id] != nil {
			d.endMessage(typ, id, nil, nil)
		}
	}
	return nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func (d *Decoder) unknown(typ string, sub *string, data []byte) {
	d.emit(&event.Unknown{Agent: d.agent(sub), Format: Name, Type: typ, Raw: jsontext.Compact(data)})
}

func (d *Decoder) runStarted(e *wire.RunStartedEvent) error {
	// A run still going on is left as it is (validate reports AGU001):
	// what it has open stays open downstream.
	d.endRun()
	d.running = true
	d.main = e.RunID
	if d.main == "" {
		d.main = d.cfg.Agent
	}
	s := &event.SessionStart{Agent: d.main, ParentAgent: deref(e.ParentRunID)}
	if e.ThreadID != e.RunID {
		s.SessionID = e.ThreadID
	}
	d.emit(s)
	return nil
}

// closeOpen ends what the run has open: tool calls, messages, steps.
func (d *Decoder) closeOpen() {
	for _, id := range slices.Clone(d.calls.ids) {
		d.endCall(id, false)
	}
	for _, id := range slices.Clone(d.msgs.ids) {
		m := d.msg[id]
		d.close(id)
		if !m.other {
			d.emit(&event.BlockEnd{Agent: m.agent, Kind: m.kind, Signature: m.sig})
		}
	}
	for i := len(d.steps) - 1; i >= 0; i-- {
		d.emit(&event.TurnEnd{Agent: d.steps[i].agent, MessageID: d.steps[i].name})
	}
	d.steps = d.steps[:0]
}

func (d *Decoder) runFinished(e *wire.RunFinishedEvent) {
	// What is still open ends with the run (validate says it should not
	// be open).
	d.closeOpen()
	if o := e.Outcome; o != nil && o.Type == wire.OutcomeSuccess && len(o.PendingToolCallIDs) > 0 {
		aw := &event.AwaitingTools{Agent: d.main}
		for _, id := range o.PendingToolCallIDs {
			aw.Tools = append(aw.Tools, event.PendingTool{ID: id, Name: d.name[id], Input: d.input[id]})
		}
		d.emit(aw)
	}
	end := &event.RunEnd{Agent: d.main, Usage: usage(e.Usage)}
	var result string
	if json.Unmarshal(e.Result, &result) == nil {
		end.Result = result
	}
	d.emit(end)
	d.endRun()
}

// endRun forgets what the run left open (a RUN_ERROR cuts its messages
// short: they stay without their end).
func (d *Decoder) endRun() {
	d.running = false
	d.msgs, d.calls = ordered{}, ordered{}
	clear(d.msg)
	clear(d.call)
	clear(d.chunks)
	d.steps = d.steps[:0]
}

// usage returns the run's usage: the entries summed, in canonical
// accounting (input tokens without the cached ones), with the counts
// some entry gives; nil when none gives one.
func usage(us []wire.TokenUsage) *event.Usage {
	var u event.Usage
	for _, t := range us {
		cached, written := deref(t.CachedInputTokens), deref(t.CacheWriteInputTokens)
		u.InputTokens += max(deref(t.InputTokens)-cached-written, 0)
		u.OutputTokens += deref(t.OutputTokens)
		u.CacheReadTokens += cached
		u.CacheWriteTokens += written
		u.ReasoningTokens += deref(t.ReasoningTokens)
		u.Has |= has(t.InputTokens, event.HasInput) | has(t.OutputTokens, event.HasOutput) |
			has(t.CachedInputTokens, event.HasCacheRead) | has(t.CacheWriteInputTokens, event.HasCacheWrite) |
			has(t.ReasoningTokens, event.HasReasoning)
	}
	if u.Has == 0 {
		return nil
	}
	return &u
}

// has returns c when n is given.
func has(n *int64, c event.Counts) event.Counts {
	if n == nil {
		return 0
	}
	return c
}

// open records an open message, letting go of the oldest beyond MaxOpen.
func (d *Decoder) open(id string, m *message) {
	if d.msg[id] != nil {
		d.msg[id] = m // started again: the later start counts
		return
	}
	if len(d.msgs.ids) >= d.cfg.MaxOpen {
		old := d.msgs.ids[0]
		d.close(old)
		d.tooMany(fmt.Sprintf("more than %d messages open at once; stopped following message %q", d.cfg.MaxOpen, old))
	}
	d.msgs.add(id)
	d.msg[id] = m
}

func (d *Decoder) close(id string) {
	d.msgs.remove(id)
	delete(d.msg, id)
}

func (d *Decoder) tooMany(what string) {
	if d.capped {
		return
	}
	d.capped = true
	d.st.Problem(d.errorf(event.ErrTooManyOpen, "%s (later ones are not reported)", what))
}

func (d *Decoder) startMessage(id, agent string, kind event.BlockKind) error {
	if d.msg[id] != nil {
		return d.errorf(event.ErrSyntax, "message %q is started again before its end", id)
	}
	d.open(id, &message{agent: agent, kind: kind})
	d.emit(&event.BlockStart{Agent: agent, Kind: kind})
	return nil
}

func (d *Decoder) content(typ, id string, sub *string, delta string, data []byte) error {
	m := d.msg[id]
	kind := event.Text
	if typ == wire.ReasoningMessageContent {
		kind = event.Thinking
	}
	var problem error
	if m == nil {
		// Tolerated: content without a start opens the message.
		problem = d.errorf(event.ErrSyntax, "%s of message %q, which is not open", typ, id)
		d.startMessage(id, d.agent(sub), kind)
		m = d.msg[id]
	}
	if m.other {
		d.unknown(typ, sub, data)
		return problem
	}
	d.emit(d.deltas.New(m.agent, m.kind, delta))
	return problem
}

func (d *Decoder) endMessage(typ, id string, sub *string, data []byte) error {
	m := d.msg[id]
	if m == nil {
		return d.errorf(event.ErrSyntax, "%s of message %q, which is not open", typ, id)
	}
	d.close(id)
	if m.other {
		d.unknown(typ, sub, data)
		return nil
	}
	d.emit(&event.BlockEnd{Agent: m.agent, Kind: m.kind, Signature: m.sig})
	return nil
}

func (d *Decoder) startCall(id, name, agent string) error {
	if d.call[id] != nil {
		return d.errorf(event.ErrSyntax, "tool call %q is started again before its end", id)
	}
	if len(d.calls.ids) >= d.cfg.MaxOpen {
		old := d.calls.ids[0]
		d.tooMany(fmt.Sprintf("more than %d tool calls open at once; emitted tool call %q with its arguments so far", d.cfg.MaxOpen, old))
		d.endCall(old, false)
	}
	d.calls.add(id)
	d.call[id] = &toolCall{id: id, name: name, agent: agent}
	return nil
}

func (d *Decoder) args(id, delta string, sub *string) error {
	c := d.call[id]
	var problem error
	if c == nil {
		problem = d.errorf(event.ErrSyntax, "TOOL_CALL_ARGS of tool call %q, which is not open", id)
		d.startCall(id, "", d.agent(sub))
		c = d.call[id]
	}
	if c.args.Len()+len(delta) > d.cfg.MaxEventBytes {
		return d.errorf(event.ErrTooLarge, "tool call arguments larger than %d bytes (raise the cap, MaxEventBytes)", d.cfg.MaxEventBytes)
	}
	c.args.WriteString(delta)
	c.frags = append(c.frags, len(delta))
	return problem
}

// endCall emits a tool call: whole, or, cut, a truncated call with the
// arguments that arrived (never a made-up {}).
func (d *Decoder) endCall(id string, cut bool) {
	c := d.call[id]
	if c == nil {
		return
	}
	d.calls.remove(id)
	delete(d.call, id)
	input := json.RawMessage("{}")
	if c.args.Len() > 0 || cut {
		input = event.JSONText(c.args.String())
	}
	tc := &event.ToolCall{Agent: c.agent, ID: c.id, Name: c.name, Input: input, Truncated: cut}
	if len(c.frags) > 1 && c.args.Len() == len(input) {
		tc.InputDeltas = c.frags
	}
	d.emit(tc)
	if len(d.names.ids) >= d.cfg.MaxOpen {
		d.forgetCall(d.names.ids[0])
	}
	d.forgetCall(id) // an id used again: the later call counts
	d.names.add(id)
	d.name[id] = c.name
	for len(d.names.ids) > 0 && d.inputBytes+len(input) > d.cfg.MaxEventBytes {
		d.forgetCall(d.names.ids[0])
	}
	d.input[id] = input
	d.inputBytes += len(input)
}

// forgetCall lets go of what is kept of a tool call.
func (d *Decoder) forgetCall(id string) {
	d.names.remove(id)
	delete(d.name, id)
	d.inputBytes -= len(d.input[id])
	delete(d.input, id)
}

func (d *Decoder) result(e *wire.ToolCallResultEvent) error {
	r := &event.ToolResult{Agent: d.agent(e.SubagentRunID), ID: e.ToolCallID, Name: d.name[e.ToolCallID]}
	d.inputBytes -= len(d.input[e.ToolCallID]) // answered: not pending
	delete(d.input, e.ToolCallID)
	var s string
	if json.Unmarshal(e.Content, &s) == nil {
		if s != "" {
			r.Content = []event.Part{{Type: "text", Text: s}}
		}
		d.emit(r)
		return nil
	}
	var parts []wire.Part
	if err := json.Unmarshal(e.Content, &parts); err != nil {
		return d.errorf(event.ErrSyntax, "TOOL_CALL_RESULT content is neither a string nor parts")
	}
	for _, p := range parts {
		switch {
		case p.Type == wire.PartText:
			r.Content = append(r.Content, event.Part{Type: "text", Text: deref(p.Text)})
		case p.Type == wire.PartImage && p.Source != nil:
			mt := deref(p.Source.MimeType)
			src := p.Source.Value
			if p.Source.Type == wire.SourceData {
				src = "data:" + mt + ";base64," + src
			}
			r.Content = append(r.Content, event.Part{Type: "image", Source: src, MediaType: mt})
		default:
			// audio, video, documents: the model has no place for them
			b, _ := json.Marshal(p)
			r.Content = append(r.Content, event.Part{Type: "text", Text: string(b)})
		}
	}
	d.emit(r)
	return nil
}

// lane returns the chunk streams of an agent.
func (d *Decoder) lane(agent string) *chunkLane {
	l := d.chunks[agent]
	if l == nil {
		if len(d.chunks) >= d.cfg.MaxOpen {
			d.tooMany(fmt.Sprintf("chunk streams of more than %d agents open at once; ended them all", d.cfg.MaxOpen))
			d.endChunks(wire.RunFinished, nil)
		}
		l = &chunkLane{}
		d.chunks[agent] = l
	}
	return l
}

// chunk handles TEXT_MESSAGE_CHUNK and REASONING_MESSAGE_CHUNK: a chunk
// with a new id opens a message, one without continues the agent's open
// one; the message ends at the agent's next event of another type.
func (d *Decoder) chunk(kind event.BlockKind, sub *string, id, delta *string) error {
	agent := d.agent(sub)
	l := d.lane(agent)
	cur := &l.text
	if kind == event.Thinking {
		cur = &l.reasoning
	}
	if id != nil && *id != *cur {
		d.endLane(l) // a new stream ends what the agent's chunks had open
		if err := d.startMessage(*id, agent, kind); err != nil {
			return err
		}
		*cur = *id
	}
	if *cur == "" {
		return d.errorf(event.ErrSyntax, "a chunk without messageId continues no message")
	}
	if delta != nil && *delta != "" {
		d.emit(d.deltas.New(agent, kind, *delta))
	}
	return nil
}

func (d *Decoder) toolChunk(e *wire.ToolCallChunkEvent) error {
	agent := d.agent(e.SubagentRunID)
	l := d.lane(agent)
	if e.ToolCallID != nil && *e.ToolCallID != l.tool {
		d.endLane(l)
		if err := d.startCall(*e.ToolCallID, deref(e.ToolCallName), agent); err != nil {
			return err
		}
		l.tool = *e.ToolCallID
	}
	if l.tool == "" {
		return d.errorf(event.ErrSyntax, "a TOOL_CALL_CHUNK without toolCallId continues no tool call")
	}
	if e.Delta != nil {
		return d.args(l.tool, *e.Delta, e.SubagentRunID)
	}
	return nil
}

// endChunks ends the chunk streams an event of another type closes: its
// agent's, or every agent's for the run's own events.
func (d *Decoder) endChunks(typ string, data []byte) {
	if len(d.chunks) == 0 {
		return
	}
	var lanes []string
	switch typ {
	case wire.RunStarted, wire.RunFinished, wire.RunError, wire.MessagesSnapshot:
		for a := range d.chunks {
			lanes = append(lanes, a)
		}
		slices.Sort(lanes)
	default:
		var e struct{ wire.Attributable }
		json.Unmarshal(data, &e)
		lanes = []string{d.agent(e.SubagentRunID)}
	}
	for _, a := range lanes {
		if l := d.chunks[a]; l != nil {
			d.endLane(l)
			delete(d.chunks, a)
		}
	}
}

// endLane ends the streams a lane's chunks have open.
func (d *Decoder) endLane(l *chunkLane) {
	if l.reasoning != "" {
		d.endMessage("", l.reasoning, nil, nil)
	}
	if l.text != "" {
		d.endMessage("", l.text, nil, nil)
	}
	if l.tool != "" {
		d.endCall(l.tool, false)
	}
	*l = chunkLane{}
}

// ordered is a list of ids in the order they were added.
type ordered struct{ ids []string }

func (o *ordered) add(id string) { o.ids = append(o.ids, id) }

func (o *ordered) remove(id string) {
	if i := slices.Index(o.ids, id); i >= 0 {
		o.ids = slices.Delete(o.ids, i, i+1)
	}
}
