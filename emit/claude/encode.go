package claude

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/emit/internal/lost"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/slab"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
	parse "github.com/agentstream/agentstream/parse/claude"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Partial writes stream_event lines (the raw API stream events) as
	// claude --include-partial-messages does, besides the assistant
	// snapshots (CLI flag --partial).
	Partial bool
	// Agent is the scope of events whose agent is empty.
	Agent string
	// Warn receives what stream-json cannot carry. Nil discards it.
	Warn func(error)
	// MaxBlockBytes caps the assistant line of one text or thinking
	// block, whose text is held until the block ends
	// (event.DefaultMaxBytes if 0): the line, the text JSON-escaped in
	// it, stays within it, so that a reader with the same cap reads it.
	// Text beyond is dropped and reported through Warn, once.
	MaxBlockBytes int
}

// Encoder writes canonical events as Claude Code stream-json.
type Encoder struct {
	w      io.Writer
	cfg    Config
	err    error
	losses event.Losses // what was warned about
	out    []byte       // the line being written when not in the output's buffer (see lineBuf), reused
	// buffered is w when it lends its free space to build a line in
	// (a bufio.Writer: its AvailableBuffer inlined), and lent the space
	// lineBuf took last.
	buffered *bufio.Writer
	lent     []byte
	ids      lineIDs      // derives the lines' uuids
	strs     slab.Strings // the message ids newID makes, in slabs, not allocated one by one
	jr       jsontext.Reader
	inits    wire.InitReader // reads the source's init lines
	block    []byte          // an error line's block, reused
	errsJSON []byte          // a made result line's errors, reused
	spare    []byte          // the agents' Streamers' block buffer, reused (see messages.Streamer.Spare)
	// errTexts are the JSON strings of the last error texts: a log of
	// many runs repeats its errors, each written in two assistant lines
	// (Codex reports a failed turn twice) and in the result's errors.
	errTexts escapedTexts
	// reuse is the last run's main agent, which newRun keeps for the
	// next run's, with its Streamer and their closures: a log of many
	// tiny runs made them anew for each.
	reuse *agent
	// sessionJSON holds the session id as a JSON string, in the pieces
	// around it of a line's header (see headerText), or is empty until
	// made.
	sessionJSON []byte
	initLine    initLine // kept across runs (see appendInit)
	// bigBlock is the size from which a block is not copied into its
	// line (defaultBigBlock; tests change it).
	bigBlock int

	agents   map[string]*agent // the subagents (the main agent is mainAgent: a run of one agent fills no map)
	order    []*agent          // agents in order of appearance (and those let go of, marked gone)
	n        int               // lines written, for derived uuids
	lastText []byte            // the main agent's last text, as a JSON string (for the result line)
	// rawBlocks is set once an Unknown event went to a Streamer, which
	// may write it as a block as it came. Until then every text block
	// noteText keeps was escaped by jsontext.AppendMarshalString, and
	// its text in lastText is valid UTF-8 with no raw U+2028 or U+2029.
	rawBlocks bool

	// warned are the last kinds warned about (see warn), of the nWarned
	// put there in turn.
	warned  [4]string
	nWarned int

	// runState is what a run starts without (see newRun): zeroed on
	// its own, the encoder's buffers are not copied for each run.
	runState
}

// runState is the state of the encoder that a run (a main session)
// starts without.
type runState struct {
	// rs holds what the result line's pointer fields point to, so that
	// they are not moved to the heap one by one for every run.
	rs struct {
		stop, res string
	}
	main      string // the main agent's scope
	haveMain  bool
	mainAgent *agent // agents[main], once made (a main agent is never let go of)
	session   string // session_id written on every line (set by setSession)
	inited    bool
	last      *agent // the agent scope returned last
	// subs are the agents other than the main one, in the order they
	// came, at most maxAgents; idle are those of them found with
	// nothing open after an event of theirs (checked again when one is
	// wanted). Both are made at the first subagent.
	subs, idle *openset.Set[string]
	forgot     int // agents let go of (see letGo)

	// what the result line needs when the source has no RunEnd
	turnUsage   event.Usage // the sum of the main agent's turns' usage
	turnCounted bool        // whether any of its turns gave one
	lastStop    string
	failed      bool     // the main agent had a fatal error or a failed turn
	errs        []string // the main agent's error messages, for result.errors
	resultOut   bool
}

type agent struct {
	id       string
	parent   *string              // parent_tool_use_id: nil for the main agent
	calls    *openset.Set[string] // its client tool calls without a result yet, at most maxCalls
	names    map[string]string    // tool name of each call in calls (and of a few answered since)
	st       *messages.Streamer
	idPrefix [17]byte // msg_, 12 hex digits of the hash of id and _, see newID (0 until made)
	// gen is the number of agents let go of before this one was made:
	// part of what its message ids are derived from, so that an agent
	// let go of and seen again gets new ones.
	gen  int
	gone bool // let go of: no longer in agents
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{w: w, agents: map[string]*agent{}, bigBlock: defaultBigBlock}
	e.buffered, _ = w.(*bufio.Writer)
	if cfg != nil {
		e.cfg = *cfg
	}
	if e.cfg.MaxBlockBytes <= 0 {
		e.cfg.MaxBlockBytes = event.DefaultMaxBytes
	}
	return e
}

// warn reports what stream-json cannot carry, once per kind. The kinds
// reported last are looked for first, without losses' map lookup (a
// string hash): a log of many runs warns again and again of the same
// few kinds, in turn (exit codes, usage, reasoning tokens).
func (e *Encoder) warn(what string) {
	for _, w := range e.warned[:min(e.nWarned, len(e.warned))] {
		if w == what {
			return
		}
	}
	e.warned[e.nWarned%len(e.warned)] = what
	e.nWarned++
	e.losses.Report(e.cfg.Warn, "claude", what)
}

// appendUUID appends the next line's uuid, derived from the session id
// and a counter so that output is deterministic.
func (e *Encoder) appendUUID(b []byte) []byte {
	e.n++
	return e.ids.appendUUID(b, e.n)
}

// setSession makes id the session_id of the lines that follow: what is
// made of it (headerText's JSON text, the uuids' message) is made anew
// once, not compared with it at every line.
func (e *Encoder) setSession(id string) {
	e.session, e.sessionJSON = id, e.sessionJSON[:0]
	e.ids.setSession(id)
}

// line writes one line; err is the error of marshalling it, if any.
func (e *Encoder) line(b []byte, err error) {
	if e.err != nil {
		return
	}
	if err != nil {
		e.err = fmt.Errorf("claude: %w", err)
		return
	}
	e.writeLine(append(e.lineBuf(len(b)), b...))
}

