package openaichat

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/agentstream/agentstream/emit/internal/lost"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openaistream"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/chatwire"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Agent is the scope of events whose agent is empty.
	Agent string
	// Warn receives what the body cannot carry. Nil discards it.
	Warn func(error)
}

// Encoder writes canonical events as Chat Completions streaming bodies.
type Encoder struct {
	b openaistream.Encoder // output, main agent, the completion being written

	tools   map[int]int     // tool calls written in this completion, by choice
	cur     int             // the choice the event being written belongs to
	held    *event.TurnEnd  // a turn end without stop reason: an error may take its place
	roles   map[int]bool    // choices > 0 whose role chunk is written, at most openset.DefaultMax
	closing bool            // choice 0 has finished: the other choices' finish chunks may follow
	usage   *event.Usage    // the usage to write once they have
	open    event.BlockKind // the open text or thinking block
	refusal bool            // the open text block is a refusal
	tier    string          // the service_tier of the chunk being written
	ended   event.BlockKind // the block that ended last, when nothing came after it
	start   struct {        // the start of the chunks head writes, and what it has of the completion
		id, model string
		created   int64
		text      []byte
	}
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	if cfg == nil {
		cfg = &Config{}
	}
	return &Encoder{b: openaistream.NewEncoder(w, wire.Name, cfg.Agent, cfg.Warn)}
}

func (e *Encoder) warn(what string) { e.b.Warn(what) }

// data writes one SSE message.
func (e *Encoder) data(payload []byte) error {
	e.b.Buf = append(e.b.Buf[:0], "data: "...)
	e.b.Buf = append(e.b.Buf, payload...)
	e.b.Buf = append(e.b.Buf, "\n\n"...)
	return e.b.Write()
}

func (e *Encoder) chunk(choices []wire.Choice, usage *wire.Usage) error {
	c := wire.Chunk{ID: e.b.ID, Object: wire.ObjectChunk, Created: e.b.Created, Model: e.b.Model, ServiceTier: e.tier, Choices: choices, Usage: usage}
	if choices == nil {
		c.Choices = []wire.Choice{}
	}
	b := append(e.b.Buf[:0], "data: "...)
	b, err := wire.AppendChunk(b, &c)
	e.b.Buf = b
	if err != nil {
		e.b.Err = fmt.Errorf("%s: %w", wire.Name, err)
		return e.b.Err
	}
	e.b.Buf = append(b, "\n\n"...)
	return e.b.Write()
}

func (e *Encoder) delta(d wire.Delta, finish *string) error {
	return e.chunk([]wire.Choice{{Index: e.cur, Delta: d, FinishReason: finish}}, nil)
}

func (e *Encoder) begin(id, model string, created int64) {
	e.b.Begin(id, model, "chatcmpl-agentstream-")
	e.b.Created = created
	e.cur = 0
	clear(e.tools)
	clear(e.roles)
	empty := ""
	e.delta(wire.Delta{Role: wire.RoleAsst, Content: &empty}, nil)
}

func (e *Encoder) ensureTurn() {
	if !e.b.Turn {
		e.begin("", "", 0)
	}
}

// end writes choice 0's finish chunk; the usage chunk and [DONE] follow
// the other choices' finish chunks (closeTail).
func (e *Encoder) end(stop string, u *event.Usage) {
	if !e.b.Turn || e.closing {
		e.closeTail()
		return
	}
	e.open, e.ended = "", ""
	e.cur = 0
	finish, ok := openai.FinishFromStop(stop)
	e.lostStop(stop, ok)
	e.delta(wire.Delta{}, &finish)
	e.closing, e.usage = true, u
}

// lostStop reports a stop reason written as openai.FinishUnknown: one
// without a counterpart, or none at all (the source named none).
func (e *Encoder) lostStop(stop string, ok bool) {
	switch {
	case !ok:
		e.warn("stop reason " + stop + " (written as finish_reason " + openai.FinishUnknown + ")")
	case stop == "":
		e.warn("a completion without a stop reason (written with finish_reason " + openai.FinishUnknown + ")")
	}
}

