package render

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/textlist"
	"github.com/agentstream/agentstream/usage"
)

// Defaults of Options.
const (
	DefaultMaxOutputLines = 10
	DefaultWidth          = 100
)

// Options configure a Transcript.
type Options struct {
	// Live writes text and thinking as their deltas arrive, and every
	// other block as soon as it is complete, in stream order. Otherwise
	// whole blocks are written, subagents nested under the tool call
	// that started them (see docs/assemble.md).
	Live bool
	// Agent filters by agent: "" or "all" shows every agent, "main" the
	// main agent, anything else the agent with that id (or id prefix).
	Agent string
	// MaxOutputLines is how many lines of a tool's output are shown, the
	// first and last halves (DefaultMaxOutputLines when <= 0); Full shows
	// every line, and every line whole.
	MaxOutputLines int
	Full           bool
	// NoThinking hides thinking blocks.
	NoThinking bool
	// Width is the width lines are cut to (DefaultWidth when <= 0).
	Width int
	// Styles colour the text view; nil is no colour. Markdown is never
	// coloured.
	Styles *Styles
	// Markdown writes Markdown instead of terminal text.
	Markdown bool
	// MaxBlockBytes caps a text or thinking block held whole before it
	// is written (event.DefaultMaxBytes when <= 0).
	MaxBlockBytes int
	// Prices prices the run in its summary line when the stream reports
	// no cost of its own; nil leaves the cost out.
	Prices *usage.Prices
	// Verbose shows the bookkeeping lines (Bookkeeping) too.
	Verbose bool
	// TurnEndsRun says that the format has no run end (Codex exec, a raw
	// API response): an agent whose last turn ended, with nothing after
	// it, has finished, and its summary says so rather than "no run end".
	TurnEndsRun bool
}

// Transcript writes an event stream as a transcript for people to read:
// text and thinking, tool calls shown by what they do with their results
// under them, subagents nested under the call that started them, notices
// and a summary of the run. Feed it with Event and finish with Close.
//
// Memory: in live mode a Transcript keeps only bookkeeping: for each of the
// last MaxAgents agents seen, its open block state and notices, and its
// calls still waiting for a result (MaxOpenCalls in all), and the last
// maxMessageIDs message ids whose turns it counted. Otherwise it also holds
// each open text or thinking block, and everything an agent writes after a
// tool call whose result has not arrived yet, including the whole output of
// the subagents that call started: memory is bounded by what open calls
// and their subagents have produced.
type Transcript struct {
	o  Options
	st *Styles
	lw *lineWriter

	agents map[string]*agent // the agents kept (MaxAgents)
	// idle and busy hold the agents kept, the one seen longest ago
	// first: those with nothing open (a block, a call, a text run, a
	// notice or a queue) and the others.
	idle, busy *openset.Set[*agent]
	last       *agent // the agent of the event before
	filter     *AgentFilter
	// blocks decides where each text and thinking block starts and ends.
	blocks *assemble.Lifecycle[*stream]
	// order: the agents, in order of appearance (and, until pruned,
	// some let go of); roots: those not nested under a call, and those
	// let go of whose queue waits for a call.
	order, roots []*agent
	main         *agent
	// mainSet: main was chosen by a SessionStart, not as the first agent seen.
	mainSet bool
	calls   map[string]*call
	waiting int // calls queued (piped mode) and not written yet
	// live: calls waiting for their result (live mode), oldest first.
	live   *openset.Set[*call]
	capped bool // letting go of a call was reported
	// lost: letting go of an agent was reported.
	lost bool
	// counted: the message ids whose turn was counted, by agent.
	counted *openset.Set[messageKey]
	forgot  error // that report, returned by the next Event
	ended   bool  // a run end was seen
	mdNotes int   // Markdown footnotes so far: their ids are document-wide
	// usage counts tokens as `agentstream usage` does, for the summary.
	usage *usage.Counter
}

type agent struct {
	id, name, desc string
	session, cwd   string
	parent         *agent
	depth          int

	// Piped mode: what the agent wrote that waits behind an open call.
	queue []*qitem
	// released: the agent's call was written; what it writes now goes to
	// its parent's queue.
	released bool

	held    []*event.Notice // notices waiting for the agent's next piece
	gone    bool            // let go of (MaxAgents)
	busy    bool            // in Transcript.busy, else in idle
	nopen   int             // text and thinking blocks open
	pending []*call         // calls without a result yet, in order
	// run is the agent's open text run: consecutive text blocks of
	// one turn (the API splits cited text into many), shown as one
	// paragraph with their footnotes under it.
	run *textRun

	turns    int
	lastStop string
	// turnEnded: the agent's last turn ended and nothing of another
	// came after it; turnErr is why it failed.
	turnEnded bool
	turnErr   string
}