// lineRoomAvail is the free space lineBuf wants in the output's buffer
// besides the size it is told of: room for a line's other fields.
const lineRoomAvail = 2 << 10

// lineBuf returns an empty buffer to build a line of about size bytes
// and more in, for writeLine: the free space of the output's buffer when
// it has room, where the line is written by writeLine's Write without
// being copied, else e.out. A line that outgrows the space moves to a
// buffer of its own, written as any other.
func (e *Encoder) lineBuf(size int) []byte {
	if e.buffered != nil {
		if b := e.buffered.AvailableBuffer(); cap(b) >= size+lineRoomAvail {
			e.lent = b
			return b
		}
	}
	return e.out[:0]
}

// writeLine writes b, a line without its newline built on lineBuf's
// buffer; a buffer other than the output's is kept for reuse as e.out.
func (e *Encoder) writeLine(b []byte) {
	if e.err != nil {
		return
	}
	b = append(b, '\n')
	_, e.err = e.w.Write(b)
	if cap(b) <= 64<<10 && (cap(e.lent) == 0 || &b[0] != &e.lent[:1][0]) {
		e.out = b[:0] // a rare large line is not kept
	}
}

// sessionText returns the session id as a JSON string: escaped once per
// session id, not once per line.
func (e *Encoder) sessionText() []byte {
	h := e.headerText()
	return h[len(nullParent+sessionKey) : len(h)-len(uuidKey)]
}

// What a main agent's line has between its message and its uuid's hex
// digits: headerText's pieces.
const (
	nullParent = `,"parent_tool_use_id":null`
	sessionKey = `,"session_id":`
	uuidKey    = `,"uuid":"`
)

// headerText returns nullParent, sessionKey, the session id as a JSON string
// and uuidKey in one piece, made once per session id (see setSession).
func (e *Encoder) headerText() []byte {
	if len(e.sessionJSON) == 0 {
		b := jsontext.AppendMarshalString(append(e.sessionJSON, nullParent+sessionKey...), e.session)
		e.sessionJSON = append(b, uuidKey...)
	}
	return e.sessionJSON
}

// appendHeader appends the fields every line ends with, as Marshal
// writes header, and the line's closing brace.
func (e *Encoder) appendHeader(b []byte, a *agent) []byte {
	h := e.headerText()
	if a.parent != nil {
		b = jsontext.AppendMarshalString(append(b, `,"parent_tool_use_id":`...), *a.parent)
		h = h[len(nullParent):]
	}
	return append(e.appendUUID(append(b, h...)), `"}`...)
}

// appendAssistant appends an assistant line holding block, as Marshal
// writes struct{Type; Message; header}, but its closing brace.
func (e *Encoder) appendAssistant(b []byte, a *agent, m messages.MessageInfo, block []byte) []byte {
	b = append(b, `{"type":"`+wire.TypeAssistant+`","message":`...)
	b = messages.AppendMessage(b, m.ID, m.Model, m.Usage, block)
	b = e.appendHeader(b, a)
	return b[:len(b)-1]
}

// scope returns the state of agent id, creating it on first use.
func (e *Encoder) scope(id string) *agent {
	if a := e.last; a != nil && a.id == id {
		// Most events are of the agent of the event before: no map
		// lookup (a string hash) for them.
		return a
	}
	if a := e.agent(id); a != nil {
		e.last = a
		return a
	}
	if !e.haveMain {
		e.haveMain, e.main = true, id
	}
	var a *agent
	if r := e.reuse; r != nil && id == e.main {
		e.reuse = nil
		a = r.reset(id)
	} else {
		a = &agent{id: id}
		if id != e.main {
			p := id
			a.parent = &p
		}
		a.st = &messages.Streamer{
			Block:         func(m messages.MessageInfo, block []byte) error { return e.snapshot(a, m, block) },
			NewID:         func(n int) string { return a.newID(n, &e.ids.sums, &e.strs) },
			MaxBlockBytes: textCap(e.cfg.MaxBlockBytes),
			Cut:           func() { e.warn("text beyond MaxEventBytes in one block") },
			Spare:         &e.spare,
		}
		if e.cfg.Partial && a.parent == nil {
			// Else no stream event is written: none is made.
			a.st.Event = func(typ string, data []byte) error { return e.streamEvent(a, data) }
		}
	}
	if m := e.mainAgent; m != nil {
		a.st.Model = m.st.Model
	}
	if id != e.main {
		e.hold(a)
		e.agents[id] = a
	} else {
		e.mainAgent = a
	}
	e.order = append(e.order, a)
	e.last = a
	return a
}

// agent returns agent id, nil until scope makes it.
func (e *Encoder) agent(id string) *agent {
	if m := e.mainAgent; m != nil && m.id == id {
		return m
	}
	return e.agents[id]
}

// maxAgents caps the agents other than the main one that the encoder
// keeps (openset.DefaultMax).
const maxAgents = openset.DefaultMax

// agentsLoss and callsLoss are the losses letGo and track report.
var (
	agentsLoss = fmt.Sprintf("more than %d subagents at once (the first with nothing open, else the first, is let go of: "+
		"its open block is written aborted, what it writes later goes in a new message)", maxAgents)
	callsLoss = fmt.Sprintf("more than %d tool calls of one agent waiting for their result "+
		"(the oldest is forgotten: its turn may end before its result)", maxCalls)
)

// hold adds a, a new subagent, to subs, letting go of another first when
// that would make more than maxAgents.
func (e *Encoder) hold(a *agent) {
	if e.subs == nil {
		e.subs, e.idle = openset.New[string](maxAgents+1), openset.New[string](maxAgents+1)
	}
	if e.subs.Len() >= maxAgents {
		e.letGo(e.leastMissed())
	}
	a.gen = e.forgot
	e.subs.Add(a.id)
}

// leastMissed returns the subagent to let go of: the one that came first
// of those with nothing open, else the one that came first.
func (e *Encoder) leastMissed() *agent {
	for {
		k, ok := e.idle.Oldest()
		if !ok {
			break
		}
		e.idle.Remove(k)
		if a := e.agents[k]; a != nil && a.quiet() {
			return a
		}
	}
	k, _ := e.subs.Oldest()
	return e.agents[k]
}

// quiet reports whether the agent has nothing open: no message, no block,
// no tool call waiting for its result.
func (a *agent) quiet() bool {
	return !a.st.InTurn() && !a.st.Open() && (a.calls == nil || a.calls.Len() == 0)
}

