package openaichat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openaistream"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/textlist"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/chatwire"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one SSE message and one tool call's arguments (event.DefaultMaxBytes if 0)
	Agent         string // agent id of choice 0 (the body names none)
	StopAtDone    bool   // end the input at data: [DONE]
	// MaxOpen caps the choices of one completion and the tool calls of
	// one choice the decoder follows (openset.DefaultMax if 0). Beyond
	// it, it lets go of the oldest: a choice is ended early (its TurnEnd
	// says so), a tool call emitted with the arguments so far; reported
	// once, wrapping event.ErrTooManyOpen.
	MaxOpen int
}

// Decoder reads Chat Completions streaming bodies (one or more,
// concatenated) and yields canonical events. See the package
// documentation for the grammar and tolerance rules.
type Decoder struct {
	drv openaistream.Driver // the read loop; its Decode is d.decode
	cfg Config

	resp *response // the response being read; nil between responses
	// spare is the memory of the response ended last, and of its first
	// choice, for the next (newResponse): a body of many short
	// completions allocated both for each.
	spare       *response
	spareChoice *choice
	undone      string // the id of the response its usage chunk ended, until [DONE] or the next chunk
	cr          wire.Reader
	jr          jsontext.Reader // checks tool arguments (toolInput)
	chunk       wire.Chunk      // the chunk being read
	// The events of a completion, which come as often as its
	// deltas in short completions, in batches.
	deltas      deltabatch.Batch
	turnStarts  deltabatch.Of[event.TurnStart]
	turnEnds    deltabatch.Of[event.TurnEnd]
	blockStarts deltabatch.Of[event.BlockStart]
	blockEnds   deltabatch.Of[event.BlockEnd]
	capped      bool // event.ErrTooManyOpen was reported

	lazy     bool        // the chunk's choices are read one at a time (more)
	one      wire.Choice // the one being read
	problems []string    // the chunk's problems so far
	sentinel error       // the first one's
}

// response is the state of one streamed completion.
type response struct {
	id      string
	raw     string // the id as the chunks write it (id is "" for one agentstream made up)
	model   string
	created int64          // Unix seconds; 0 when the chunk says none
	tier    string         // the last service_tier said
	choices states[choice] // by first appearance
	usage   *openai.Usage
}

// choice is the state of one choice of a response: its own agent scope.
type choice struct {
	index    int
	agent    string
	open     event.BlockKind  // "" when no block is open
	refusal  bool             // the open text block is a refusal
	tools    states[toolCall] // by first appearance
	finish   *string
	ended    bool
	argBytes int
}

type toolCall struct {
	index int
	id    string
	name  string
	args  strings.Builder
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxOpen <= 0 {
		d.cfg.MaxOpen = openset.DefaultMax
	}
	d.drv = openaistream.NewDriver(r, d.cfg.Source, &d.cfg.MaxEventBytes, d.decode, d.truncation)
	d.drv.More = d.more
	return d
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.drv.Next() }

// Detect reports whether an input whose first unit is h is a Chat
// Completions streaming body: SSE whose first data is a
// chat.completion.chunk object, or an error object alone
// ({"error": {...}} with no type).
func Detect(h format.Head) bool {
	if !h.SSE || h.EventType != "" {
		return false
	}
	m := h.Fields()
	if obj, _ := format.String(m, "object"); obj == wire.ObjectChunk {
		return true
	}
	if _, typed := m["type"]; typed {
		return false
	}
	e, ok := m["error"]
	return ok && len(e) > 0 && e[0] == '{'
}

// truncation ends the response the input stopped in: what arrived is
// emitted and the truncation reported, also after a response whose
// choices all finished (its usage chunk may be what was cut off; [DONE]
// is the end of a body).
func (d *Decoder) truncation() error {
	r := d.resp
	if r == nil {
		if d.undone != "" {
			return d.drv.Truncated("stream ended without data: [DONE] after completion %s", d.undone)
		}
		return d.drv.Cut()
	}
	var open []string
	for _, c := range r.choices.list {
		if c.finish == nil && !c.ended {
			what := fmt.Sprintf("choice %d", c.index)
			if c.open != "" {
				what += " (inside a " + string(c.open) + " block)"
			}
			open = append(open, what)
		}
	}
	if len(open) == 0 {
		d.endResponse()
		return d.drv.Truncated("stream ended without data: [DONE] after completion %s", r.id)
	}
	// A cut completion stays cut: the choices that finished end as they
	// said; the others keep their open block open, their last tool call
	// is a truncated call with the arguments that arrived, and they get no
	// TurnEnd (no stop reason was given, and none is made up).
	d.resp = nil
	for _, c := range r.choices.list {
		if c.finish != nil || c.ended {
			if !c.ended {
				d.finish(c)
			}
			d.drv.Emit(d.turnEnd(r, c))
			continue
		}
		d.cut(c)
	}
	return d.drv.Truncated("stream ended without finish_reason, inside completion %s: %s", r.id, textlist.Join(open, ", "))
}