// label names the agent in the line that introduces its output.
func (a *agent) label() string {
	id := a.id
	switch {
	case isUUID(id):
		id = id[:8]
	case utf8.RuneCountInString(id) > 16:
		id = string([]rune(id)[:16]) + "…"
	}
	if id == "" {
		id = "(no agent id)"
	}
	var parts []string
	if a.name != "" {
		parts = append(parts, a.name)
	}
	if a.desc != "" {
		parts = append(parts, oneLine(a.desc, 80))
	}
	if a.parent == nil {
		return "agent " + id + strings.Join(append([]string{""}, parts...), " · ")
	}
	if len(parts) == 0 {
		return "subagent " + id
	}
	return "subagent " + strings.Join(parts, ": ") + " (" + id + ")"
}

// descendsFrom reports whether a is b or one of b's subagents, at any depth.
func (a *agent) descendsFrom(b *agent) bool {
	for ; a != nil; a = a.parent {
		if a == b {
			return true
		}
	}
	return false
}

type textRun struct {
	text      strings.Builder // piped: the blocks' text, with footnote marks
	notes     []string        // footnote lines
	n         int             // footnotes so far
	owner     *stream         // live: the block whose line the run goes on
	truncated bool
	last      byte // the last byte of text so far; 0 when none
	cited     bool // citations came after the last block
}

// joins reports whether a text block starting with next continues the run
// on the same line. The API splits cited text into blocks at the citation
// boundaries ("According to the sources, " + "the grass is green." +
// ...), so a block after citations, or one meeting the run at whitespace
// or punctuation, continues it; otherwise the block is a new paragraph.
func (r *textRun) joins(next string) bool {
	switch {
	case r.last == 0:
		return true
	case r.last == '\n':
		return false
	case r.cited, r.last == ' ', r.last == '\t':
		return true
	}
	return next != "" && strings.IndexByte(" \t.,;:!?)]}'\"", next[0]) >= 0
}

type stream struct {
	kind    event.BlockKind
	a       *agent
	text    strings.Builder
	last    byte // the last byte of text
	over    bool
	started bool // live: something was written
	hidden  bool
}

type qitem struct {
	p    *piece
	call *call
}

type call struct {
	ev       *event.ToolCall
	agent    *agent
	view     callView
	head     *piece
	result   *piece
	done     bool
	shown    bool
	children []*agent
}

// NewTranscript returns a transcript writer on w.
func NewTranscript(w io.Writer, o Options) *Transcript {
	if o.MaxOutputLines <= 0 {
		o.MaxOutputLines = DefaultMaxOutputLines
	}
	if o.Width <= 0 {
		o.Width = DefaultWidth
	}
	if o.MaxBlockBytes <= 0 {
		o.MaxBlockBytes = event.DefaultMaxBytes
	}
	st := o.Styles
	if st == nil || o.Markdown {
		st = NewStyles(false)
	}
	t := &Transcript{
		o: o, st: st, agents: map[string]*agent{}, calls: map[string]*call{},
		filter: NewAgentFilter(o.Agent), usage: usage.NewCounter(),
		idle: openset.New[*agent](2 * MaxAgents), busy: openset.New[*agent](2 * MaxAgents),
		live:    openset.New[*call](MaxOpenCalls),
		counted: openset.New[messageKey](maxMessageIDs),
	}
	t.blocks = assemble.NewLifecycle(assemble.Hooks[*stream]{
		Open: func(id string, k event.BlockKind) *stream {
			a := t.agents[id]
			a.nopen++
			return &stream{kind: k, a: a, hidden: k == event.Thinking && t.o.NoThinking}
		},
		End:           func(s *stream, e *event.BlockEnd) { t.endBlock(s.a, s, e == nil) },
		ThinkingFirst: true,
	})
	t.lw = &lineWriter{w: w, md: o.Markdown, st: st, show: t.show, depth: t.depth, main: func(a *agent) bool { return a == t.main }}
	return t
}

func (t *Transcript) show(a *agent) bool { return t.filter.Shows(a.id) }

// Agents is the transcript's agent filter (Options.Agent): after the
// input, it tells whether the filter matched any agent.
func (t *Transcript) Agents() *AgentFilter { return t.filter }

func (t *Transcript) depth(a *agent) int {
	switch t.o.Agent {
	case "", "all":
		return a.depth
	}
	return 0
}

// agent returns the agent id, which becomes the one seen last; past
// MaxAgents, another is let go of (see MaxAgents).
func (t *Transcript) agent(id string) *agent {
	if a := t.last; a != nil && a.id == id {
		return a // most events are of the agent of the event before
	}
	a := t.agents[id]
	if a == nil {
		a = &agent{id: id}
		t.agents[id] = a
		t.order = append(t.order, a)
		t.roots = append(t.roots, a)
		if t.main == nil {
			t.main = a
		}
	}
	t.last = a
	t.keep(a)
	for t.idle.Len()+t.busy.Len() > MaxAgents+1 {
		old := t.oldest(t.idle, a)
		if old == nil {
			old = t.oldest(t.busy, a)
		}
		if old == nil {
			break
		}
		t.letGoAgent(old)
	}
	return a
}

