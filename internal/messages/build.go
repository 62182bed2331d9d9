package messages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"hash/maphash"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/textlist"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// keepMessages is how many finished messages a Builder remembers, so that
// a late snapshot of one of their blocks is recognised and not repeated.
// Of a block it remembers a digest, never the content: what a Builder
// holds does not grow with the length of the stream.
const keepMessages = 16

// Builder turns Messages API stream events and content blocks into
// canonical events, for any number of agent scopes. Each agent has at
// most one message (model turn) open at a time.
//
// Methods that find a problem in the input still emit what they can and
// return an error describing it; the caller positions it in a
// *event.ParseError. Errors wrap event.ErrSyntax or event.ErrTooLarge.
type Builder struct {
	emit    func(event.Event)
	max     int
	turns   map[string]*message  // open message per agent
	open    *openset.Set[string] // the agents in turns, to cap them
	many    bool                 // event.ErrTooManyOpen was returned
	msgs    map[string]*message  // messages by id, open and recently finished
	order   []string             // ids in msgs, oldest first
	anon    int                  // counter for messages without an id
	names   map[string]string    // names of tool calls without a result yet, by id, for mcp_tool_result
	aborted bool                 // the snapshot being read is of a block cut off inside (SnapshotAborted)
	seed    maphash.Seed         // of the blocks' text digests
	// noDigest: the caller never calls Snapshot (StreamOnly), so the
	// text of blocks is not digested.
	noDigest bool
	// last is turns[lastAgent], as current found it last (nil when
	// turns has changed since): the events of a stream are of one agent,
	// whose message is looked up once, not at every delta.
	last      *message
	lastAgent string
	// deltas hands out the Delta events, allocated in batches.
	deltas deltabatch.Batch
}

type message struct {
	agent, id, model string
	streamed         bool // message_start seen: blocks come as stream events
	startUsage       *anthropic.Usage
	deltaUsage       *anthropic.Usage
	stopReason       string
	delta            bool // message_delta seen: how the message ended is known
	ended            bool
	blocks           map[int]*block
	// lastIndex and lastBlock are the block blockDelta found last: the
	// deltas of a block come in a row. An entry of blocks never changes
	// once set.
	lastIndex int
	lastBlock *block
}

type block struct {
	typ        string
	open       bool // text/thinking/tool block started and not finished
	done       bool // its events have all been emitted
	whole      bool // arrived whole in content_block_start: deltas are kept as Unknown
	snap       bool // a snapshot of it has been seen
	text       textDigest
	sig        string
	id, name   string
	server     bool
	mcp        string
	input      strings.Builder // tool input while the block is open
	deltas     []int           // lengths of its input_json_delta fragments
	manyDeltas bool            // more fragments than bytes: their lengths are not kept
	inputSum   inputDigest     // and once it is finished
	start      json.RawMessage // tool input of content_block_start
	citations  []event.Citation
}

// textDigest stands for the text of a block, to compare it with a
// snapshot's: its length and a hash of it (hash/maphash, seeded by the
// Builder), updated as the text arrives.
type textDigest struct {
	n int
	h maphash.Hash
}

func (t *textDigest) write(seed maphash.Seed, s string) {
	if s == "" {
		return
	}
	if t.n == 0 {
		t.h.SetSeed(seed)
	}
	t.h.WriteString(s)
	t.n += len(s)
}

// is reports whether the text t stands for is s (but for a hash
// collision).
func (t *textDigest) is(seed maphash.Seed, s string) bool {
	return len(s) == t.n && (t.n == 0 || maphash.String(seed, s) == t.h.Sum64())
}

// inputDigest stands for a finished tool call's streamed input: the hash
// of its canonical JSON (keys sorted, as json.Marshal writes a map), so
// that input meaning the same as a snapshot's compares equal.
type inputDigest struct {
	set   bool // input was streamed
	valid bool // and it is JSON
	sum   uint64
}

func digestInput(s []byte) inputDigest {
	d := inputDigest{set: len(s) > 0}
	var v any
	if json.Unmarshal(s, &v) != nil {
		return d
	}
	canon, err := json.Marshal(v)
	if err != nil {
		return d
	}
	h := fnv.New64a()
	h.Write(canon)
	d.valid, d.sum = true, h.Sum64()
	return d
}

func (b *block) kind() event.BlockKind {
	if b.typ == anthropic.BlockThinking {
		return event.Thinking
	}
	return event.Text
}

func (b *block) isTool() bool {
	return b.typ == anthropic.BlockToolUse || b.typ == anthropic.BlockServerToolUse || b.typ == anthropic.BlockMCPToolUse
}

// NewBuilder returns a builder that passes the events it makes to emit.
// max caps an assembled tool input in bytes.
func NewBuilder(emit func(event.Event), max int) *Builder {
	return &Builder{
		emit: emit, max: max, turns: map[string]*message{}, msgs: map[string]*message{},
		names: map[string]string{}, open: openset.New[string](maxOpen), seed: maphash.MakeSeed(),
	}
}