// cut emits what arrived of a choice the input ended inside: its tool
// calls in index order, the last one truncated; its open block stays open.
func (d *Decoder) cut(c *choice) {
	slices.SortStableFunc(c.tools.list, func(a, b *toolCall) int { return a.index - b.index })
	for i, t := range c.tools.list {
		last := i == len(c.tools.list)-1
		input := d.toolInput(t.args.String())
		if last {
			input = cutInput(t.args.String())
		}
		d.drv.Emit(&event.ToolCall{Agent: c.agent, ID: t.id, Name: t.name, Input: input, Truncated: last})
	}
	c.tools, c.argBytes = states[toolCall]{}, 0
	c.ended = true
}

// decode decodes the data of one SSE message (its event type, which the
// API never sends, is not looked at).
func (d *Decoder) decode(_ string, data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil // a message with no data (id: or retry: alone)
	}
	if string(data) == wire.Done {
		d.undone = ""
		d.endResponse()
		if d.cfg.StopAtDone {
			d.drv.Stop()
		}
		return nil
	}
	d.undone = ""
	c := &d.chunk
	if err := d.cr.Decode(data, c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return d.drv.Errorf(event.ErrSyntax, "chunk: %s", jsontext.Problem(err))
		}
		return d.drv.Errorf(event.ErrSyntax, "data is not a JSON object: %s", jsontext.Problem(err))
	}
	if c.Error != nil {
		d.errorChunk(c, data)
		return nil
	}
	if c.Object != wire.ObjectChunk && c.Object != "" || c.Choices == nil && c.Usage == nil {
		d.drv.Emit(&event.Unknown{Agent: d.cfg.Agent, Format: Name, Type: c.Object, Raw: bytes.Clone(data)})
		return nil
	}
	if d.resp != nil && c.ID != d.resp.raw && openai.Given(c.ID) != d.resp.id {
		d.endResponse() // a new completion without [DONE] between
	}
	if d.resp == nil {
		d.resp = d.newResponse(c)
	}
	if c.ServiceTier != "" {
		d.resp.tier = c.ServiceTier
	}
	d.problems, d.sentinel = d.problems[:0], event.ErrSyntax
	for i := range c.Choices {
		d.choiceProblem(&c.Choices[i])
	}
	if c.Lazy() > 0 {
		d.lazy = true
		if more, _ := d.more(); more {
			return nil // the rest when what it emitted is read
		}
	}
	return d.chunkEnd()
}

// lazyBatch is about how many events the decoder emits from a chunk whose
// choices it reads one at a time before it lets them be read.
const lazyBatch = 256

// more goes on with the choices of a chunk the reader left to NextChoice
// (Driver.More): it emits events for the next ones, about lazyBatch of
// them, so that a chunk of many choices never has its events all queued.
func (d *Decoder) more() (bool, error) {
	if !d.lazy {
		return false, nil
	}
	for d.drv.Queued() < lazyBatch {
		if !d.cr.NextChoice(&d.one) {
			d.lazy = false
			d.one = wire.Choice{}
			return false, d.chunkEnd()
		}
		d.choiceProblem(&d.one)
	}
	return true, nil
}

// choiceProblem handles one choice of the chunk, noting its problem.
func (d *Decoder) choiceProblem(ch *wire.Choice) {
	if p, s := d.choice(ch); p != "" {
		if len(d.problems) == 0 {
			d.sentinel = s
		}
		d.problems = append(d.problems, p)
	}
}

// chunkEnd handles what comes after the chunk's choices: its usage, and
// the problems its choices had.
func (d *Decoder) chunkEnd() error {
	c, r := &d.chunk, d.resp
	if c.Usage != nil && r != nil {
		// The last usage seen counts: servers that send usage on every
		// chunk (vLLM's continuous_usage_stats) send the total last.
		u := c.Usage.Counts()
		r.usage = &u
		if r.finished() && len(c.Choices) == 0 && c.Lazy() == 0 {
			d.endResponse() // the usage chunk of stream_options.include_usage
			d.undone = r.id
		}
	}
	if len(d.problems) > 0 {
		err := d.drv.Errorf(d.sentinel, "%s", textlist.Join(d.problems, "; "))
		d.problems = d.problems[:0]
		return err
	}
	return nil
}

