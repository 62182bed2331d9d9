package openaichat

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openai"
	wire "github.com/agentstream/agentstream/internal/openai/chatwire"
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
	w      io.Writer
	cfg    Config
	err    error
	losses event.Losses
	main   string
	seen   bool
	model  string // from SessionStart, for turns whose TurnStart names none
	n      int    // completions without an id, for derived ids
	buf    []byte

	turn     bool // a completion is open
	explicit bool // the source has TurnStart events
	id       string
	tmodel   string
	tools    map[int]int     // tool calls written in this completion, by choice
	cur      int             // the choice the event being written belongs to
	held     *event.TurnEnd  // a turn end without stop reason: an error may take its place
	roles    map[int]bool    // choices > 0 whose role chunk is written
	closing  bool            // choice 0 has finished: the other choices' finish chunks may follow
	usage    *event.Usage    // the usage to write once they have
	pending  map[string]bool // client tool calls without a result
	open     event.BlockKind // the open text or thinking block
	ended    event.BlockKind // the block that ended last, when nothing came after it
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

// data writes one SSE message.
func (e *Encoder) data(payload []byte) error {
	if e.err != nil {
		return e.err
	}
	e.buf = append(e.buf[:0], "data: "...)
	e.buf = append(e.buf, payload...)
	e.buf = append(e.buf, "\n\n"...)
	_, e.err = e.w.Write(e.buf)
	return e.err
}

func (e *Encoder) chunk(choices []wire.Choice, usage *wire.Usage) error {
	c := wire.Chunk{ID: e.id, Object: wire.ObjectChunk, Model: e.tmodel, Choices: choices, Usage: usage}
	if choices == nil {
		c.Choices = []wire.Choice{}
	}
	b, err := openai.Marshal(c)
	if err != nil {
		e.err = fmt.Errorf("%s: %w", wire.Name, err)
		return e.err
	}
	return e.data(b)
}

func (e *Encoder) delta(d wire.Delta, finish *string) error {
	return e.chunk([]wire.Choice{{Index: e.cur, Delta: d, FinishReason: finish}}, nil)
}

func (e *Encoder) begin(id, model string) {
	if id == "" {
		e.n++
		id = fmt.Sprintf("chatcmpl-agentstream-%04d", e.n)
	}
	if model == "" {
		model = e.model
	}
	e.turn, e.id, e.tmodel, e.cur = true, id, model, 0
	clear(e.tools)
	clear(e.roles)
	clear(e.pending)
	empty := ""
	e.delta(wire.Delta{Role: wire.RoleAsst, Content: &empty}, nil)
}

func (e *Encoder) ensureTurn() {
	if !e.turn {
		e.begin("", "")
	}
}

// end writes choice 0's finish chunk; the usage chunk and [DONE] follow
// the other choices' finish chunks (closeTail).
func (e *Encoder) end(stop string, u *event.Usage) {
	if !e.turn || e.closing {
		e.closeTail()
		return
	}
	e.open, e.ended = "", ""
	e.cur = 0
	finish, ok := openai.FinishFromStop(stop, e.tools[0] > 0)
	if !ok {
		e.warn("stop reason " + stop + " (written as stop)")
	}
	e.delta(wire.Delta{}, &finish)
	e.closing, e.usage = true, u
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
		e.chunk(nil, wire.UsageOf(o))
	}
	e.data([]byte(wire.Done))
	e.turn, e.closing, e.usage = false, false, nil
}