// oldest returns the agent of set seen longest ago, other than the main
// agent and a (the agent seen now), or nil.
func (t *Transcript) oldest(set *openset.Set[*agent], a *agent) *agent {
	o, _ := set.Oldest()
	if o == t.main && set.Len() > 1 {
		t.keep(o) // the main agent stays: the next oldest
		o, _ = set.Oldest()
	}
	if o == a || o == t.main {
		return nil
	}
	return o
}

// keep makes a the agent seen last, in the set its state says.
func (t *Transcript) keep(a *agent) {
	t.idle.Remove(a)
	t.busy.Remove(a)
	a.busy = a.nopen > 0 || a.run != nil || len(a.pending) > 0 || len(a.held) > 0 || len(a.queue) > 0
	if a.busy {
		t.busy.Add(a)
	} else {
		t.idle.Add(a)
	}
}

// MaxAgents caps the agents a Transcript keeps, besides the main agent.
// Past it, the agent seen longest ago with nothing open (no block, call,
// text or notice waiting) is let go of, else the one seen longest ago, as
// the end of the stream would let go of it: its open blocks end there,
// marked truncated, its text and notices are written, and its calls
// waiting for a result get no "no result in the stream" line (a result
// that comes later is written where it comes). An event of that agent
// later starts it afresh: its name, its place under a call and its turns
// forgotten. Reported once, wrapping ErrTooManyAgents.
const MaxAgents = openset.DefaultMax

// ErrTooManyAgents is wrapped by the error Event returns the first time
// the transcript lets go of an agent (MaxAgents).
var ErrTooManyAgents = errors.New("too many agents")

// maxMessageIDs caps the message ids whose turn the transcript counted
// (a message split over several lines ends its turn on each): a window,
// not an error; a message id seen again after this many others counts
// again.
const maxMessageIDs = 4 * openset.DefaultMax

// maxHeldNotices caps the notices an agent holds until its next piece:
// past it they are written.
const maxHeldNotices = openset.DefaultMax

type messageKey struct{ agent, id string }

// letGoAgent writes what agent a holds and forgets it.
func (t *Transcript) letGoAgent(a *agent) {
	t.blocks.CutAgent(a.id)
	t.endRun(a)
	t.flushNotices(a)
	for _, c := range a.pending {
		if t.o.Live {
			t.live.Remove(c)
			if t.calls[c.ev.ID] == c {
				delete(t.calls, c.ev.ID)
			}
		}
	}
	a.pending = nil
	a.gone = true
	delete(t.agents, a.id)
	t.idle.Remove(a)
	t.busy.Remove(a)
	if t.last == a {
		t.last = nil
	}
	// The lists keep agents let go of until they are twice the agents
	// kept: pruned then, in time linear in the agents let go of.
	if len(t.order) > 2*MaxAgents+16 {
		t.order = slices.DeleteFunc(t.order, func(x *agent) bool { return x.gone })
	}
	if len(t.roots) > 2*MaxAgents+16 {
		t.roots = slices.DeleteFunc(t.roots, func(r *agent) bool { return r.gone && len(r.queue) == 0 })
	}
	if !t.lost {
		t.lost = true
		t.forgot = cmp.Or(t.forgot, fmt.Errorf("%w: more than %d; let go of %q, seen longest ago: what it had open ends there, marked truncated (later ones are not reported)", ErrTooManyAgents, MaxAgents, a.id))
	}
}

// drainRoots drains every root agent's queue (see drain), and forgets
// the agents let go of whose queue is written.
func (t *Transcript) drainRoots(force bool) {
	for _, r := range t.roots {
		t.drain(r, force)
	}
	t.roots = slices.DeleteFunc(t.roots, func(r *agent) bool { return r.gone && len(r.queue) == 0 })
}