// StreamOnly tells b that its caller gives it stream events only, never
// a Snapshot: the text of blocks and the input of tool calls are then
// not digested (a hash of every delta's text, of each input's canonical
// JSON, which only comparing a snapshot with its stream needs). A
// Snapshot given to such a Builder finds every streamed text block and
// every finished tool input different from its stream.
func (b *Builder) StreamOnly() { b.noDigest = true }

// maxOpen caps the agents with a message open at once (the assembler's
// cap). Beyond it the message open longest is ended early, its open blocks
// closed, its TurnEnd saying so, and the first time an error wrapping
// event.ErrTooManyOpen is returned.
const maxOpen = openset.DefaultMax

// setTurn makes msg the open message of agent, ending the one open
// longest if that makes more than maxOpen.
func (b *Builder) setTurn(agent string, msg *message) error {
	b.turns[agent] = msg
	b.last = nil
	old, out := b.open.Add(agent)
	if !out {
		return nil
	}
	m := b.turns[old]
	b.closeTurn(m, "", fmt.Sprintf("ended early: more than %d agents with a message open at once", maxOpen))
	if b.many {
		return nil
	}
	b.many = true
	return event.Errorf(event.ErrTooManyOpen, "more than %d agents with a message open at once; ended message %s of agent %q, open longest, early (truncated; later ones are not reported)",
		maxOpen, publicID(m.id), old)
}

func problemf(format string, args ...any) error {
	return event.Errorf(event.ErrSyntax, format, args...)
}

// Problem is a problem of the stream's order the builder reports with a
// fixed message: it wraps event.ErrSyntax, as problemf's do, and costs
// nothing to make (a stream cut into many runs can hold one on every
// line).
type Problem string

func (p Problem) Error() string { return string(p) }
func (p Problem) Unwrap() error { return event.ErrSyntax }

// outside returns the problem of a stream event of type what that comes
// outside a message.
func outside(what string) error {
	switch what {
	case anthropic.EventContentBlockStart:
		return Problem(anthropic.EventContentBlockStart + " outside a message")
	case anthropic.EventContentBlockDelta:
		return Problem(anthropic.EventContentBlockDelta + " outside a message")
	case anthropic.EventContentBlockStop:
		return Problem(anthropic.EventContentBlockStop + " outside a message")
	case anthropic.EventMessageDelta:
		return Problem(anthropic.EventMessageDelta + " outside a message")
	case anthropic.EventMessageStop:
		return Problem(anthropic.EventMessageStop + " outside a message")
	}
	return Problem(what + " outside a message")
}

// InTurn reports whether agent has a message open.
func (b *Builder) InTurn(agent string) bool { return b.turns[agent] != nil }

// Streamed reports whether agent's open message came as stream events.
func (b *Builder) Streamed(agent string) bool {
	m := b.turns[agent]
	return m != nil && m.streamed
}

func (b *Builder) remember(m *message) {
	if m.id == "" {
		b.anon++
		m.id = fmt.Sprintf("\x00anon%d", b.anon)
	}
	if _, ok := b.msgs[m.id]; !ok {
		b.order = append(b.order, m.id)
	}
	b.msgs[m.id] = m
	for len(b.order) > keepMessages {
		old := b.msgs[b.order[0]]
		if old != nil && !old.ended {
			break
		}
		if old != nil {
			for _, bl := range old.blocks {
				if bl.isTool() {
					delete(b.names, bl.id) // its result, if any, is not coming
				}
			}
		}
		delete(b.msgs, b.order[0])
		b.order[0] = ""
		b.order = b.order[1:]
	}
}

// StreamEvent handles one stream event of agent: se is decoded from raw,
// the event's JSON text, which Unknown and Error events keep. An error
// event ends agent's open message, then emits the error; a type this
// package does not know becomes an Unknown.
func (b *Builder) StreamEvent(agent string, se *anthropic.StreamEvent, raw []byte) error {
	index := -1
	if se.Index != nil {
		index = *se.Index
	}
	switch se.Type {
	case anthropic.EventMessageStart:
		if se.Message == nil {
			return problemf("message_start without a message")
		}
		return b.MessageStart(agent, se.Message)
	case anthropic.EventContentBlockStart:
		return b.BlockStart(agent, index, se.ContentBlock)
	case anthropic.EventContentBlockDelta:
		return b.blockDelta(agent, index, se.Delta, se.ParsedDelta(), raw)
	case anthropic.EventContentBlockStop:
		return b.BlockStop(agent, index)
	case anthropic.EventMessageDelta:
		return b.messageDelta(agent, se.Delta, se.ParsedDelta(), se.Usage)
	case anthropic.EventMessageStop:
		return b.MessageStop(agent)
	case anthropic.EventPing:
	case anthropic.EventError:
		obj, e := errorObject(raw)
		// The turn the error cut short ends first, then the error says
		// why.
		b.EndTurn(agent, "", "")
		typ, msg := fromAPIError(e)
		b.emit(&event.Error{Agent: agent, Message: msg, Type: typ, Fatal: true, Raw: bytes.Clone(obj)})
	default:
		b.emit(&event.Unknown{Agent: agent, Format: anthropic.Format, Type: se.Type, Raw: bytes.Clone(raw)})
	}
	return nil
}