// finished reports whether every choice of the response has its
// finish_reason.
func (r *response) finished() bool {
	for _, c := range r.choices.list {
		if c.finish == nil {
			return false
		}
	}
	return len(r.choices.list) > 0
}

// scope returns the state of choice index, starting its turn at its first
// chunk. Choice 0 is Config.Agent's; choice N > 0 is its own agent scope,
// wire.ChoiceAgent(Config.Agent, N).
// Beyond MaxOpen choices, the oldest is ended early (what problem says).
func (d *Decoder) scope(index int) (c *choice, problem string) {
	r := d.resp
	if c := r.choices.get(index); c != nil {
		return c, ""
	}
	if len(r.choices.list) >= d.cfg.MaxOpen {
		old := r.choices.removeFirst()
		problem = d.tooMany(fmt.Sprintf("more than %d choices in completion %s; ended the oldest, choice %d, early", d.cfg.MaxOpen, r.id, old.index))
		if !old.ended {
			d.finish(old)
		}
		te := d.turnEnd(r, old)
		te.Error = fmt.Sprintf("ended early: more than %d choices in one completion", d.cfg.MaxOpen)
		d.drv.Emit(te)
	}
	agent := wire.ChoiceAgent(d.cfg.Agent, index)
	if c = d.spareChoice; c != nil {
		d.spareChoice = nil
		*c = choice{index: index, agent: agent}
	} else {
		c = &choice{index: index, agent: agent}
	}
	r.choices.add(index, c)
	ts := d.turnStarts.New()
	ts.Agent, ts.MessageID, ts.Model, ts.Created = agent, r.id, r.model, r.created
	d.drv.Emit(ts)
	return c, problem
}

// tooMany returns the report of the first time the decoder let go of a
// choice or tool call, "" after.
func (d *Decoder) tooMany(what string) string {
	if d.capped {
		return ""
	}
	d.capped = true
	return what + " (later ones are not reported)"
}

// choice handles one choice of a chunk, and returns its problem, if any,
// and the sentinel it wraps.
func (d *Decoder) choice(ch *wire.Choice) (problem string, sentinel error) {
	c, problem := d.scope(ch.Index)
	if problem != "" {
		sentinel = event.ErrTooManyOpen
	}
	dl := &ch.Delta
	if c.ended {
		if dl.Content == nil && dl.Refusal == nil && dl.ReasoningContent == nil && dl.Reasoning == nil && len(dl.ToolCalls) == 0 {
			return problem, sentinel // an empty delta after the finish (a server's usage or keep-alive chunk)
		}
		return fmt.Sprintf("choice %d has content after its finish_reason", ch.Index), event.ErrSyntax
	}
	reasoning := dl.ReasoningContent
	if reasoning == nil {
		reasoning = dl.Reasoning
	}
	if reasoning != nil && *reasoning != "" {
		d.delta(c, event.Thinking, *reasoning, false)
	}
	if dl.Content != nil && *dl.Content != "" {
		d.delta(c, event.Text, *dl.Content, false)
	}
	if dl.Refusal != nil && *dl.Refusal != "" {
		// A refusal is what the model said instead of an answer: a text
		// block marked as one.
		d.delta(c, event.Text, *dl.Refusal, true)
	}
	for i := range dl.ToolCalls {
		if p, s := d.toolDelta(c, &dl.ToolCalls[i]); p != "" && problem == "" {
			problem, sentinel = p, s
		}
	}
	if ch.FinishReason != nil {
		c.finish = ch.FinishReason
		d.finish(c)
	}
	return problem, sentinel
}

func (d *Decoder) delta(c *choice, kind event.BlockKind, text string, refusal bool) {
	if c.open != kind || c.refusal != refusal {
		d.closeBlock(c)
		c.open, c.refusal = kind, refusal
		bs := d.blockStarts.New()
		bs.Agent, bs.Kind, bs.Refusal = c.agent, kind, refusal
		d.drv.Emit(bs)
	}
	d.drv.Emit(d.deltas.New(c.agent, kind, text))
}

func (d *Decoder) closeBlock(c *choice) {
	if c.open != "" {
		be := d.blockEnds.New()
		be.Agent, be.Kind = c.agent, c.open
		d.drv.Emit(be)
		c.open, c.refusal = "", false
	}
}