// Event writes what ev adds to the transcript. Its error is a write error
// or assemble.ErrBlockTooLarge (the block is cut and the transcript goes on).
func (t *Transcript) Event(ev event.Event) error {
	t.filter.Event(ev)
	t.usage.Add(ev)
	a := t.agent(ev.AgentID())
	if a.run != nil && !continuesRun(ev) {
		t.endRun(a)
	}
	var err error
	switch ev.(type) {
	case *event.TurnStart, *event.BlockStart, *event.Delta, *event.ToolCall, *event.ToolResult:
		a.turnEnded = false
	case *event.TurnEnd:
		a.turnEnded = true
	}
	s, _ := t.blocks.Event(ev)
	switch e := ev.(type) {
	case *event.SessionStart:
		t.session(a, e)
	case *event.Delta:
		err = t.delta(a, s, e)
	case *event.Citations:
		t.citations(a, e)
	case *event.ToolCall:
		t.toolCall(a, e)
	case *event.ToolResult:
		t.toolResult(a, e)
	case *event.AwaitingTools:
		var names []string
		for _, p := range e.Tools {
			names = append(names, p.Name)
		}
		t.put(a, &piece{lines: []string{t.st.Tool.Sprint("⏸ awaiting frontend tools: " + strings.Join(names, ", "))}})
	case *event.Files:
		var lines []string
		for _, f := range e.Files {
			lines = append(lines, t.dimLine(fmt.Sprintf("• file %s (%s) %s", f.Name, f.ID, f.Location)))
		}
		t.put(a, &piece{lines: lines, tight: true})
	case *event.FileChange:
		if e.Status != "in_progress" {
			t.fileChange(a, e) // a start is shown by its completion
		}
	case *event.TodoList:
		items := make([]todoView, len(e.Items))
		for i, it := range e.Items {
			items[i] = todoView{it.Text, it.Status}
		}
		t.put(a, &piece{lines: append([]string{t.st.Tool.Sprint("☰ todo list")}, t.checklist(items)...)})
	case *event.Error:
		msg := e.Message
		if e.Type != "" && e.Type != "error" {
			msg = e.Type + ": " + msg
		}
		t.put(a, &piece{lines: t.errLines("✗ error: " + msg)})
	case *event.TurnStart:
	case *event.TurnEnd:
		a.turnErr = e.Error
		t.turnEnd(a, e)
	case *event.RunEnd:
		t.ended = true
		t.put(a, &piece{lines: t.summary(a, e)})
	case *event.Notice:
		if t.o.Verbose || !Bookkeeping(e) {
			t.notice(a, e)
		}
	case *event.Unknown:
		s := "• unknown " + e.Format
		if e.Type != "" {
			s += " " + e.Type
		}
		t.put(a, &piece{lines: []string{t.dimLine(oneLine(s+": "+string(e.Raw), t.o.Width))}, tight: true})
	}
	if t.o.Live && len(a.held) > 0 && !t.streaming(a) {
		t.flushNotices(a)
	}
	if !a.gone && a.busy != (a.nopen > 0 || a.run != nil || len(a.pending) > 0 || len(a.held) > 0 || len(a.queue) > 0) {
		t.keep(a)
	}
	if err := cmp.Or(err, t.lw.err); err != nil {
		return err // a call let go of is reported by the next Event
	}
	forgot := t.forgot
	t.forgot = nil
	return forgot
}

// Close writes what is left: blocks the stream ended inside (marked
// truncated), calls still waiting for a result, and a summary when the
// stream had no run end. It returns a write error, or an error wrapping
// event.ErrTruncated when blocks were left open.
func (t *Transcript) Close() error {
	t.order = slices.DeleteFunc(t.order, func(x *agent) bool { return x.gone })
	at := make(map[*agent]int, len(t.order))
	for i, a := range t.order {
		at[a] = i
	}
	// Agents in order of appearance, thinking before text; the block
	// whose line is open ends first, so that its mark goes at the end of
	// that line.
	rank := func(s *stream) int {
		if any(s) == t.lw.lineOwner {
			return -1
		}
		r := 2 * at[s.a]
		if s.kind != event.Thinking {
			r++
		}
		return r
	}
	var open []string
	for _, s := range t.blocks.CutAll(func(x, y *stream) int { return rank(x) - rank(y) }) {
		open = append(open, fmt.Sprintf("%s block of agent %q", s.kind, s.a.id))
	}
	for _, a := range t.order {
		t.endRun(a)
		t.flushNotices(a)
	}
	// Calls the stream ended before the result of.
	for _, a := range t.order {
		for _, c := range a.pending {
			p := &piece{agent: c.agent, tight: true, result: c.ev.ID, ref: t.refLine(c.agent, c.view)}
			if t.o.Markdown {
				p.lines = []string{"⎿ *no result in the stream*"}
			} else {
				p.lines = []string{"  ⎿ " + t.st.Dim.Sprint("no result in the stream")}
			}
			if c.ev.ID == "" {
				p.result = "\x00"
			}
			if t.o.Live || c.done {
				t.lw.piece(p)
				continue
			}
			c.result, c.done = p, true
		}
		a.pending = nil
	}
	if !t.o.Live {
		t.drainRoots(true)
	}
	if !t.ended && t.main != nil && t.main.turns > 0 {
		t.put(t.main, &piece{lines: t.summary(t.main, nil)})
	}
	if t.lw.err != nil {
		return t.lw.err
	}
	if len(open) > 0 {
		return fmt.Errorf("%w inside %s", event.ErrTruncated, textlist.Join(open, ", "))
	}
	return nil
}