// MessageStart handles message_start. A message still open for the agent
// is closed first and reported.
func (b *Builder) MessageStart(agent string, m *anthropic.Message) error {
	var problem error
	if cur := b.turns[agent]; cur != nil {
		if cur.id == m.ID && m.ID != "" {
			if cur.streamed {
				return problemf("second message_start for message %s", m.ID)
			}
			// Known from a snapshot that came first: now it streams.
			cur.streamed, cur.startUsage = true, m.Usage
			return nil
		}
		if cur.streamed {
			// Its stream was given up and the message begun again (a
			// retry): not a problem of the input, but what it streamed
			// is no part of the answer.
			b.abandon(cur)
		} else {
			problem = problemf("message %s ended without message_stop", publicID(cur.id))
			b.closeTurn(cur, "", "message ended without message_stop")
		}
	}
	msg := b.msgs[m.ID]
	if msg != nil && m.ID != "" && !msg.streamed {
		// Known from a snapshot that came first: its blocks are known.
		msg.streamed = true
		msg.startUsage = m.Usage
		if !msg.ended {
			problem = errors.Join(problem, b.setTurn(agent, msg))
		}
		return problem
	}
	msg = &message{agent: agent, id: m.ID, model: m.Model, streamed: true, startUsage: m.Usage, blocks: map[int]*block{}}
	b.remember(msg)
	b.emit(&event.TurnStart{Agent: agent, MessageID: m.ID, Model: m.Model, Usage: m.Usage.Event()})
	return errors.Join(problem, b.setTurn(agent, msg))
}

func publicID(id string) string {
	if strings.HasPrefix(id, "\x00") {
		return "(no id)"
	}
	return id
}

func (b *Builder) current(agent, what string) (*message, error) {
	if b.last != nil && b.lastAgent == agent {
		return b.last, nil
	}
	m := b.turns[agent]
	if m == nil {
		return nil, outside(what)
	}
	b.last, b.lastAgent = m, agent
	return m, nil
}

// BlockStart handles content_block_start.
func (b *Builder) BlockStart(agent string, index int, raw json.RawMessage) error {
	m, err := b.current(agent, anthropic.EventContentBlockStart)
	if err != nil {
		return err
	}
	if bl := m.blocks[index]; bl != nil {
		if bl.snap || bl.done {
			return nil // already emitted from a snapshot
		}
		return problemf("second content_block_start for block %d", index)
	}
	var cb anthropic.Block
	if err := anthropic.UnmarshalBlock(raw, &cb); err != nil {
		b.emit(&event.Unknown{Agent: agent, Format: anthropic.Format, Type: anthropic.EventContentBlockStart, Raw: bytes.Clone(raw)})
		m.blocks[index] = &block{done: true}
		return problemf("content block %d: %s", index, jsontext.Problem(err))
	}
	bl := &block{typ: cb.Type}
	m.blocks[index] = bl
	switch cb.Type {
	case anthropic.BlockText, anthropic.BlockThinking:
		bl.open = true
		b.emit(&event.BlockStart{Agent: agent, Kind: bl.kind()})
		s := deref(cb.Text)
		if cb.Type == anthropic.BlockThinking {
			s = deref(cb.Thinking)
			bl.sig = deref(cb.Signature)
		}
		b.appendText(agent, bl, s)
		for _, c := range cb.Citations {
			bl.citations = append(bl.citations, citation(c))
		}
	case anthropic.BlockToolUse, anthropic.BlockServerToolUse, anthropic.BlockMCPToolUse:
		bl.open = true
		bl.id, bl.name, bl.mcp = cb.ID, cb.Name, cb.ServerName
		bl.server = cb.Type == anthropic.BlockServerToolUse
		bl.start = bytes.Clone(cb.Input)
	default:
		// Everything else arrives whole in content_block_start; deltas
		// for it (of types unknown here) are kept as they come.
		bl.done, bl.whole = true, true
		b.wholeBlock(agent, &cb, raw)
	}
	return nil
}

func (b *Builder) appendText(agent string, bl *block, s string) {
	if s == "" {
		return
	}
	b.emit(b.deltas.New(agent, bl.kind(), s))
	if !b.noDigest {
		bl.text.write(b.seed, s)
	}
}

// BlockDelta handles content_block_delta; event is the whole stream event,
// kept in an Unknown for delta types this package does not know.
func (b *Builder) BlockDelta(agent string, index int, raw json.RawMessage, ev []byte) error {
	return b.blockDelta(agent, index, raw, nil, ev)
}