// noteQuiet adds a, if it is a subagent with nothing open, to idle.
func (e *Encoder) noteQuiet(a *agent) {
	if a != nil && a.parent != nil && e.idle != nil && !a.gone && a.quiet() {
		e.idle.Add(a.id)
	}
}

// letGo forgets subagent a, warned about once: what arrived of its open
// block is written as Close writes it, marked aborted (it did not end);
// a text block whose stop was held is written. A later event of the
// agent makes it anew, as if it had not been seen: its blocks go in a
// new message, with new ids.
func (e *Encoder) letGo(a *agent) {
	e.warn(agentsLoss)
	if m, block, ok := a.st.Pending(); ok {
		b := e.appendAssistant(e.lineBuf(len(block)), a, m, block)
		e.writeLine(append(b, `,"aborted":true}`...))
	} else if err := a.st.Flush(); err != nil && e.err == nil {
		e.err = err
	}
	delete(e.agents, a.id)
	e.subs.Remove(a.id)
	e.idle.Remove(a.id)
	a.gone = true
	if e.last == a {
		e.last = nil
	}
	e.forgot++
	if len(e.order) > 2*len(e.agents)+16 {
		e.order = slices.DeleteFunc(e.order, func(a *agent) bool { return a.gone })
	}
}

// reset makes a, a main agent that no run refers to any more, a new main
// agent id, as scope makes one: its Streamer and its closures, which
// refer to a and to the encoder only, are kept.
func (a *agent) reset(id string) *agent {
	st := a.st
	st.Reset()
	st.Model = ""
	clear(a.names)
	if a.calls != nil {
		a.calls.Clear()
	}
	*a = agent{id: id, names: a.names, calls: a.calls, st: st}
	return a
}

// lineRoom is what the cap on a block's line keeps for the line's other
// fields (ids, model, usage, ...): the text gets the rest, or at least
// half of the cap.
const lineRoom = 4 << 10

// textCap returns the cap on the JSON size of a block's text for a cap
// of limit bytes on its line.
func textCap(limit int) int {
	return max(limit-lineRoom, limit/2)
}

// newID returns the id of the agent's n-th message whose source gives
// none: msg_, 12 hex digits of the hash of the agent's id, _ and n. sums
// hashes; the id is copied into strs.
func (a *agent) newID(n int, sums *blockSum, strs *slab.Strings) string {
	p := &a.idPrefix
	if p[0] == 0 {
		// Hashed once per agent, written in one piece.
		var buf [64]byte
		seed := append(buf[:0], a.id...)
		if a.gen > 0 {
			seed = strconv.AppendInt(append(seed, 0), int64(a.gen), 10)
		}
		h := sums.sum(seed)
		copy(p[:], "msg_")
		binary.LittleEndian.PutUint64(p[4:], hex8(h[:4]))
		binary.LittleEndian.PutUint32(p[12:], uint32(hex8(h[4:])))
		p[16] = '_'
	}
	var id [len(a.idPrefix) + 20]byte
	return strs.String(strconv.AppendInt(append(id[:0], p[:]...), int64(n), 10))
}

// Encode writes the lines of ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	if e.inited {
		// Most events are deltas and blocks' starts and ends: what the
		// lines below do with them, without their tests of the event's
		// type.
		switch ev := ev.(type) {
		case *event.Delta:
			return e.scope(e.agentOr(ev.Agent)).st.Delta(ev)
		case *event.BlockStart:
			return e.blockEdge(e.scope(e.agentOr(ev.Agent)), ev)
		case *event.BlockEnd:
			return e.blockEdge(e.scope(e.agentOr(ev.Agent)), ev)
		}
	}
	err := e.encode(ev)
	e.noteQuiet(e.last)
	return err
}

// blockEdge is encode of a block's start or end, for agent a.
func (e *Encoder) blockEdge(a *agent, ev event.Event) error {
	_, err := a.st.Add(ev)
	e.noteQuiet(a)
	return err
}

// agentOr returns id, or Config.Agent for an event that names none.
func (e *Encoder) agentOr(id string) string {
	if id == "" {
		return e.cfg.Agent
	}
	return id
}

// encode writes the lines of ev, but for those Encode writes.
func (e *Encoder) encode(ev event.Event) error {
	id := e.agentOr(ev.AgentID())
	if s, ok := ev.(*event.SessionStart); ok && s.ParentToolID == "" && s.ParentAgent == "" {
		if e.haveMain && id != e.main && e.agents[id] == nil {
			e.newRun()
		}
		if !e.haveMain {
			e.haveMain, e.main = true, id
		}
	}
	if !e.inited && e.preInit(ev) {
		return e.err
	}
	a := e.scope(id)
	if s, ok := ev.(*event.SessionStart); ok {
		e.sessionStart(a, s)
		return e.err
	}
	if t, ok := ev.(*event.TurnStart); ok && !e.inited {
		// A source without a session start (an API body) names its
		// model on its first message: the init line says it too.
		e.init(&event.SessionStart{Agent: id, Model: t.Model})
	}
	e.init(nil)
	if t, ok := ev.(*event.ToolResult); ok {
		e.endSubagents(t.ID)
	}
	e.track(a, ev)
	if t, ok := ev.(*event.ToolResult); ok && !a.st.AssistantResult(t) && a.st.Answered(t.ID) && !a.st.Explicit() {
		// No turn boundaries in the source: the model's turn is over
		// once all its tool calls have their results. Its stop reason
		// is unknown (null), not a made-up tool_use.
		a.st.EndTurn("", nil)
		if a.id == e.main {
			e.lastStop = ""
		}
	}
	if te, ok := ev.(*event.TurnEnd); ok && a.id == e.main {
		e.lastStop = te.StopReason
		if te.Usage != nil {
			e.turnUsage.Add(te.Usage)
			if te.Usage.ServiceTier != "" {
				e.turnUsage.ServiceTier = te.Usage.ServiceTier
			}
			e.turnCounted = true
			if !e.cfg.Partial && (a.st.Start() == nil || *a.st.Start() != *te.Usage) {
				e.warn("per-turn usage known only at the turn's end (assistant lines carry the usage of the message's start; the result line has the sum)")
			}
		}
	}
	e.noteUsage(ev)
	if n, ok := ev.(*event.Notice); ok && n.Kind == event.NoticeAbandoned && len(n.Raw) == 0 {
		// A message the source gave up and began again: what of its
		// open block was streamed stays as it came (--partial), with no
		// block stop, message_delta or message_stop, which is how the
		// reader tells it; without --partial it is not written at all.
		// The notice is the reader's, not a line of the source.
		if a.st.Abandon() && !e.cfg.Partial {
			e.warn("abandoned partial messages (dropped: only --partial shows them)")
		}
		return e.err
	}
	if u, ok := ev.(*event.Unknown); ok && u.Format == anthropic.Format {
		e.rawBlocks = true // it may become a block of the Streamer's: see rawBlocks
	}
	handled, err := a.st.Add(ev)
	if te, ok := ev.(*event.TurnEnd); ok && err == nil && te.Error != "" {
		// The turn's end is written; its failure is an error of its
		// own, as the envelope writes it.
		e.errorLine(a, &event.Error{Agent: te.Agent, Message: te.Error, Type: TurnFailedErrorType, Fatal: true})
		return e.err
	}
	if err != nil || handled {
		return err
	}
	if err := a.st.Flush(); err != nil {
		return err
	}
	switch ev := ev.(type) {
	case *event.ToolResult:
		e.toolResult(a, ev)
	case *event.Error:
		e.errorLine(a, ev)
	case *event.RunEnd:
		e.runEnd(a, ev)
	case *event.Notice:
		e.notice(a, ev)
	case *event.Unknown:
		switch raw := bytes.TrimSpace(ev.Raw); {
		case ev.Format != parse.MetaKind:
			e.warn("unknown " + ev.Format + " events")
		case wire.IsKnownType(ev.Type) || ev.Type == "" || len(raw) == 0 || raw[0] != '{':
			// A line of a known type the reader could not take: written
			// back, it would be as unreadable.
			e.warn("malformed stream-json lines")
		default:
			if line, ok := e.compactJSON(raw, ev.Checked); ok {
				e.line(line, nil) // a line type of a newer Claude Code
			} else {
				e.warn("malformed stream-json lines")
			}
		}
	default:
		e.warn(lost.Kind(ev))
	}
	return e.err
}