// Encode writes the chunks of ev.
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
	if h := e.held; h != nil {
		e.held = nil
		if _, ok := ev.(*event.Error); !ok || agent != e.main {
			e.end(h.StopReason, h.Usage)
		}
	}
	e.cur = 0
	if e.closing {
		if _, ok := ev.(*event.TurnEnd); !ok || agent == e.main {
			e.closeTail()
		}
	}
	if agent != e.main {
		// The other choices of an n > 1 completion, as the decoder
		// names their scopes, go back into it; other agents are lost.
		if n, ok := wire.ChoiceIndex(e.main, agent); ok && e.turn {
			e.cur = n
			e.choice(ev)
			e.cur = 0
			return e.err
		}
		e.warn("subagents (only the main agent's turns are written)")
		return nil
	}
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
			e.errorChunk(&event.Error{Message: ev.Error, Type: openai.TurnFailed})
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
	case *event.Delta:
		e.afterTools()
		e.startBlock(ev.Kind)
		openai.Split(ev.Text, func(s string) error {
			if ev.Kind == event.Thinking {
				return e.delta(wire.Delta{ReasoningContent: &s}, nil)
			}
			return e.delta(wire.Delta{Content: &s}, nil)
		})
	case *event.BlockEnd:
		if ev.Signature != "" {
			e.warn("thinking signatures")
		}
		e.open, e.ended = "", ev.Kind
	case *event.Citations:
		e.warn("citations")
	case *event.ToolCall:
		e.toolCall(ev)
	case *event.ToolResult:
		if ev.Server {
			e.warn("server tool results")
			break
		}
		e.warn("client tool results (the client sends them in the next request)")
		delete(e.pending, ev.ID)
		if e.turn && !e.explicit && e.tools[0] > 0 && len(e.pending) == 0 {
			// No turn boundaries in the source: the model's turn is
			// over once all its tool calls have their results.
			e.end(openai.StopToolUse, nil)
		}
	case *event.Error:
		e.errorChunk(ev)
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
		openai.Split(ev.Text, func(s string) error {
			if ev.Kind == event.Thinking {
				return e.delta(wire.Delta{ReasoningContent: &s}, nil)
			}
			return e.delta(wire.Delta{Content: &s}, nil)
		})
	case *event.ToolCall:
		e.toolCall(ev)
	case *event.TurnEnd:
		finish, ok := openai.FinishFromStop(ev.StopReason, e.tools[e.cur] > 0)
		if !ok {
			e.warn("stop reason " + ev.StopReason + " (written as stop)")
		}
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
	if e.turn && !e.closing && e.tools[0] > 0 {
		model := e.tmodel
		e.end(openai.StopToolUse, nil)
		e.closeTail()
		e.begin("", model)
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
	if e.pending == nil {
		e.pending = map[string]bool{}
	}
	e.pending[ev.ID] = true
	args := string(ev.Input)
	if args == "" {
		args = "{}"
	}
	e.chunk([]wire.Choice{{Index: e.cur, Delta: wire.Delta{ToolCalls: []wire.ToolCallDelta{{
		Index: idx, ID: ev.ID, Type: wire.TypeFunc, Function: wire.Function{Name: ev.Name},
	}}}}}, nil)
	openai.Split(args, func(s string) error {
		return e.chunk([]wire.Choice{{Index: e.cur, Delta: wire.Delta{ToolCalls: []wire.ToolCallDelta{{
			Index: idx, Function: wire.Function{Arguments: s},
		}}}}}, nil)
	})
}

// unknown reports an Unknown event as lost: a chunk of an object type the
// SDKs do not know makes them fail, so none is written, not even one this
// format's decoder kept.
func (e *Encoder) unknown(ev *event.Unknown) {
	e.warn("unknown " + ev.Format + " events")
}

// errorChunk writes an error object, which ends the open completion
// without [DONE].
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
	e.turn, e.open, e.ended = false, "", ""
}

// Close ends the open completion. When a text or thinking block is still
// open (the input was cut off), it writes no finish chunk and no [DONE],
// like the stream it copies, and reports the truncation.
func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	if h := e.held; h != nil {
		e.held = nil
		e.end(h.StopReason, h.Usage)
	}
	if e.open != "" && e.turn && !e.closing {
		return fmt.Errorf("%s: %w: a block was left open, no finish_reason written", wire.Name, event.ErrTruncated)
	}
	e.end("", nil)
	e.closeTail()
	return e.err
}