func (t *Transcript) session(a *agent, e *event.SessionStart) {
	a.name, a.desc = e.Name, e.Description
	if e.ParentAgent == "" || e.ParentAgent == a.id {
		if !t.mainSet {
			t.main, t.mainSet = a, true
		}
	} else if p := t.agent(e.ParentAgent); a.parent == nil && !p.descendsFrom(a) {
		a.parent, a.depth = p, p.depth+1
		if t.main == a && !t.mainSet {
			t.main = p
		}
		t.roots = slices.DeleteFunc(t.roots, func(r *agent) bool { return r == a })
		// The call that started the agent: the one named, or else the
		// parent's latest call still waiting for its result.
		var c *call
		if e.ParentToolID != "" {
			c = t.calls[e.ParentToolID]
		} else if n := len(p.pending); n > 0 {
			c = p.pending[n-1]
		}
		if c != nil && !c.done && c.agent == p {
			c.children = append(c.children, a)
			if a.desc == "" && a.name == "" && c.view.summary != "" && (c.ev.Name == "Task" || c.ev.Name == "Agent") {
				a.desc = c.view.summary
			}
		} else {
			a.released = true
			// What the agent queued as a top-level agent joins its
			// parent's queue.
			if len(a.queue) > 0 {
				q := a
				for q.released && q.parent != nil {
					q = q.parent
				}
				q.queue = append(q.queue, a.queue...)
				a.queue = nil
			}
		}
	}
	a.session, a.cwd = e.SessionID, e.Cwd
	session, cwd := e.SessionID, e.Cwd
	if p := a.parent; p != nil {
		// A subagent mostly shares its parent's session and directory.
		if session == p.session {
			session = ""
		}
		if cwd == p.cwd {
			cwd = ""
		}
	}
	var meta []string
	for _, kv := range [][2]string{{"", e.Model}, {"session ", session}, {"cwd ", cwd}} {
		if kv[1] != "" {
			meta = append(meta, kv[0]+kv[1])
		}
	}
	var lines []string
	if len(meta) > 0 {
		lines = append(lines, t.dimLine("● "+strings.Join(meta, " · ")))
	}
	if e.Prompt != "" {
		pl := splitLines(e.Prompt)
		if a.parent != nil {
			pl, _ = t.cut(pl)
		}
		if t.o.Markdown {
			pl[0] = "**❯** " + pl[0]
			lines = append(lines, pl...)
		} else {
			for i, l := range pl {
				p := "  "
				if i == 0 {
					p = "❯ "
				}
				lines = append(lines, t.st.Prompt.Sprint(p+l))
			}
		}
	}
	if len(lines) > 0 {
		t.put(a, &piece{lines: lines})
	}
}

func (t *Transcript) delta(a *agent, s *stream, e *event.Delta) error {
	if s.hidden || s.over || e.Text == "" {
		return nil
	}
	s.last = e.Text[len(e.Text)-1]
	text := e.Text
	switch {
	case !t.o.Markdown:
		text = sanitize(strings.ReplaceAll(text, "\r\n", "\n"))
	case s.kind == event.Thinking:
		// Inside <details>: a < in the thinking could close it (even a
		// </details> split over two deltas), so every < is an entity.
		text = strings.ReplaceAll(text, "<", "&lt;")
	}
	if t.o.Live {
		if !s.started {
			s.started = true
			if a.run != nil && s.kind == event.Text && !a.run.joins(e.Text) {
				t.endRun(a)
			}
			if r := a.run; s.kind == event.Text && r != nil && r.owner != nil && t.lw.lineOwner == any(r.owner) {
				// The next block of a text run goes on where the last
				// one stopped.
				t.lw.lineOwner, r.owner = s, s
			} else {
				t.lw.streamStart(s, a, t.blockHeader(s.kind), t.blockPrefix(s.kind), t.blockStyle(s.kind))
			}
		}
		t.lw.streamText(s, a, text, t.blockPrefix(s.kind), t.blockStyle(s.kind))
		return nil
	}
	if s.text.Len()+len(e.Text) > t.o.MaxBlockBytes {
		s.over = true
		return fmt.Errorf("%w: %s block of agent %q is over %d bytes; the rest is dropped", assemble.ErrBlockTooLarge, e.Kind, a.id, t.o.MaxBlockBytes)
	}
	s.text.WriteString(text)
	return nil
}

func (t *Transcript) blockHeader(k event.BlockKind) []string {
	if k == event.Thinking && t.o.Markdown {
		return []string{"<details><summary>Thinking</summary>", ""}
	}
	return nil
}

func (t *Transcript) blockPrefix(k event.BlockKind) string {
	if k == event.Thinking && !t.o.Markdown {
		return "┊ "
	}
	return ""
}

func (t *Transcript) blockStyle(k event.BlockKind) *color.Color {
	if k == event.Thinking {
		return t.st.Thinking
	}
	return nil
}