// blockDelta is BlockDelta with the delta already decoded from raw, if
// pre is not nil.
func (b *Builder) blockDelta(agent string, index int, raw json.RawMessage, pre *anthropic.Delta, ev []byte) error {
	m, err := b.current(agent, anthropic.EventContentBlockDelta)
	if err != nil {
		return err
	}
	bl := m.lastBlock
	if bl == nil || m.lastIndex != index {
		bl = m.blocks[index]
		if bl == nil {
			return problemf("content_block_delta for block %d, which was not started", index)
		}
		m.lastIndex, m.lastBlock = index, bl
	}
	if bl.whole {
		b.emit(&event.Unknown{Agent: agent, Format: anthropic.Format, Type: anthropic.EventContentBlockDelta, Raw: bytes.Clone(ev)})
		return nil
	}
	if bl.done {
		return nil
	}
	d := pre
	if d == nil {
		d = new(anthropic.Delta)
		if err := json.Unmarshal(raw, d); err != nil {
			return problemf("delta of block %d: %s", index, jsontext.Problem(err))
		}
	}
	switch {
	case d.Type == anthropic.DeltaText && bl.typ == anthropic.BlockText:
		b.appendText(agent, bl, d.Text)
	case d.Type == anthropic.DeltaThinking && bl.typ == anthropic.BlockThinking:
		b.appendText(agent, bl, d.Thinking)
	case d.Type == anthropic.DeltaSignature && bl.typ == anthropic.BlockThinking:
		bl.sig += d.Signature
	case d.Type == anthropic.DeltaCitations && bl.typ == anthropic.BlockText:
		bl.citations = append(bl.citations, citation(d.Citation))
	case d.Type == anthropic.DeltaInputJSON && bl.isTool():
		if bl.input.Len()+len(d.PartialJSON) > b.max {
			bl.done, bl.open = true, false
			return event.Errorf(event.ErrTooLarge, "input of tool call %s larger than %d bytes (raise the cap, MaxEventBytes)", bl.id, b.max)
		}
		bl.input.WriteString(d.PartialJSON)
		// At most one fragment length per input byte, and one more: a
		// stream of empty fragments does not grow memory.
		switch {
		case bl.manyDeltas:
		case len(bl.deltas) > bl.input.Len():
			bl.deltas, bl.manyDeltas = nil, true
		default:
			bl.deltas = append(bl.deltas, len(d.PartialJSON))
		}
	case d.Type == anthropic.DeltaText || d.Type == anthropic.DeltaThinking || d.Type == anthropic.DeltaSignature ||
		d.Type == anthropic.DeltaCitations || d.Type == anthropic.DeltaInputJSON:
		return problemf("%s for a %s block", d.Type, bl.typ)
	default:
		b.emit(&event.Unknown{Agent: agent, Format: anthropic.Format, Type: anthropic.EventContentBlockDelta, Raw: bytes.Clone(ev)})
	}
	return nil
}

// BlockStop handles content_block_stop.
func (b *Builder) BlockStop(agent string, index int) error {
	m, err := b.current(agent, anthropic.EventContentBlockStop)
	if err != nil {
		return err
	}
	bl := m.blocks[index]
	if bl == nil {
		return problemf("content_block_stop for block %d, which was not started", index)
	}
	if !bl.done {
		b.finish(agent, bl, nil)
	}
	return nil
}

// finish emits the end of a block: BlockEnd (and Citations) or the
// ToolCall. input, when set, replaces the assembled tool input.
func (b *Builder) finish(agent string, bl *block, input json.RawMessage) {
	bl.open, bl.done = false, true
	switch {
	case bl.typ == anthropic.BlockText:
		b.emit(&event.BlockEnd{Agent: agent, Kind: event.Text})
		if len(bl.citations) > 0 {
			b.emit(&event.Citations{Agent: agent, Items: bl.citations})
			bl.citations = nil
		}
	case bl.typ == anthropic.BlockThinking:
		b.emit(&event.BlockEnd{Agent: agent, Kind: event.Thinking, Signature: bl.sig})
	case bl.isTool():
		var deltas []int
		if input == nil {
			input = bl.assembledInput()
			if len(bl.deltas) > 1 && string(input) == bl.input.String() {
				deltas = bl.deltas // the fragments as streamed
			}
		}
		// What a late snapshot is compared with (none comes to a
		// StreamOnly builder, nor to a block whose snapshot came: the
		// next ones are repeats, passed over); the text goes.
		if b.noDigest || bl.snap {
			bl.inputSum = inputDigest{set: bl.input.Len() > 0}
		} else {
			bl.inputSum = digestInput([]byte(bl.input.String()))
		}
		bl.input = strings.Builder{}
		bl.start, bl.deltas, bl.manyDeltas = nil, nil, false
		b.names[bl.id] = bl.name
		b.emit(&event.ToolCall{
			Agent: agent, ID: bl.id, Name: bl.name, Input: input, Server: bl.server, MCPServer: bl.mcp,
			InputDeltas: deltas,
		})
	}
}

func (bl *block) assembledInput() json.RawMessage {
	if s := bl.input.String(); s != "" {
		return event.JSONText(s)
	}
	if len(bl.start) > 0 && json.Valid(bl.start) {
		return bl.start
	}
	return json.RawMessage("{}")
}

// MessageDelta handles message_delta.
func (b *Builder) MessageDelta(agent string, raw json.RawMessage, usage *anthropic.Usage) error {
	return b.messageDelta(agent, raw, nil, usage)
}

// messageDelta is MessageDelta with the delta ReadStreamEvent decoded
// from raw, if it did (parsed non-nil), which saves decoding it again.
func (b *Builder) messageDelta(agent string, raw json.RawMessage, parsed *anthropic.Delta, usage *anthropic.Usage) error {
	m, err := b.current(agent, anthropic.EventMessageDelta)
	if err != nil {
		return err
	}
	var d anthropic.Delta
	switch {
	case parsed != nil:
		d = *parsed
	case len(raw) > 0:
		if err := json.Unmarshal(raw, &d); err != nil {
			return problemf("message_delta: %s", jsontext.Problem(err))
		}
	}
	if d.StopReason != nil {
		m.stopReason = *d.StopReason
	}
	if usage != nil {
		m.deltaUsage = usage
	}
	m.delta = true
	return nil
}