// closeTail writes the usage chunk and [DONE] of a completion whose
// choice 0 has finished.
func (e *Encoder) closeTail() {
	if !e.closing {
		return
	}
	if u := e.usage; u != nil {
		o, lost := openai.FromEvent(u)
		if lost {
			e.warn("cache write token counts (counted in prompt_tokens)")
		}
		tier, lost := openai.Tier(u)
		if lost {
			e.warn("service tiers of other providers")
		}
		e.tier = tier
		e.chunk(nil, wire.UsageOf(o))
		e.tier = ""
	}
	e.data([]byte(wire.Done))
	e.b.Turn, e.closing, e.usage = false, false, nil
}

// Encode writes the chunks of ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.b.Err != nil {
		return e.b.Err
	}
	agent, main := e.b.Agent(ev)
	if er, ok := ev.(*event.Error); ok && !er.Fatal {
		// The run went on: an error object would end the completion,
		// and the SDKs raise at it.
		e.warn("non-fatal errors (an error object ends the completion)")
		return nil
	}
	if h := e.held; h != nil {
		e.held = nil
		if _, ok := ev.(*event.Error); !ok || !main {
			e.end(h.StopReason, h.Usage)
		} else if h.Usage != nil {
			e.warn("the usage of a completion an error ended")
		}
	}
	e.cur = 0
	if e.closing && main && !openai.Aside(ev) {
		// The other choices' events (their finish chunks) go into the
		// completion before its tail; a subagent's leave it waiting (the
		// turn's tool call is running there), and so do the main
		// agent's notices: a cut before the main agent goes on leaves
		// the completion without [DONE].
		e.closeTail()
	}
	if !main {
		// The other choices of an n > 1 completion, as the decoder
		// names their scopes, go back into it; other agents are lost.
		if n, ok := wire.ChoiceIndex(e.b.Main(), agent); ok && e.b.Turn && e.room(n) {
			e.cur = n
			e.choice(ev)
			e.cur = 0
			return e.b.Err
		}
		e.warn("subagents (only the main agent's turns are written)")
		return nil
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		e.b.Session(ev)
	case *event.TurnStart:
		e.b.Explicit = true
		e.end("", nil)
		e.begin(ev.MessageID, ev.Model, ev.Created)
	case *event.TurnEnd:
		e.b.TurnUsage = e.b.TurnUsage || ev.Usage != nil
		if ev.Error != "" {
			e.errorChunk(&event.Error{Message: ev.Error, Type: openai.TurnFailed, Fatal: true})
			break
		}
		if ev.StopReason == "" {
			e.held = ev
			break
		}
		e.end(ev.StopReason, ev.Usage)
	case *event.BlockStart:
		e.afterTools()
		e.startBlock(ev.Kind)
		e.refusal = ev.Kind == event.Text && ev.Refusal
	case *event.Delta:
		e.afterTools()
		e.startBlock(ev.Kind)
		e.text(ev)
	case *event.BlockEnd:
		if ev.Signature != "" {
			e.warn("thinking signatures")
		}
		e.open, e.ended, e.refusal = "", ev.Kind, false
	case *event.Citations:
		e.warn("citations")
	case *event.ToolCall:
		e.toolCall(ev)
	case *event.ToolResult:
		if e.b.Result(ev, e.tools[0], "server tool results") {
			// No turn boundaries in the source: the model's turn is
			// over once all its tool calls have their results. The
			// source says no stop reason: none is made up.
			e.end("", nil)
		}
	case *event.Error:
		e.errorChunk(ev)
	case *event.RunEnd:
		// A run no turn of which had usage: its usage is the usage of
		// the completion it ends inside (a source without turns).
		var u *event.Usage
		if !e.b.TurnUsage {
			u = ev.Usage
		}
		e.end(ev.StopReason, u)
		e.warn("run summaries")
	case *event.Unknown:
		e.unknown(ev)
	default:
		e.warn(lost.Kind(ev))
	}
	return e.b.Err
}

// room reports whether choice n of the completion has its state, or may
// have it: at most openset.DefaultMax choices are written (the others
// are lost, as subagents).
func (e *Encoder) room(n int) bool {
	return e.roles[n] || len(e.roles) < openset.DefaultMax
}