// endBlock closes a text or thinking block (Transcript.blocks decides
// when); truncated when it was cut short.
func (t *Transcript) endBlock(a *agent, s *stream, truncated bool) {
	a.nopen--
	if s.hidden {
		return
	}
	if s.kind == event.Text {
		t.endText(a, s, truncated)
		return
	}
	var trailer []string
	if s.kind == event.Thinking && t.o.Markdown {
		trailer = []string{"</details>"}
	}
	// The truncation mark: its own paragraph in Markdown, else at the
	// end of the last line.
	mark, inline := "", ""
	if truncated || s.over {
		if t.o.Markdown {
			trailer = append([]string{"**[truncated]**"}, trailer...)
		} else {
			mark = t.st.Error.Sprint("[truncated]")
			inline = mark
			if t.o.Live && s.kind == event.Thinking {
				// Another block may have written since this one.
				inline = t.st.Error.Sprint("[thinking truncated]")
			}
		}
	}
	if t.o.Live {
		if !s.started && !truncated {
			return
		}
		if !s.started {
			t.lw.streamStart(s, a, t.blockHeader(s.kind), "", nil)
		}
		t.lw.streamEnd(s, a, inline, trailer)
		return
	}
	text := strings.Trim(s.text.String(), "\n")
	if text == "" && !truncated && !s.over {
		return
	}
	lines := t.blockHeader(s.kind)
	pref, style := t.blockPrefix(s.kind), t.blockStyle(s.kind)
	for _, l := range splitLines(text) {
		if l == "" {
			lines = append(lines, styled(t.st.Dim, strings.TrimRight(pref, " ")))
			continue
		}
		lines = append(lines, styled(t.st.Dim, pref)+styled(style, l))
	}
	if mark != "" {
		if n := len(lines); n > 0 && lines[n-1] != "" {
			lines[n-1] += " " + mark
		} else {
			lines = append(lines, mark)
		}
	}
	if len(trailer) > 0 && t.o.Markdown {
		lines = append(lines, "")
	}
	t.put(a, &piece{lines: append(lines, trailer...)})
}

// continuesRun reports whether ev may belong to an open text run.
func continuesRun(ev event.Event) bool {
	switch e := ev.(type) {
	case *event.Citations:
		return true
	case *event.BlockStart:
		return e.Kind == event.Text
	case *event.Delta:
		return e.Kind == event.Text
	case *event.BlockEnd:
		return e.Kind == event.Text
	}
	return false
}

// endText ends a text block: its text joins the agent's text run, which a
// truncation ends at once.
func (t *Transcript) endText(a *agent, s *stream, truncated bool) {
	if a.run != nil && !t.o.Live && !a.run.joins(s.text.String()) {
		t.endRun(a)
	}
	r := a.run
	if r == nil {
		r = &textRun{}
		a.run = r
	}
	truncated = truncated || s.over
	r.truncated = r.truncated || truncated
	if s.last != 0 {
		r.last, r.cited = s.last, false
	}
	if !t.o.Live {
		text := s.text.String()
		if r.text.Len() == 0 {
			text = strings.TrimLeft(text, "\n")
		}
		r.text.WriteString(text)
		if truncated {
			t.endRun(a)
		}
		return
	}
	if s.started {
		r.owner = s
	}
	if truncated {
		if r.owner == nil {
			t.lw.streamStart(s, a, nil, "", nil)
			r.owner = s
		}
		mark := t.st.Error.Sprint("[truncated]")
		var trailer []string
		if t.o.Markdown {
			mark, trailer = "", []string{"**[truncated]**"}
		}
		t.lw.streamEnd(r.owner, a, mark, trailer)
		r.owner = nil
		t.endRun(a)
	}
}

// endRun writes the agent's text run (piped) or ends its line (live), then
// its footnotes.
func (t *Transcript) endRun(a *agent) {
	r := a.run
	a.run = nil
	if r == nil {
		return
	}
	if t.o.Live {
		if r.owner != nil {
			t.lw.streamEnd(r.owner, a, "", nil)
		}
		if len(r.notes) > 0 {
			t.put(a, &piece{lines: r.notes, tight: true})
		}
		return
	}
	text := strings.TrimRight(r.text.String(), "\n")
	lines := splitLines(text)
	if r.truncated {
		if t.o.Markdown {
			lines = append(lines, "", "**[truncated]**")
		} else if n := len(lines); n > 0 && lines[n-1] != "" {
			lines[n-1] += " " + t.st.Error.Sprint("[truncated]")
		} else {
			lines = append(lines, t.st.Error.Sprint("[truncated]"))
		}
	}
	if len(lines) == 0 && len(r.notes) == 0 {
		return
	}
	t.put(a, &piece{lines: lines})
	if len(r.notes) > 0 {
		t.put(a, &piece{lines: r.notes, tight: true})
	}
}