// toolDelta adds a piece of a tool call. Beyond MaxOpen tool calls in
// the choice, the oldest is emitted with the arguments so far.
func (d *Decoder) toolDelta(c *choice, tc *wire.ToolCallDelta) (problem string, sentinel error) {
	t := c.tools.get(tc.Index)
	if t == nil {
		if len(c.tools.list) >= d.cfg.MaxOpen {
			old := c.tools.removeFirst()
			problem, sentinel = d.tooMany(fmt.Sprintf("more than %d tool calls in choice %d; emitted the oldest, index %d, with the arguments so far", d.cfg.MaxOpen, c.index, old.index)), event.ErrTooManyOpen
			c.argBytes -= old.args.Len()
			d.drv.Emit(&event.ToolCall{Agent: c.agent, ID: old.id, Name: old.name, Input: d.toolInput(old.args.String())})
		}
		t = &toolCall{index: tc.Index}
		c.tools.add(tc.Index, t)
	}
	if tc.ID != "" {
		t.id = tc.ID
	}
	if tc.Function.Name != "" {
		t.name += tc.Function.Name
	}
	if c.argBytes+len(tc.Function.Arguments) > d.cfg.MaxEventBytes {
		return fmt.Sprintf("tool call arguments larger than %d bytes (raise the cap, MaxEventBytes)", d.cfg.MaxEventBytes), event.ErrTooLarge
	}
	c.argBytes += len(tc.Function.Arguments)
	t.args.WriteString(tc.Function.Arguments)
	return problem, sentinel
}

// finish ends a choice's content: its open block, then its tool calls in
// index order. Its TurnEnd waits for the usage chunk.
func (d *Decoder) finish(c *choice) {
	d.closeBlock(c)
	slices.SortStableFunc(c.tools.list, func(a, b *toolCall) int { return a.index - b.index })
	for _, t := range c.tools.list {
		d.drv.Emit(&event.ToolCall{Agent: c.agent, ID: t.id, Name: t.name, Input: d.toolInput(t.args.String())})
	}
	c.tools, c.argBytes = states[toolCall]{}, 0
	c.ended = true
}

// toolInput returns a tool call's arguments as its Input: {} when there
// are none, else as event.JSONText returns them (the arguments when they
// are valid JSON, else them as a JSON string), checked by d's reader in
// one pass.
func (d *Decoder) toolInput(args string) json.RawMessage {
	if args == "" {
		return json.RawMessage("{}")
	}
	raw := []byte(args) // the event's own copy
	if jsontext.Valid(&d.jr, raw) {
		return raw
	}
	b, _ := json.Marshal(args)
	return b
}

// cutInput is the Input of a call cut inside its arguments: what arrived,
// as a JSON string unless it parses (never an invented {}).
func cutInput(args string) json.RawMessage {
	if args != "" && json.Valid([]byte(args)) {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}

// endResponse ends every choice of the open response: what is still open
// is flushed, then each choice's TurnEnd (the usage, which counts the
// whole completion, on choice 0's).
func (d *Decoder) endResponse() {
	r := d.resp
	if r == nil {
		return
	}
	d.resp = nil
	for _, c := range r.choices.list {
		if !c.ended {
			d.finish(c)
		}
		d.drv.Emit(d.turnEnd(r, c))
	}
	d.spare = r
}

// newResponse returns the state of the completion chunk c begins, in the
// memory of the one ended last when there is one (nothing refers to it
// once it ended: its events hold copies of what they say).
func (d *Decoder) newResponse(c *wire.Chunk) *response {
	r := d.spare
	if r == nil {
		r = new(response)
	}
	d.spare = nil
	if len(r.choices.list) > 0 {
		d.spareChoice = r.choices.list[0]
	}
	*r = response{id: openai.Given(c.ID), raw: c.ID, model: c.Model, created: c.Created, choices: r.choices.emptied()}
	return r
}

// turnEnd returns the TurnEnd of choice c of r.
func (d *Decoder) turnEnd(r *response, c *choice) *event.TurnEnd {
	te := d.turnEnds.New()
	te.Agent, te.MessageID = c.agent, r.id
	if c.finish != nil {
		te.StopReason = openai.StopFromFinish(*c.finish)
	}
	if c.index == 0 && r.usage != nil {
		te.Usage = r.usage.Event()
		te.Usage.ServiceTier = r.tier
	}
	return te
}

// errorChunk handles a mid-stream error object: the open response ends
// (without stop reason), then a fatal Error event.
func (d *Decoder) errorChunk(c *wire.Chunk, data []byte) {
	d.endResponse()
	var raw []byte
	if b := c.ErrorJSON(); b != nil {
		raw = jsontext.Compact(b)
	} else {
		raw, _ = json.Marshal(c.Error)
		var obj struct {
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(data, &obj) == nil && len(obj.Error) > 0 {
			raw = jsontext.Compact(obj.Error)
		}
	}
	d.drv.Emit(&event.Error{Agent: d.cfg.Agent, Message: c.Error.Message, Type: c.Error.Kind(), Fatal: true, Raw: raw})
}