// MessageStop handles message_stop: the turn ends.
func (b *Builder) MessageStop(agent string) error {
	m, err := b.current(agent, anthropic.EventMessageStop)
	if err != nil {
		return err
	}
	var problem error
	if open := m.openBlocks(); len(open) > 0 {
		problem = problemf("message_stop with block %d still open", open[0])
	}
	b.closeTurn(m, m.stopReason, "")
	return problem
}

// openBlocks returns the indexes of the blocks not done, in order
// (allocating only when there are some).
func (m *message) openBlocks() []int {
	var open []int
	for i, bl := range m.blocks {
		if !bl.done {
			open = append(open, i)
		}
	}
	slices.Sort(open)
	return open
}

// EndTurn closes agent's open message, if any, when the source has no
// message_stop for it (Claude Code's snapshots): stopReason is what is
// known of it, errText is non-empty when it failed.
func (b *Builder) EndTurn(agent, stopReason, errText string) {
	if m := b.turns[agent]; m != nil {
		b.closeTurn(m, stopReason, errText)
	}
}

// Agents returns the agents with a message open, sorted.
func (b *Builder) Agents() []string {
	return slices.Sorted(maps.Keys(b.turns))
}

func (b *Builder) closeTurn(m *message, stopReason, errText string) {
	for _, i := range m.openBlocks() {
		b.finish(m.agent, m.blocks[i], nil)
	}
	m.ended = true
	delete(b.turns, m.agent)
	b.last = nil
	b.open.Remove(m.agent)
	ev := &event.TurnEnd{Agent: m.agent, MessageID: publicID(m.id), StopReason: stopReason, Error: errText}
	if ev.MessageID == "(no id)" {
		ev.MessageID = ""
	}
	if m.streamed {
		ev.Usage = mergeUsage(m.startUsage, m.deltaUsage)
	}
	b.emit(ev)
}

// abandon ends a streamed message whose stream was given up: its open
// text and thinking blocks are left without an end, a tool call whose
// input had begun is not emitted (its input is incomplete), and a Notice
// says so before the turn ends.
func (b *Builder) abandon(m *message) {
	var cut []string
	for _, i := range m.openBlocks() {
		bl := m.blocks[i]
		bl.open, bl.done = false, true
		what := bl.typ
		if bl.isTool() {
			what += " " + bl.id
		}
		cut = append(cut, what)
	}
	msg := fmt.Sprintf("message %s was abandoned before its end and begun again", publicID(m.id))
	if len(cut) > 0 {
		msg += "; its unfinished " + strings.Join(cut, ", ") + " block(s) are dropped"
	}
	b.emit(&event.Notice{Agent: m.agent, Kind: event.NoticeAbandoned, Message: msg})
	// The turn ends with no stop reason and no error: the message was
	// given up and begun again, which is no failure of the run.
	b.closeTurn(m, "", "")
}

func mergeUsage(start, delta *anthropic.Usage) *event.Usage {
	if !start.HasCounts() && !delta.HasCounts() {
		return nil
	}
	var u anthropic.Usage
	if start != nil {
		u = *start
	}
	if d := delta; d.HasCounts() {
		if d.InputTokens != 0 {
			u.InputTokens = d.InputTokens
		}
		if d.CacheReadInputTokens != 0 {
			u.CacheReadInputTokens = d.CacheReadInputTokens
		}
		if d.CacheCreationInputTokens != 0 {
			u.CacheCreationInputTokens = d.CacheCreationInputTokens
		}
		if d.ServiceTier != "" {
			u.ServiceTier = d.ServiceTier
		}
		if d.Has&event.HasOutput != 0 {
			u.OutputTokens = d.OutputTokens
		}
		u.Has |= d.Has
	}
	return u.Event()
}

// Truncate is called at the end of the input. For every streamed message
// still open it emits the tool calls whose input began to arrive (with what
// arrived) and leaves text and thinking blocks open, and it returns a
// description of what was cut off, or nil.
func (b *Builder) Truncate() []string {
	var open []string
	for _, agent := range b.Agents() {
		m := b.turns[agent]
		if !m.streamed && len(m.openBlocks()) == 0 {
			// Whole blocks from snapshots: nothing was cut off that the
			// caller does not know better (a missing result line).
			continue
		}
		what := fmt.Sprintf("message %s", publicID(m.id))
		if agent != "" {
			what += fmt.Sprintf(" of agent %q", agent)
		}
		if m.delta && len(m.openBlocks()) == 0 {
			// Its message_delta said how it ended (stop reason, usage);
			// only its message_stop was cut off: the turn ends with
			// what it said, and the cut is reported.
			open = append(open, what)
			b.closeTurn(m, m.stopReason, "")
			continue
		}
		var tools, types []string // in the order of the blocks
		count := map[string]int{}
		for _, i := range m.openBlocks() {
			bl := m.blocks[i]
			if bl.isTool() {
				b.finish(agent, bl, nil)
				tools = append(tools, bl.id)
			} else {
				if count[bl.typ] == 0 {
					types = append(types, bl.typ)
				}
				count[bl.typ]++
			}
			bl.done = true
		}
		open = append(open, what+insideBlocks(tools, types, count))
		m.ended = true
		delete(b.turns, agent)
		b.last = nil
		b.open.Remove(agent)
	}
	return open
}