// preInit writes a line that comes before system/init as it came (real
// Claude Code writes SessionStart hook lines first), so that the init
// the source has is written when it arrives rather than a made-up one
// now. It reports whether ev was such a line.
func (e *Encoder) preInit(ev event.Event) bool {
	var raw []byte
	kind := ""
	switch ev := ev.(type) {
	case *event.Notice:
		raw, kind = ev.Raw, ev.Kind
	case *event.Unknown:
		if ev.Format != parse.MetaKind || wire.IsKnownType(ev.Type) {
			return false
		}
		raw = ev.Raw
	default:
		return false
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return false
	}
	typ, subtype, err := wire.UnmarshalKind(raw)
	if err != nil || typ == "" || kind != "" && typ != kind && subtype != kind {
		return false
	}
	line, ok := raw, true
	if kind == "" {
		line = jsontext.CompactValid(raw)
	} else if line, ok = e.sessionLine(raw); !ok {
		return false // a notice of another format's line (a session log's) is not written as it came
	}
	e.line(line, nil)
	return true
}

// newRun starts the second run of concatenated inputs: a main session
// after the first run's. The first run's open messages end and it gets
// its result line (unless it had one); what follows is a run of its own,
// not a subagent of the first.
func (e *Encoder) newRun() {
	if e.inited && !e.resultOut {
		e.closeTurns("")
		e.result(&event.RunEnd{})
	}
	// The buffers, the map and the slice are kept for reuse: a log of
	// many short runs would grow them again for each.
	var reuse *agent
	if e.haveMain {
		reuse = e.mainAgent
	}
	clear(e.agents)
	clear(e.order)
	clear(e.errs)
	e.order, e.lastText, e.sessionJSON, e.reuse = e.order[:0], e.lastText[:0], e.sessionJSON[:0], reuse
	errs := e.errs[:0]
	e.runState = runState{}
	e.errs = errs
}

// endSubagents ends the open messages of the subagents started by tool
// call id, whose result has come: their last lines are written before
// the parent's result, where Claude Code writes them.
func (e *Encoder) endSubagents(id string) {
	for _, a := range e.order {
		if a.parent != nil && *a.parent == id && a.st.InTurn() && !a.gone {
			a.st.EndTurn("", nil)
			e.noteQuiet(a)
		}
	}
}

// maxCalls caps the tool calls without a result an agent remembers, to
// link a subagent to the call that started it, to write is_error as
// Claude Code does and to end a turn once they have their results
// (openset.DefaultMax).
const maxCalls = openset.DefaultMax

// track keeps the agent's client tool calls that have no result yet.
// Beyond maxCalls the oldest is forgotten, warned about once: a subagent
// is no longer linked to it, nor a turn's end held for its result.
func (e *Encoder) track(a *agent, ev event.Event) {
	switch ev := ev.(type) {
	case *event.ToolCall:
		if !ev.Server {
			if a.calls == nil {
				a.calls = openset.New[string](maxCalls)
			}
			a.calls.Remove(ev.ID) // a call id repeated is the newest
			if old, out := a.calls.Add(ev.ID); out {
				e.warn(callsLoss)
				delete(a.names, old)
				a.st.Answered(old) // the Streamer's record of it too
			}
			if a.names == nil {
				a.names = map[string]string{}
			}
			a.names[ev.ID] = ev.Name
			if len(a.names) > 2*maxCalls {
				// Names of calls whose results the Streamer wrote
				// (MCP calls'), which isError does not take.
				for id := range a.names {
					if !a.calls.Has(id) {
						delete(a.names, id)
					}
				}
			}
		}
	case *event.ToolResult:
		if a.calls != nil {
			a.calls.Remove(ev.ID)
		}
	}
}

func (e *Encoder) sessionStart(a *agent, s *event.SessionStart) {
	if a.id != e.main {
		if p := e.parentTool(s); p != "" {
			a.parent = &p
		}
		if a.parent != nil && *a.parent != a.id {
			e.warn("subagent ids (Claude Code names a subagent by the tool call that started it)")
		}
		if s.Model != "" {
			// Written as the model of its messages, where Claude Code
			// has a subagent's.
			a.st.Model = s.Model
		}
		e.init(nil)
		if s.Prompt != "" {
			// The subagent's prompt, as Claude Code echoes it: as Marshal
			// writes struct{Type; Message{Role; Content}; header;
			// SubagentType, TaskDescription string `json:",omitempty"`}.
			b := append(e.lineBuf(len(s.Prompt)), `{"type":"user","message":{"role":"user","content":[`...)
			b = append(appendTextBlock(b, s.Prompt, false), "]}"...)
			b = e.appendHeader(b, a)
			if s.Name != "" {
				b = append(b[:len(b)-1], `,"subagent_type":`...)
				b = append(jsontext.AppendMarshalString(b, s.Name), '}')
			}
			if s.Description != "" {
				b = append(b[:len(b)-1], `,"task_description":`...)
				b = append(jsontext.AppendMarshalString(b, s.Description), '}')
			}
			e.writeLine(b)
		}
		return
	}
	if s.Model != "" {
		a.st.Model = s.Model
	}
	e.init(s)
}