// choice writes an event of choice e.cur > 0 of the open completion: its
// deltas, tool calls and finish_reason.
func (e *Encoder) choice(ev event.Event) {
	if !e.roles[e.cur] {
		if e.roles == nil {
			e.roles = map[int]bool{}
		}
		e.roles[e.cur] = true
		empty := ""
		e.delta(wire.Delta{Role: wire.RoleAsst, Content: &empty}, nil)
	}
	switch ev := ev.(type) {
	case *event.Delta:
		e.text(ev)
	case *event.ToolCall:
		e.toolCall(ev)
	case *event.TurnEnd:
		finish, ok := openai.FinishFromStop(ev.StopReason)
		e.lostStop(ev.StopReason, ok)
		e.delta(wire.Delta{}, &finish)
	case *event.TurnStart, *event.BlockStart, *event.BlockEnd:
	default:
		e.warn("subagents (only the main agent's turns are written)")
	}
}

// afterTools opens a completion for text or thinking. A completion's
// tool calls end it (a client reads them after its finish chunk): text
// that follows tool calls in one source turn (a Codex turn spans several
// model calls) goes into a new completion, so its order is kept.
func (e *Encoder) afterTools() {
	if e.b.Turn && !e.closing && e.tools[0] > 0 {
		model := e.b.Model
		e.end("", nil) // the source names no stop reason for this split
		e.closeTail()
		e.begin("", model, 0)
	}
	e.ensureTurn()
}

// startBlock notes the block a delta belongs to. Two blocks of one kind
// in a row have no boundary in a completion's deltas: they merge.
func (e *Encoder) startBlock(kind event.BlockKind) {
	if e.open == kind {
		return
	}
	if e.ended == kind {
		e.warn("the boundary between consecutive " + string(kind) + " blocks (they merge)")
	}
	e.open, e.ended = kind, ""
}

func (e *Encoder) toolCall(ev *event.ToolCall) {
	e.open, e.ended = "", ""
	if ev.Server {
		e.warn("server tool calls")
		return
	}
	if ev.MCPServer != "" {
		e.warn("MCP server names (MCP calls written as function calls)")
	}
	e.ensureTurn()
	if e.tools == nil {
		e.tools = map[int]int{}
	}
	idx := e.tools[e.cur]
	e.tools[e.cur]++
	e.b.Called(ev.ID)
	args := string(ev.Input)
	switch {
	case ev.Truncated:
		args = ev.PartialInput() // what arrived; Cut writes no finish_reason
	case args == "":
		args = "{}"
	}
	e.chunk([]wire.Choice{{Index: e.cur, Delta: wire.Delta{ToolCalls: []wire.ToolCallDelta{{
		Index: idx, ID: ev.ID, Type: wire.TypeFunc, Function: wire.Function{Name: ev.Name},
	}}}}}, nil)
	e.args(idx, args)
}

// args writes the arguments of tool call idx in chunks of at most
// openai.MaxDelta bytes.
func (e *Encoder) args(idx int, args string) {
	for rest := args; rest != "" && e.b.Err == nil; {
		var s string
		s, rest = openai.Cut(rest)
		e.head()
		e.b.Buf = append(e.b.Buf, `"tool_calls":[{"index":`...)
		e.b.Buf = strconv.AppendInt(e.b.Buf, int64(idx), 10)
		e.b.Buf = append(e.b.Buf, `,"function":{"arguments":`...)
		e.b.Buf = jsontext.AppendMarshalString(e.b.Buf, s)
		e.b.Buf = append(e.b.Buf, "}}]"...)
		e.tail()
	}
}

// text writes a text or thinking delta in chunks of at most
// openai.MaxDelta bytes.
func (e *Encoder) text(ev *event.Delta) {
	field := `"content":`
	switch {
	case ev.Kind == event.Thinking:
		field = `"reasoning_content":`
	case e.refusal:
		field = `"refusal":`
	}
	for rest := ev.Text; rest != "" && e.b.Err == nil; {
		var s string
		s, rest = openai.Cut(rest)
		e.head()
		e.b.Buf = append(e.b.Buf, field...)
		e.b.Buf = jsontext.AppendMarshalString(e.b.Buf, s)
		e.tail()
	}
}