// insideBlocks says once which blocks a message was cut off inside: tool
// calls by id, other blocks counted by type: " (inside 12 text blocks)".
func insideBlocks(tools, types []string, count map[string]int) string {
	var parts []string
	for _, typ := range types {
		if n := count[typ]; n == 1 {
			parts = append(parts, fmt.Sprintf("inside a %s block", typ))
		} else {
			parts = append(parts, fmt.Sprintf("inside %d %s blocks", n, typ))
		}
	}
	switch len(tools) {
	case 0:
	case 1:
		parts = append(parts, "in the input of tool call "+tools[0])
	default:
		parts = append(parts, fmt.Sprintf("in the input of %d tool calls, %s", len(tools), textlist.Join(tools, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// Snapshot handles a complete assistant message carrying whole content
// blocks: Claude Code's assistant line, one block per line. A block
// already built from stream events (same message id, same content index)
// is checked against the snapshot instead of being emitted again; a block
// the stream has not shown is emitted now. A new message id closes the
// agent's previous message.
func (b *Builder) Snapshot(agent string, m *anthropic.Message) error {
	var problems []error
	msg := b.msgs[m.ID]
	if m.ID == "" || msg == nil {
		if cur := b.turns[agent]; cur != nil && cur.streamed && len(cur.openBlocks()) > 0 {
			b.abandon(cur) // its stream was given up for this message
		} else if cur != nil {
			b.closeTurn(cur, "", "")
		}
		msg = &message{agent: agent, id: m.ID, model: m.Model, blocks: map[int]*block{}}
		b.remember(msg)
		b.emit(&event.TurnStart{Agent: agent, MessageID: m.ID, Model: m.Model, Usage: m.Usage.Event()})
		problems = append(problems, b.setTurn(agent, msg))
	} else if cur := b.turns[agent]; cur != nil && cur != msg && !msg.ended {
		b.closeTurn(cur, "", "")
		problems = append(problems, b.setTurn(agent, msg))
	}
	for _, raw := range m.Content {
		if err := b.snapshotBlock(agent, msg, raw); err != nil {
			problems = append(problems, err)
		}
	}
	return errors.Join(problems...)
}

// SnapshotAborted is Snapshot of an assistant line that agentstream's
// claude writer marks "aborted": true: what arrived of a text or thinking
// block the input was cut off inside. The block is emitted without its
// end, so that it stays truncated, as it was in the source.
func (b *Builder) SnapshotAborted(agent string, m *anthropic.Message) error {
	b.aborted = true
	defer func() { b.aborted = false }()
	return b.Snapshot(agent, m)
}

func (b *Builder) snapshotBlock(agent string, msg *message, raw json.RawMessage) error {
	var cb anthropic.Block
	if err := anthropic.UnmarshalBlock(raw, &cb); err != nil {
		b.emit(&event.Unknown{Agent: agent, Format: anthropic.Format, Type: "", Raw: bytes.Clone(raw)})
		return problemf("content block of message %s: %s", publicID(msg.id), jsontext.Problem(err))
	}
	// The block of the lowest index that it may be, the blocks' indexes
	// compared as the map gives them, not sorted.
	idx, bl, top := -1, (*block)(nil), math.MinInt
	for i, c := range msg.blocks {
		top = max(top, i)
		if !c.snap && c.typ == cb.Type && (!c.isTool() || c.id == cb.ID) && (bl == nil || i < idx) {
			idx, bl = i, c
		}
	}
	if bl == nil {
		for _, c := range msg.blocks {
			if c.typ == cb.Type && ((c.isTool() && c.id == cb.ID) || (!c.isTool() && msg.streamed)) {
				// A repeated snapshot of a block already seen.
				return nil
			}
		}
		// A block the stream has not shown: emit it whole, and claim
		// the next index so a late stream of it is not repeated.
		idx = 0
		if len(msg.blocks) > 0 {
			idx = top + 1
		}
		msg.blocks[idx] = &block{typ: cb.Type, snap: true, done: true, id: cb.ID}
		b.wholeBlock(agent, &cb, raw)
		return nil
	}
	bl.snap = true
	switch {
	case bl.typ == anthropic.BlockText || bl.typ == anthropic.BlockThinking:
		want := deref(cb.Text)
		if bl.typ == anthropic.BlockThinking {
			want = deref(cb.Thinking)
			if bl.sig == "" {
				bl.sig = deref(cb.Signature)
			}
		}
		if len(bl.citations) == 0 {
			for _, c := range cb.Citations {
				bl.citations = append(bl.citations, citation(c))
			}
		}
		var problem error
		n := bl.text.n
		switch {
		case bl.text.is(b.seed, want):
		case bl.open && len(want) > n && bl.text.is(b.seed, want[:n]):
			// Stream events were lost: the snapshot completes them.
			b.appendText(agent, bl, want[n:])
		default:
			problem = problemf("assistant snapshot of %s block %d of message %s differs from its stream events; kept the stream events", bl.typ, idx, publicID(msg.id))
		}
		if bl.open {
			b.finish(agent, bl, nil)
		}
		return problem
	case bl.isTool():
		input, problem := bl.reconcileInput(cb.Input, idx, publicID(msg.id))
		if bl.open {
			b.finish(agent, bl, input)
		}
		return problem
	}
	return nil
}

// reconcileInput chooses a tool call's input from what was streamed and
// the snapshot's: the streamed text, verbatim, when it means the same.
func (bl *block) reconcileInput(snap json.RawMessage, idx int, id string) (json.RawMessage, error) {
	if len(snap) == 0 || !json.Valid(snap) {
		return nil, nil
	}
	if bl.done {
		// Finished: only its digest is left.
		if !bl.inputSum.set || bl.inputSum.valid && (digestInput(snap).sum == bl.inputSum.sum ||
			digestInput(withoutDefaults(snap)).sum == bl.inputSum.sum) {
			return nil, nil
		}
		return nil, problemf("assistant snapshot of tool call %s (block %d of message %s) differs from its stream events", bl.id, idx, id)
	}
	streamed := bl.input.String()
	if streamed == "" {
		return snap, nil
	}
	// The same JSON text but for white space means the same: no need of
	// encoding/json's two decodings.
	sb := []byte(streamed)
	var r jsontext.Reader
	if r.Reset(sb); r.Skip() != nil && r.End() &&
		bytes.Equal(jsontext.CompactValid(sb), jsontext.CompactValid(snap)) {
		return nil, nil
	}
	var a, s any
	if json.Unmarshal(sb, &a) == nil && json.Unmarshal(snap, &s) == nil {
		if reflect.DeepEqual(a, s) {
			return nil, nil
		}
		if onlyDefaults(a, s) {
			// The CLI filled in defaults the model left out (Edit's
			// "replace_all": false): the snapshot is what ran, and what
			// a recording without stream events has.
			return snap, nil
		}
	}
	return snap, problemf("assistant snapshot of tool call %s (block %d of message %s) differs from its stream events; kept the snapshot", bl.id, idx, id)
}

// onlyDefaults reports whether snapshot s is object a with keys added whose
// values are defaults: false, null, 0 or "".
func onlyDefaults(a, s any) bool {
	am, ok1 := a.(map[string]any)
	sm, ok2 := s.(map[string]any)
	if !ok1 || !ok2 || len(sm) <= len(am) {
		return false
	}
	for k, v := range am {
		if sv, ok := sm[k]; !ok || !reflect.DeepEqual(v, sv) {
			return false
		}
	}
	for k, v := range sm {
		if _, ok := am[k]; ok {
			continue
		}
		switch v {
		case false, nil, 0.0, "":
		default:
			return false
		}
	}
	return true
}

// withoutDefaults returns JSON object snap without its keys whose values
// are defaults (false, null, 0, ""), or snap itself.
func withoutDefaults(snap json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(snap, &m) != nil {
		return snap
	}
	for k, v := range m {
		switch v {
		case false, nil, 0.0, "":
			delete(m, k)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return snap
	}
	return out
}

// ToolAnswered tells the builder that the result of tool call id arrived
// outside the assistant's messages (a client tool's, in a user line): it
// forgets the call's name.
func (b *Builder) ToolAnswered(id string) { delete(b.names, id) }

// wholeBlock emits the events of a complete content block.
func (b *Builder) wholeBlock(agent string, cb *anthropic.Block, raw json.RawMessage) {
	for _, ev := range BlockEvents(agent, cb, raw) {
		switch ev := ev.(type) {
		case *event.BlockEnd:
			if b.aborted {
				continue // cut off inside: it has no end (SnapshotAborted)
			}
		case *event.ToolCall:
			b.names[ev.ID] = ev.Name
		case *event.ToolResult:
			if ev.Name == "" {
				ev.Name = b.names[ev.ID]
			}
			delete(b.names, ev.ID)
		}
		b.emit(ev)
	}
}

// BlockEvents returns the canonical events of a complete content block.
// raw is the block's JSON text, kept in Unknown and ToolResult events.
func BlockEvents(agent string, cb *anthropic.Block, raw json.RawMessage) []event.Event {
	switch cb.Type {
	case anthropic.BlockText:
		evs := []event.Event{&event.BlockStart{Agent: agent, Kind: event.Text}}
		if t := deref(cb.Text); t != "" {
			evs = append(evs, &event.Delta{Agent: agent, Kind: event.Text, Text: t})
		}
		evs = append(evs, &event.BlockEnd{Agent: agent, Kind: event.Text})
		if len(cb.Citations) > 0 {
			c := &event.Citations{Agent: agent}
			for _, r := range cb.Citations {
				c.Items = append(c.Items, citation(r))
			}
			evs = append(evs, c)
		}
		return evs
	case anthropic.BlockThinking:
		evs := []event.Event{&event.BlockStart{Agent: agent, Kind: event.Thinking}}
		if t := deref(cb.Thinking); t != "" {
			evs = append(evs, &event.Delta{Agent: agent, Kind: event.Thinking, Text: t})
		}
		return append(evs, &event.BlockEnd{Agent: agent, Kind: event.Thinking, Signature: deref(cb.Signature)})
	case anthropic.BlockToolUse, anthropic.BlockServerToolUse, anthropic.BlockMCPToolUse:
		input := cb.Input
		if len(input) == 0 || !json.Valid(input) {
			input = json.RawMessage("{}")
		}
		return []event.Event{&event.ToolCall{
			Agent: agent, ID: cb.ID, Name: cb.Name, Input: bytes.Clone(input),
			Server: cb.Type == anthropic.BlockServerToolUse, MCPServer: cb.ServerName,
		}}
	case anthropic.BlockMCPToolResult, anthropic.BlockToolResult:
		// An MCP tool's result inside the assistant's message: the beta
		// block type, or tool_result as emit/anthropic writes it for
		// clients without the beta.
		parts, _ := ResultParts(cb.Content)
		return []event.Event{&event.ToolResult{
			Agent: agent, ID: cb.ToolUseID, Content: parts,
			IsError: cb.IsError != nil && *cb.IsError,
		}}
	}
	if anthropic.IsServerToolResult(cb.Type) {
		ev := &event.ToolResult{Agent: agent, ID: cb.ToolUseID, Name: cb.Type, Server: true}
		if len(cb.Content) > 0 {
			ev.Content = []event.Part{{Type: "text", Text: string(cb.Content)}}
		}
		return []event.Event{ev}
	}
	return []event.Event{&event.Unknown{Agent: agent, Format: anthropic.Format, Type: cb.Type, Raw: bytes.Clone(raw)}}
}

// ResultParts converts tool result content (a string, or an array of
// text, image and other blocks) to parts. Blocks other than text and
// image become a part of their own type whose Text is the block's JSON.
func ResultParts(content json.RawMessage) ([]event.Part, error) {
	content = bytes.TrimSpace(content)
	if len(content) == 0 || string(content) == "null" {
		return nil, nil
	}
	// Read in one pass where a jsontext.Reader can, else with
	// encoding/json, which gives the errors.
	var r jsontext.Reader
	r.Reset(content)
	if content[0] == '"' {
		if s := r.String(); r.End() {
			return []event.Part{{Type: "text", Text: s}}, nil
		}
		var s string
		if err := json.Unmarshal(content, &s); err != nil {
			return nil, err
		}
		return []event.Part{{Type: "text", Text: s}}, nil
	}
	var blocks []json.RawMessage
	if r.Array() {
		for r.More() {
			blocks = append(blocks, r.Skip())
		}
	}
	if !r.End() {
		blocks = nil
		if err := json.Unmarshal(content, &blocks); err != nil {
			return []event.Part{{Type: "text", Text: string(content)}}, err
		}
	}
	parts := make([]event.Part, 0, len(blocks))
	for _, raw := range blocks {
		var cb anthropic.Block
		if r.Reset(raw); !anthropic.ReadBlock(&r, &cb) || !r.End() {
			cb = anthropic.Block{}
			if json.Unmarshal(raw, &cb) != nil {
				parts = append(parts, event.Part{Type: "text", Text: string(raw)})
				continue
			}
		}
		parts = append(parts, blockPart(&cb, raw))
	}
	return parts, nil
}

// blockPart returns the part of a tool result that block cb, decoded
// from raw, is.
func blockPart(cb *anthropic.Block, raw []byte) event.Part {
	switch {
	case cb.Type == anthropic.BlockText && cb.Text != nil:
		return event.Part{Type: "text", Text: *cb.Text}
	case cb.Type == anthropic.BlockImage && cb.Source != nil:
		p := event.Part{Type: "image", MediaType: cb.Source.MediaType}
		if cb.Source.Type == "base64" {
			p.Source = "data:" + cb.Source.MediaType + ";base64," + cb.Source.Data
		} else {
			p.Source = cb.Source.URL
		}
		return p
	}
	return event.Part{Type: cb.Type, Text: string(raw)}
}

var citationFields = map[string]bool{
	"type": true, "cited_text": true, "document_index": true, "document_title": true,
	"start_char_index": true, "end_char_index": true, "start_page_number": true, "end_page_number": true,
	"url": true, "title": true,
}

// citation converts a citation object; Raw keeps it when it has fields
// the canonical citation does not.
func citation(raw json.RawMessage) event.Citation {
	var c anthropic.Citation
	if json.Unmarshal(raw, &c) != nil {
		return event.Citation{Raw: event.JSONText(string(raw))}
	}
	ev := event.Citation{
		Type: c.Type, CitedText: c.CitedText, DocumentIndex: c.DocumentIndex,
		DocumentTitle: c.DocumentTitle, StartCharIndex: c.StartCharIndex, EndCharIndex: c.EndCharIndex,
		StartPageNumber: c.StartPageNumber, EndPageNumber: c.EndPageNumber, URL: c.URL, Title: c.Title,
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil {
		for k := range m {
			if !citationFields[k] {
				ev.Raw = bytes.Clone(raw)
				break
			}
		}
	}
	return ev
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