// citations numbers the citations of the text run's last block: a mark
// where the cited text ends, a footnote under the run.
func (t *Transcript) citations(a *agent, e *event.Citations) {
	r := a.run
	orphan := r == nil
	if orphan {
		r = &textRun{}
	}
	var marks strings.Builder
	for _, c := range e.Items {
		src := c.Type
		switch {
		case c.URL != nil && c.Title != nil && *c.Title != "":
			src = *c.Title + " <" + *c.URL + ">"
		case c.URL != nil:
			src = *c.URL
		case c.DocumentTitle != nil && *c.DocumentTitle != "":
			src = *c.DocumentTitle
		case c.DocumentIndex != nil:
			src = fmt.Sprintf("document %d", *c.DocumentIndex)
		}
		if c.StartPageNumber != nil && c.EndPageNumber != nil {
			// The end page is exclusive.
			if last := *c.EndPageNumber - 1; last > *c.StartPageNumber {
				src += fmt.Sprintf(", pages %d-%d", *c.StartPageNumber, last)
			} else {
				src += fmt.Sprintf(", page %d", *c.StartPageNumber)
			}
		}
		quote := "“" + oneLine(c.CitedText, 160) + "” — " + src
		r.n++
		if t.o.Markdown {
			t.mdNotes++
			fmt.Fprintf(&marks, "[^%d]", t.mdNotes)
			r.notes = append(r.notes, fmt.Sprintf("[^%d]: %s", t.mdNotes, mdEscape(quote)))
		} else {
			fmt.Fprintf(&marks, "[%d]", r.n)
			r.notes = append(r.notes, t.dimLine(fmt.Sprintf("[%d] %s", r.n, quote)))
		}
	}
	r.cited = true
	if orphan {
		if len(r.notes) > 0 {
			t.put(a, &piece{lines: r.notes, tight: true})
		}
		return
	}
	m := marks.String()
	if !t.o.Markdown {
		m = t.st.Dim.Sprint(m)
	}
	if !t.o.Live {
		r.text.WriteString(m)
		return
	}
	if r.owner != nil {
		t.lw.streamText(r.owner, a, m, "", nil)
	}
}

func (t *Transcript) turnEnd(a *agent, e *event.TurnEnd) {
	if k := (messageKey{a.id, e.MessageID}); e.MessageID == "" || !t.counted.Has(k) {
		a.turns++
		if e.MessageID != "" {
			t.counted.Add(k)
		}
	}
	if e.StopReason != "" {
		a.lastStop = e.StopReason
	}
	if e.Error != "" {
		t.put(a, &piece{lines: t.errLines("✗ turn failed: " + e.Error)})
	}
}

// summary returns the run-end line of agent a; r is nil when the stream
// carried no run end and the line is made of the turns seen: "■ end" when
// the format has none and the agent's last turn ended (TurnEndsRun), "■ no
// run end" otherwise.
func (t *Transcript) summary(a *agent, r *event.RunEnd) []string {
	stop, turns := a.lastStop, a.turns
	var parts []string
	if r != nil {
		stop = cmp.Or(r.StopReason, stop)
		if r.Turns > 0 {
			turns = r.Turns
		}
	}
	// Tokens as `agentstream usage` counts them: once per message, or
	// the run end's total when the turns carried none.
	u, hasTokens := t.usage.Agent(a.id)
	if stop != "" {
		parts = append(parts, stop)
	}
	// A format with no run end: the agent's last turn, ended, ends it.
	finished := r == nil && t.o.TurnEndsRun && a.turnEnded
	isErr := (r != nil && r.IsError) || (finished && a.turnErr != "")
	if isErr {
		parts = append(parts, "error")
	}
	if turns > 0 {
		parts = append(parts, plural(turns, "turn"))
	}
	if r != nil && r.DurationMS > 0 {
		parts = append(parts, FormatDuration(r.DurationMS))
	}
	if hasTokens {
		tok := fmt.Sprintf("%s in / %s out tokens", FormatCount(u.Input), FormatCount(u.Output))
		var cache []string
		if u.CacheRead > 0 {
			cache = append(cache, FormatCount(u.CacheRead)+" cache read")
		}
		if u.CacheWrite > 0 {
			cache = append(cache, FormatCount(u.CacheWrite)+" cache write")
		}
		if len(cache) > 0 {
			tok += " (" + strings.Join(cache, ", ") + ")"
		}
		parts = append(parts, tok)
	}
	if r != nil && r.CostUSD != nil {
		parts = append(parts, fmt.Sprintf("$%.4f", *r.CostUSD))
	} else if c, ok := t.tableCost(); ok {
		parts = append(parts, fmt.Sprintf("$%.4f at table prices", c))
	}
	head := "■ end"
	if r == nil && !finished {
		head = "■ no run end"
	}
	line := head
	if len(parts) > 0 {
		line += ": " + strings.Join(parts, " · ")
	}
	var lines []string
	switch {
	case t.o.Markdown:
		lines = []string{"**" + head + "**" + strings.TrimPrefix(line, head)}
	case isErr:
		lines = []string{t.st.Error.Sprint(line)}
	default:
		lines = []string{t.dimLine(line)}
	}
	if r != nil {
		for _, e := range r.Errors {
			lines = append(lines, t.errLines("✗ "+oneLine(e, t.o.Width))...)
		}
	}
	return lines
}

// progressNotices are the notice kinds that report progress: each one
// supersedes the one before it when nothing else came in between.
var progressNotices = map[string]bool{"thinking_tokens": true, "status": true, "task_progress": true}