// parentTool returns the id of the tool call that started subagent s: its
// ParentToolID, or else (the envelope names none) the most recent call of
// the parent agent that has no result yet, as the renderer links them.
func (e *Encoder) parentTool(s *event.SessionStart) string {
	if s.ParentToolID != "" {
		return s.ParentToolID
	}
	id := s.ParentAgent
	if id == "" {
		id = e.main
	}
	if p := e.agent(id); p != nil && p.calls != nil {
		last, _ := p.calls.Newest()
		return last
	}
	return ""
}

// init writes the system/init line, once, before anything else: the
// source's own when it was Claude Code's, else one made of what is known.
func (e *Encoder) init(s *event.SessionStart) {
	if e.inited {
		return
	}
	e.inited = true
	if s != nil && s.MetaKind == parse.MetaKind && len(s.Meta) > 0 {
		var in wire.Init
		if e.inits.Unmarshal(s.Meta, &in) == nil && in.SessionID != "" {
			e.setSession(in.SessionID)
			line := s.Meta
			if !s.Checked.Compact(line) {
				line = jsontext.CompactValid(line)
			}
			e.line(line, nil)
			return
		}
	}
	// Every key a consumer of Claude Code's init may rely on, but of the
	// run only what the source says: cwd and model stay "" when it names
	// none (never a made-up "/" or "unknown"); the other keys describe
	// Claude Code's own configuration, which agentstream states as empty
	// defaults under its own claude_code_version.
	// (appendInit writes the other keys.)
	cwd, model, tools := "", "", []string{}
	session := ""
	if s != nil {
		session = s.SessionID
		if session == "" {
			session = s.Agent
		}
		cwd, model = s.Cwd, s.Model
		if s.Tools != nil {
			tools = s.Tools
		}
	}
	if session == "" {
		session = e.main
	}
	e.setSession(session)
	// A source with no session id gets "": the unknown form, never a
	// made-up id.
	e.writeLine(e.appendInit(e.lineBuf(0), cwd, model, tools))
}

func (e *Encoder) streamEvent(a *agent, data []byte) error {
	if !e.cfg.Partial || a.parent != nil {
		// Claude Code forwards no partial stream of a subagent.
		return nil
	}
	// As Marshal writes struct{Type; Event json.RawMessage; header}: data
	// is compact JSON.
	b := append(e.lineBuf(len(data)), `{"type":`...)
	b = jsontext.AppendMarshalString(b, wire.TypeStreamEvent)
	b = append(b, `,"event":`...)
	b = append(b, data...)
	e.writeLine(e.appendHeader(b, a))
	return e.err
}

func (e *Encoder) snapshot(a *agent, m messages.MessageInfo, block []byte) error {
	if a.id == e.main {
		if text := a.st.BlockText(); text != nil {
			e.lastText = append(e.lastText[:0], text...)
		} else if !a.st.BlockNotText() {
			e.noteText(block)
		}
	}
	if len(block) <= e.bigBlock {
		e.writeLine(append(e.appendAssistant(e.lineBuf(len(block)), a, m, block), '}'))
		return e.err
	}
	// A large block is written from where it is, not copied into the
	// line: the line, with no content, written around it.
	b := append(e.appendAssistant(e.out[:0], a, m, nil), '}', '\n')
	const content = `"content":[`
	i := bytes.Index(b, []byte(content)) + len(content) // the message's own key: in a string its quotes are escaped
	for _, part := range [][]byte{b[:i], block, b[i:]} {
		if e.err == nil {
			_, e.err = e.w.Write(part)
		}
	}
	e.out = b
	if cap(e.out) > 64<<10 {
		e.out = nil
	}
	return e.err
}

// defaultBigBlock is the size from which a block is not copied into
// its line.
const defaultBigBlock = 16 << 10

// noteText keeps the text of block, a block of the main agent, when it
// is a text block: the result line's text when the source gives none. A
// block of the shape the Streamer writes ({"type":"text","text":...})
// has its text kept as JSON, decoded only when a result needs it. A
// block whose type, first, is another is passed over without decoding
// it.
func (e *Encoder) noteText(block []byte) {
	r := &e.jr
	r.Reset(block)
	if r.Object() {
		if k, _ := r.Key(); string(k) == "type" {
			switch typ := r.Str(); {
			case string(typ) == anthropic.BlockText:
				if k, _ := r.Key(); string(k) == "text" && r.Peek() == '"' {
					text := r.Skip()
					if _, more := r.Key(); !more && r.End() {
						e.lastText = append(e.lastText[:0], text...)
						return
					}
				}
			case !r.Failed() && noTypeKey(r):
				return // a thinking block, a tool call, ...
			}
		}
	}
	var b anthropic.Block
	if anthropic.UnmarshalBlock(block, &b) == nil && b.Type == anthropic.BlockText && b.Text != nil {
		e.lastText = jsontext.AppendMarshalString(e.lastText[:0], *b.Text)
	}
}

// noTypeKey reads the rest of the object r is in, and reports whether
// it is valid and has no other key that encoding/json would decode as
// its type (the last of duplicate keys wins).
func noTypeKey(r *jsontext.Reader) bool {
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		if bytes.EqualFold(key, []byte("type")) {
			return false
		}
		r.Skip()
	}
	return r.End()
}

// toolResult writes a tool result as Claude Code does: a user line, as
// Marshal writes struct{Type; Message{Role; Content []block}; header;
// ToolUseResult json.RawMessage `json:",omitempty"`}, whose block is
// struct{ToolUseID, Type string; Content json.RawMessage; IsError *bool
// `json:",omitempty"`}.
func (e *Encoder) toolResult(a *agent, ev *event.ToolResult) {
	if ev.ExitCode != nil || ev.Status != "" {
		e.warn("tool result exit codes and status")
	}
	b := append(e.lineBuf(0), `{"type":"user","message":{"role":"user","content":[{"tool_use_id":`...)
	b = jsontext.AppendMarshalString(b, ev.ID)
	b = append(b, `,"type":"tool_result","content":`...)
	b = e.appendResultContent(b, ev.Content)
	if isErr := isError(a, ev); isErr != nil {
		b = append(b, `,"is_error":`...)
		b = strconv.AppendBool(b, *isErr)
	}
	b = append(b, "}]}"...)
	b = e.appendHeader(b, a)
	if len(ev.Structured) > 0 {
		if structured, ok := e.compactJSON(ev.Structured, ev.Checked); ok {
			b = append(b[:len(b)-1], `,"tool_use_result":`...)
			b = append(append(b, structured...), '}')
		}
	}
	e.writeLine(b)
}