// head begins a chunk of choice e.cur in e.b.Buf, up to its delta's
// fields, as encoding/json writes a wire.Chunk: the deltas are written
// without allocating, from the chunks' common start, kept in e.start
// while the completion's id, model and created stay.
func (e *Encoder) head() {
	h := &e.start
	if h.text == nil || h.id != e.b.ID || h.model != e.b.Model || h.created != e.b.Created {
		h.id, h.model, h.created = e.b.ID, e.b.Model, e.b.Created
		b := append(h.text[:0], `data: {"id":`...)
		b = jsontext.AppendMarshalString(b, h.id)
		b = append(b, `,"object":"`+wire.ObjectChunk+`"`...)
		if h.created != 0 {
			b = append(b, `,"created":`...)
			b = strconv.AppendInt(b, h.created, 10)
		}
		b = append(b, `,"model":`...)
		b = jsontext.AppendMarshalString(b, h.model)
		h.text = append(b, `,"choices":[{"index":`...)
	}
	b := append(e.b.Buf[:0], h.text...)
	b = strconv.AppendInt(b, int64(e.cur), 10)
	e.b.Buf = append(b, `,"delta":{`...)
}

// tail ends and writes the chunk head began.
func (e *Encoder) tail() {
	e.b.Buf = append(e.b.Buf, `},"logprobs":null,"finish_reason":null}]}`+"\n\n"...)
	e.b.Write()
}

// unknown reports an Unknown event as lost: a chunk of an object type the
// SDKs do not know makes them fail, so none is written, not even one this
// format's decoder kept.
func (e *Encoder) unknown(ev *event.Unknown) {
	e.warn("unknown " + ev.Format + " events")
}

// errorChunk writes an error object, which ends the open completion
// without [DONE] (Encode drops a non-fatal one).
func (e *Encoder) errorChunk(ev *event.Error) {
	obj := jsontext.Compact(ev.Raw)
	var a openai.APIError
	if json.Unmarshal(obj, &a) != nil || a.Message != ev.Message || a.Kind() != ev.Type || a.Type == "error" {
		// Raw is not this error's chat error object (another format's).
		a = openai.APIError{Message: ev.Message, Type: ev.Type}
		obj, _ = openai.Marshal(a)
	}
	b, _ := openai.Marshal(struct {
		Error json.RawMessage `json:"error"`
	}{obj})
	e.data(b)
	e.b.Turn, e.open, e.ended = false, "", ""
}

// Close ends the open completion. When a text or thinking block is still
// open (the input was cut off), it writes no finish chunk and no [DONE],
// like the stream it copies, and reports the truncation.
// Cut ends a stream whose input was cut off (event.Cutter): a completion
// the source finished keeps its finish chunk and usage, but no [DONE]
// follows; the completion being written gets no finish_reason.
func (e *Encoder) Cut() error {
	if e.b.Err != nil {
		return e.b.Err
	}
	if h := e.held; h != nil {
		e.held = nil
		e.end(h.StopReason, h.Usage)
	}
	if e.closing {
		if u := e.usage; u != nil {
			o, _ := openai.FromEvent(u)
			e.chunk(nil, wire.UsageOf(o))
		}
		e.b.Turn, e.closing, e.usage = false, false, nil
	}
	if e.b.Err != nil {
		return e.b.Err
	}
	return fmt.Errorf("%s: %w: the input was cut off, no finish_reason or [DONE] written", wire.Name, event.ErrTruncated)
}

func (e *Encoder) Close() error {
	if e.b.Err != nil {
		return e.b.Err
	}
	if h := e.held; h != nil {
		e.held = nil
		e.end(h.StopReason, h.Usage)
	}
	if e.open != "" && e.b.Turn && !e.closing {
		return fmt.Errorf("%s: %w: a block was left open, no finish_reason written", wire.Name, event.ErrTruncated)
	}
	e.end("", nil)
	e.closeTail()
	return e.b.Err
}