// notice writes a notice as a dim one-liner. Notices are held while the
// agent streams a block in live mode (so that they do not break its lines),
// and always in piped mode until the agent's next piece; held progress
// notices of one kind collapse to the last.
func (t *Transcript) notice(a *agent, e *event.Notice) {
	if t.o.Live && !t.streaming(a) {
		t.put(a, t.noticePiece(e))
		return
	}
	if n := len(a.held); n > 0 && a.held[n-1].Kind == e.Kind && progressNotices[e.Kind] {
		a.held[n-1] = e
		return
	}
	if len(a.held) >= maxHeldNotices {
		t.flushNotices(a)
	}
	a.held = append(a.held, e)
}

func (t *Transcript) noticePiece(e *event.Notice) *piece {
	kind := cmp.Or(e.Kind, "notice")
	return &piece{lines: []string{t.dimLine(oneLine("• "+kind+": "+e.Message, t.o.Width))}, tight: true}
}

func (t *Transcript) flushNotices(a *agent) {
	held := a.held
	a.held = nil
	for _, e := range held {
		t.put(a, t.noticePiece(e))
	}
}

// streaming reports whether a line of a block of agent a is open (live).
func (t *Transcript) streaming(a *agent) bool {
	for _, k := range []event.BlockKind{event.Thinking, event.Text} {
		if s, ok := t.blocks.Get(a.id, k); ok && s.started {
			return true
		}
	}
	return a.run != nil && a.run.owner != nil && t.lw.lineOwner == any(a.run.owner)
}

// FormatDuration formats a run's duration as the views show it: 850ms,
// 12.3s, 4m05s, 1h02m.
func FormatDuration(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60*1000:
		return fmt.Sprintf("%.1fs", float64(ms)/1000)
	case ms < 3600*1000:
		return fmt.Sprintf("%dm%02ds", ms/60000, ms/1000%60)
	}
	return fmt.Sprintf("%dh%02dm", ms/3600000, ms/60000%60)
}

// tableCost prices the whole run from Options.Prices; false when there
// is no table, no usage, or a model without a price.
func (t *Transcript) tableCost() (float64, bool) {
	if t.o.Prices == nil {
		return 0, false
	}
	run := t.usage.Run()
	total := 0.0
	for _, m := range run.Messages {
		c, ok := t.o.Prices.Cost(m.Model, m.Tokens)
		if !ok {
			return 0, false
		}
		total += c
	}
	return total, len(run.Messages) > 0
}

// FormatCount formats a token count with thousands separators.
func FormatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// put routes a piece of agent a: straight to the output in live mode,
// otherwise into the queue it waits in.
func (t *Transcript) put(a *agent, p *piece) {
	if len(a.held) > 0 {
		t.flushNotices(a)
	}
	p.agent = a
	if t.o.Live {
		t.lw.piece(p)
		return
	}
	t.enqueue(a, &qitem{p: p})
}

func (t *Transcript) enqueue(a *agent, it *qitem) {
	q := a
	for q.released && q.parent != nil {
		q = q.parent
	}
	q.queue = append(q.queue, it)
	// Only q's tree has something new to write: every other root was
	// drained when its own state last changed (draining every root here
	// made a stream of many root agents quadratic).
	r := q
	for r.parent != nil {
		r = r.parent
	}
	t.drain(r, false)
}

// drain writes agent a's queue up to the first call still waiting for its
// result, and the nested output of that call's subagents so far. force
// writes everything: the call is over (or the stream is).
func (t *Transcript) drain(a *agent, force bool) {
	for len(a.queue) > 0 {
		it := a.queue[0]
		if it.call == nil {
			t.lw.piece(it.p)
			a.queue[0] = nil
			a.queue = a.queue[1:]
			continue
		}
		c := it.call
		if !c.shown {
			c.shown = true
			t.lw.piece(c.head)
		}
		done := c.done || force
		for _, ch := range c.children {
			t.drain(ch, done)
			if done {
				ch.released = true
			}
		}
		if !done {
			return
		}
		if c.result != nil {
			t.lw.piece(c.result)
		}
		if t.calls[c.ev.ID] == c {
			delete(t.calls, c.ev.ID) // written: nothing more to pair
		}
		if !c.done {
			t.letGo(c)
		}
		a.queue[0] = nil
		a.queue = a.queue[1:]
		t.waiting--
	}
}

func (t *Transcript) dimLine(s string) string {
	if t.o.Markdown {
		return "*" + mdEscape(s) + "*"
	}
	return t.st.Dim.Sprint(s)
}

func (t *Transcript) errLines(s string) []string {
	if t.o.Markdown {
		return []string{"**" + mdEscape(s) + "**"}
	}
	return []string{t.st.Error.Sprint(s)}
}

// isUUID reports whether id is a UUID in its 36-character text form.
func isUUID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i, c := range []byte(id) {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}