// appendResultContent appends the content of a tool result: a string
// when it is one text, else its parts as blocks, each as Marshal writes
// struct{Type string; Text string `json:",omitempty"`; Source
// *imageSource `json:",omitempty"`}.
func (e *Encoder) appendResultContent(b []byte, content []event.Part) []byte {
	if len(content) == 1 && content[0].Type == "text" {
		return jsontext.AppendMarshalString(b, content[0].Text)
	}
	b = append(b, '[')
	for i, p := range content {
		if i > 0 {
			b = append(b, ',')
		}
		switch {
		case p.Type == "text":
			b = appendTextBlock(b, p.Text, true)
		case p.Type == "image":
			// A URL source carries the media type too, which the
			// reader takes back; the API's own url sources have none.
			b = append(b, `{"type":"image","source":`...)
			if rest, ok := strings.CutPrefix(p.Source, "data:"); ok {
				if mt, data, ok := strings.Cut(rest, ";base64,"); ok {
					if mt == "" {
						mt = p.MediaType
					}
					b = append(appendImageSource(b, "base64", mt, data, ""), '}')
					continue
				}
			}
			b = append(appendImageSource(b, "url", p.MediaType, "", p.Source), '}')
		default:
			if block, ok := e.wholeBlock(p.Text); ok {
				// A block kept whole by the decoder (document, search_result, ...).
				b = append(b, block...)
			} else {
				b = appendTextBlock(b, p.Text, true)
			}
		}
	}
	return append(b, ']')
}

// wholeBlock returns text compacted when it is a JSON object: a block
// the decoder kept whole.
func (e *Encoder) wholeBlock(text string) ([]byte, bool) {
	if !strings.HasPrefix(strings.TrimSpace(text), "{") {
		return nil, false
	}
	return e.compactJSON([]byte(text), event.Checked{})
}

// appendImageSource appends an image source, as Marshal writes
// struct{Type string; MediaType, Data, URL string `json:",omitempty"`}.
func appendImageSource(b []byte, typ, mediaType, data, url string) []byte {
	b = append(b, `{"type":`...)
	b = jsontext.AppendMarshalString(b, typ)
	for _, f := range [...]struct{ key, value string }{{"media_type", mediaType}, {"data", data}, {"url", url}} {
		if f.value != "" {
			b = append(b, `,"`...)
			b = append(b, f.key...)
			b = append(b, `":`...)
			b = jsontext.AppendMarshalString(b, f.value)
		}
	}
	return append(b, '}')
}

// explicitFalseTools are the tools whose results Claude Code writes
// with "is_error": false; it leaves the key out of the others' (Read,
// Agent, ...) unless they failed.
var explicitFalseTools = []string{"Bash"}

// isError returns a result's is_error as Claude Code writes it.
func isError(a *agent, ev *event.ToolResult) *bool {
	name := ev.Name
	if n, ok := a.names[ev.ID]; ok && n != "" {
		name = n
	}
	delete(a.names, ev.ID)
	if !ev.IsError && !slices.Contains(explicitFalseTools, name) {
		return nil
	}
	v := ev.IsError
	return &v
}

// TurnFailedErrorType is the error type of the synthetic error line
// written for a failed turn (event.TurnEnd.Error).
const TurnFailedErrorType = "turn_failed"

// unknownErrorType is the error type of an error whose source names none.
const unknownErrorType = "unknown"

// synthetic is the start of an error line (see errorLine), an assistant
// line of one of Claude Code's synthetic messages as appendAssistant
// writes it, in the pieces around the message's id and its block: made
// once by messages.AppendMessage. Claude Code's synthetic messages count
// no tokens: usage 0 is what they say, not a made-up value.
var synthetic = func() (s struct{ head, mid, tail string }) {
	// Markers that nothing else in the message can hold, each once.
	const id, block = "@id@", `{"@block@":0}`
	noUsage := event.Usage{Has: event.HasTokens | event.HasCacheRead | event.HasCacheWrite}
	m := string(messages.AppendMessage(nil, id, wire.SyntheticModel, &noUsage, []byte(block)))
	if strings.Count(m, id) != 1 || strings.Count(m, block) != 1 {
		panic("claude: the synthetic message's markers are not found once each: " + m)
	}
	i, j := strings.Index(m, id), strings.Index(m, block)
	s.head, s.mid, s.tail = `{"type":"`+wire.TypeAssistant+`","message":`+m[:i], m[i+len(id):j], m[j+len(block):]
	return s
}()

// maxErrors caps the error messages a made result line lists.
const maxErrors = 100

// errorLine writes an error as Claude Code does: a synthetic assistant
// message with the error's text and a top-level error.
func (e *Encoder) errorLine(a *agent, ev *event.Error) {
	a.st.EndTurn("", nil)
	errType := ev.Type
	if errType == "" {
		errType = unknownErrorType
	}
	text := ev.Message
	if text == "" {
		text = "API Error: " + errType
	}
	if a.id == e.main {
		e.failed = e.failed || ev.Fatal
		if len(e.errs) < maxErrors && !slices.Contains(e.errs, text) {
			e.errs = append(e.errs, text)
		}
	}
	// As appendTextBlock writes it (text is not empty).
	e.block = append(e.errTexts.append(append(e.block[:0], `{"type":"text","text":`...), text), '}')
	// The message's id is a uuid made as the lines' are.
	b := e.appendUUID(append(e.lineBuf(len(e.block)), synthetic.head...))
	b = append(append(append(b, synthetic.mid...), e.block...), synthetic.tail...)
	b = e.appendHeader(b, a)
	b = append(b[:len(b)-1], `,"error":`...)
	b = appendName(b, errType)
	e.writeLine(append(b, '}'))
}

// noteUsage reports the usage counts stream-json has no field for.
func (e *Encoder) noteUsage(ev event.Event) {
	if lost.ReasoningTokens(ev) {
		e.warn("reasoning token counts")
	}
}

// namesSession reports whether the object raw has a session_id member of
// its own (not one nested deeper), as every stream-json line has: as
// json.Unmarshal into struct{SessionID *string `json:"session_id"`}
// would find it set. Its notices are common in Claude Code's logs: read
// by the encoder's Reader, encoding/json the judge of what it refuses
// (a key with capitals, escapes or other bytes that may match
// session_id only case-insensitively, bad JSON). compact reports, of a
// line that names it, whether the Reader found raw compact (Spaced), as
// json.Compact gives it back: false when encoding/json judged the line.
func (e *Encoder) namesSession(raw []byte) (named, compact bool) {
	if !bytes.Contains(raw, []byte(`"session_id"`)) {
		return false, false
	}
	r, set := &e.jr, false
	r.Reset(raw)
	for ok := r.Object(); ok; {
		var k []byte
		if k, ok = r.KeyFold(); !ok {
			break
		}
		switch {
		case string(k) != "session_id":
			r.SkipUnknown(k, isSessionID)
		case r.Peek() == '"':
			set = r.Skip() != nil
		default:
			// null leaves the pointer nil; another type is an error
			set = false
			if !r.Null() {
				r.Fail()
			}
		}
	}
	if r.End() {
		return set, set && !r.Spaced()
	}
	var line struct {
		SessionID *string `json:"session_id"`
	}
	return json.Unmarshal(raw, &line) == nil && line.SessionID != nil, false
}

// sessionLine returns raw, a line that names its session_id (see
// namesSession), compacted as json.Compact writes it, and whether it
// names it.
func (e *Encoder) sessionLine(raw []byte) ([]byte, bool) {
	named, compact := e.namesSession(raw)
	if named && !compact {
		raw = jsontext.CompactValid(raw)
	}
	return raw, named
}

func isSessionID(key string) bool { return key == "session_id" }

// notice writes ev: as its source line when that is a stream-json line of
// its kind (every stream-json line names its session_id; a session log's
// lines, sessionId, are another format's), else as an informational
// system line.
func (e *Encoder) notice(a *agent, ev *event.Notice) {
	if typ, subtype, err := wire.UnmarshalKind(ev.Raw); err == nil && typ != "" && (typ == ev.Kind || subtype == ev.Kind) {
		if line, ok := e.sessionLine(ev.Raw); ok {
			e.line(line, nil)
			return
		}
	}
	// As Marshal writes struct{Type, Subtype, Content, Level string; header}.
	b := append(e.lineBuf(len(ev.Message)), `{"type":"`+wire.TypeSystem+`","subtype":"`+wire.SubtypeInformational+`","content":`...)
	b = jsontext.AppendMarshalString(b, ev.Kind+": "+ev.Message)
	b = append(b, `,"level":"info"`...)
	e.writeLine(e.appendHeader(b, a))
}

func (e *Encoder) runEnd(a *agent, ev *event.RunEnd) {
	if a.id != e.main {
		a.st.EndTurn("", nil)
		e.warn("the run summary of a subagent")
		return
	}
	e.closeTurns(ev.StopReason)
	if ev.MetaKind == parse.MetaKind {
		if line, ok := e.compactJSON(ev.Meta, ev.Checked); ok {
			e.line(line, nil)
			e.resultOut = true
			return
		}
	}
	e.result(ev)
}

// closeTurns ends the messages still open, the main agent's with stop.
func (e *Encoder) closeTurns(stop string) {
	for a := range e.agentsInOrder() {
		if !a.st.InTurn() {
			continue
		}
		s := ""
		if a.id == e.main {
			s = stop
			// "" is unknown: null, never a made-up end_turn or tool_use
		}
		a.st.EndTurn(s, nil)
		if a.id == e.main {
			e.lastStop = s
		}
	}
}

// agentsInOrder yields the agents, the main one first, then the others
// in the order they came.
func (e *Encoder) agentsInOrder() iter.Seq[*agent] {
	return func(yield func(*agent) bool) {
		if m := e.mainAgent; m != nil && !yield(m) {
			return
		}
		for _, a := range e.order {
			if a.id != e.main && !a.gone && !yield(a) {
				return
			}
		}
	}
}

// result writes a result line made of what is known.
func (e *Encoder) result(ev *event.RunEnd) {
	splice := false
	r := wire.Result{
		Type: wire.TypeResult, Subtype: wire.SubtypeSuccess, IsError: ev.IsError || e.failed,
		DurationMS: ev.DurationMS, NumTurns: ev.Turns, SessionID: e.session, TotalCostUSD: ev.CostUSD,
		Errors: ev.Errors, // ModelUsage and PermissionDenials empty: see appendResult
	}
	if r.IsError && len(r.Errors) == 0 && ev.Result == "" {
		// The source gave no account of the failure: the errors seen.
		// (A failed run with a result text is how Claude Code reports
		// an API error: subtype success, is_error, the error as result.)
		r.Errors = e.errs
	}
	if m := e.mainAgent; r.NumTurns == 0 && m != nil {
		r.NumTurns = m.st.Messages()
	}
	e.rs.stop = ev.StopReason
	if e.rs.stop == "" {
		e.rs.stop = e.lastStop
	}
	if e.rs.stop != "" {
		r.StopReason = &e.rs.stop // else null: the source did not say
	}
	if r.IsError && len(r.Errors) > 0 {
		r.Subtype = wire.SubtypeErrorDuring
	} else {
		res := ev.Result
		switch {
		case res == "" && len(e.lastText) > 0:
			if e.rawBlocks && marshalled(e.lastText) || !e.rawBlocks && marshalledEscapes(e.lastText) {
				splice = true // written as it is, below
			} else {
				res = jsonString(e.lastText)
			}
		case res != "" && len(e.lastText) >= len(res)+2 && (!e.rawBlocks || marshalled(e.lastText)) && marshalsTo(res, e.lastText):
			// The source's result is the last text, already escaped:
			// compared with it (memequal between escapes) rather than
			// escaped again. The envelopes' meta_final repeats the
			// answer, so this is the usual case.
			splice = true
		}
		e.rs.res = res
		r.Result = &e.rs.res
	}
	// The run's usage: the source's, else the sum of the main agent's
	// turns (as Claude Code's result sums its messages), else unknown
	// (null counts), never a made-up 0.
	u := ev.Usage
	if u == nil && e.turnCounted {
		u = &e.turnUsage
	}
	var uuid [36]byte
	var text []byte
	if splice {
		text = e.lastText // already JSON as Marshal writes it
	}
	var errs []byte
	if len(r.Errors) > 0 {
		e.errsJSON = e.errTexts.appendStrings(e.errsJSON[:0], r.Errors)
		errs = e.errsJSON
	}
	b, ok := appendResult(e.lineBuf(len(text)), &r, u, text, e.appendUUID(uuid[:0]), e.sessionText(), errs)
	if !ok {
		_, err := messages.Marshal(r.TotalCostUSD) // the error encoding/json gives
		e.line(nil, err)
	} else {
		e.writeLine(b)
	}
	e.resultOut = true
}

// Close ends the stream: the messages still open are ended and, unless
// the source had one, a result line with what is known is written. When a
// block is still open (the input was cut off), it writes no result, as
// Claude Code killed mid-run would not, and reports the truncation.
// Cut ends a stream whose input was cut off (event.Cutter): what arrived
// of open blocks is written marked aborted, as by Close, and no result
// line is written.
func (e *Encoder) Cut() error {
	if e.err != nil {
		return e.err
	}
	e.writePending()
	if e.err != nil {
		return e.err
	}
	return fmt.Errorf("claude: %w: the input was cut off, no result written", event.ErrTruncated)
}

// writePending writes what arrived of the blocks left open when the input
// was cut off, as an assistant line marked "aborted": true, for the
// agents whose stream events do not show it already (with --partial the
// main agent's deltas are written as they came, and the block's missing
// content_block_stop says it was cut).
func (e *Encoder) writePending() {
	for a := range e.agentsInOrder() {
		if a.st.Event != nil {
			continue
		}
		if m, block, ok := a.st.Pending(); ok {
			b := e.appendAssistant(e.lineBuf(len(block)), a, m, block)
			e.writeLine(append(b, `,"aborted":true}`...))
		}
	}
}

// MarksAbandoned: an abandoned message is left without its stop (--partial) or not written (convert.AbandonMarker).
func (*Encoder) MarksAbandoned() bool { return true }

func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	open := 0
	for a := range e.agentsInOrder() {
		if a.st.Open() {
			open++
		}
	}
	if open > 0 {
		// What arrived of the open blocks, marked as Claude Code marks
		// a message cut short by an interrupt.
		e.writePending()
		if e.err != nil {
			return e.err
		}
		return fmt.Errorf("claude: %w: %d block(s) left open, no result written", event.ErrTruncated, open)
	}
	if e.resultOut {
		return e.err
	}
	e.init(nil)
	e.closeTurns("")
	e.result(&event.RunEnd{})
	return e.err
}

// marshalled reports whether s, a valid JSON string, is what Marshal
// writes for the text it decodes to: valid UTF-8 with no raw U+2028 or
// U+2029, and every escape the one Marshal writes for its character.
func marshalled(s []byte) bool {
	if !utf8.Valid(s) || bytes.Contains(s, []byte("\u2028")) || bytes.Contains(s, []byte("\u2029")) {
		return false
	}
	return marshalledEscapes(s)
}

// marshalledEscapes is marshalled for s known to be written by
// jsontext.AppendMarshalString, valid UTF-8 with no raw U+2028 or
// U+2029 (only its escapes are checked: it writes an invalid byte as
// \ufffd, which Marshal writes as the character). This spares a UTF-8
// check of the last text of every run.
func marshalledEscapes(s []byte) bool {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return false
	}
	s = s[1 : len(s)-1]
	for i := bytes.IndexByte(s, '\\'); i >= 0; i = bytes.IndexByte(s, '\\') {
		if i+1 >= len(s) {
			return false
		}
		switch s[i+1] {
		case '"', '\\', 'n', 'r', 't', 'b', 'f':
			s = s[i+2:]
			continue
		case 'u':
		default:
			return false
		}
		if i+6 > len(s) {
			return false
		}
		u := string(s[i : i+6])
		switch {
		case u == `\u2028` || u == `\u2029`:
		case strings.HasPrefix(u, `\u00`) && u < `\u0020` && isLowerHex(u[4]) && isLowerHex(u[5]) &&
			u != `\u0008` && u != `\u0009` && u != `\u000a` && u != `\u000c` && u != `\u000d`:
		default:
			return false
		}
		s = s[i+6:]
	}
	return true
}

// marshalsTo reports whether jsontext.AppendMarshalString writes s as q,
// a JSON string whose bytes between escapes are written as they are by
// AppendMarshalString (valid UTF-8 with no '"', control character, U+2028
// or U+2029), as it writes them itself or as marshalled accepts: the runs
// between escapes are compared, and each escape checked against the
// character of s it stands for.
func marshalsTo(s string, q []byte) bool {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return false
	}
	q = q[1 : len(q)-1]
	for {
		i := bytes.IndexByte(q, '\\')
		if i < 0 {
			return s == string(q)
		}
		if len(s) < i || s[:i] != string(q[:i]) || i+1 >= len(q) {
			return false
		}
		s, q = s[i:], q[i:]
		var c byte // the byte of s that q's short escape stands for
		switch q[1] {
		case '"', '\\':
			c = q[1]
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'u':
			n := unicodeEscape(s, q)
			if n == 0 {
				return false
			}
			s, q = s[n:], q[6:]
			continue
		default:
			return false
		}
		if s == "" || s[0] != c {
			return false
		}
		s, q = s[1:], q[2:]
	}
}

// unicodeEscape returns how many bytes of s the \u escape that starts q
// stands for, as AppendMarshalString writes it, or 0 if it does not write
// the start of s so.
func unicodeEscape(s string, q []byte) int {
	if len(q) < 6 || s == "" {
		return 0
	}
	switch u := string(q[:6]); {
	case u == `\u2028` && strings.HasPrefix(s, "\u2028"), u == `\u2029` && strings.HasPrefix(s, "\u2029"):
		return 3
	case u == `\ufffd`:
		if r, n := utf8.DecodeRuneInString(s); r == utf8.RuneError && n == 1 {
			return 1 // an invalid byte
		}
	case strings.HasPrefix(u, `\u00`) && isLowerHex(u[4]) && isLowerHex(u[5]):
		const digits = "0123456789abcdef"
		c := s[0]
		if c < 0x20 && c != '\b' && c != '\t' && c != '\n' && c != '\f' && c != '\r' && u[4] == digits[c>>4] && u[5] == digits[c&0xf] {
			return 1
		}
	}
	return 0
}

func isLowerHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

// jsonString decodes a JSON string as json.Unmarshal does, in one pass
// when jsontext.Reader can.
func jsonString(b []byte) string {
	var r jsontext.Reader
	r.Reset(b)
	if s := r.String(); r.End() {
		return s
	}
	var s string
	json.Unmarshal(b, &s)
	return s
}
