package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/fatih/color"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/frame"
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
	// is written (frame.DefaultMaxBytes when <= 0).
	MaxBlockBytes int
}

// Transcript writes an event stream as a transcript for people to read:
// text and thinking, tool calls shown by what they do with their results
// under them, subagents nested under the call that started them, notices
// and a summary of the run. Feed it with Event and finish with Close.
//
// Memory: in live mode a Transcript keeps only per-agent bookkeeping (open
// block state, tool names by call id, token counts by message id). Otherwise
// it also holds each open text or thinking block, and everything an agent
// writes after a tool call whose result has not arrived yet, including
// the whole output of the subagents that call started: output is bounded by
// what open subagents have produced.
type Transcript struct {
	o  Options
	st *Styles
	lw *lineWriter

	agents map[string]*agent
	order  []*agent // every agent, in order of appearance
	roots  []*agent // agents not nested under a call, in order of appearance
	main   *agent
	// mainSet: main was chosen by a SessionStart, not as the first agent seen.
	mainSet bool
	calls   map[string]*call
	ended   bool // a run end was seen
}

type agent struct {
	id, name, desc string
	parent         *agent
	depth          int

	// Piped mode: what the agent wrote that waits behind an open call.
	queue []*qitem
	// released: the agent's call was written; what it writes now goes to
	// its parent's queue.
	released bool
	under    *call // the call the agent is nested under

	open    map[event.BlockKind]*stream
	pending []*call // calls without a result yet, in order
	cites   int     // footnotes of the last text block

	usage     map[string]event.Usage // turn usage by message id
	anonUsage []event.Usage          // turn usage without a message id
	turns     int
	lastStop  string
}

// label names the agent in the line that introduces its output.
func (a *agent) label() string {
	id := a.id
	if len(id) > 8 && strings.Count(id, "-") == 4 {
		id = id[:8]
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

type stream struct {
	kind    event.BlockKind
	text    strings.Builder
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
		o.MaxBlockBytes = frame.DefaultMaxBytes
	}
	st := o.Styles
	if st == nil || o.Markdown {
		st = NewStyles(false)
	}
	t := &Transcript{o: o, st: st, agents: map[string]*agent{}, calls: map[string]*call{}}
	t.lw = &lineWriter{w: w, md: o.Markdown, st: st, show: t.show, depth: t.depth, main: func(a *agent) bool { return a == t.main }}
	return t
}

func (t *Transcript) show(a *agent) bool {
	switch t.o.Agent {
	case "", "all":
		return true
	case "main":
		return a == t.main
	}
	return a.id == t.o.Agent || (a.id != "" && strings.HasPrefix(a.id, t.o.Agent))
}

func (t *Transcript) depth(a *agent) int {
	switch t.o.Agent {
	case "", "all":
		return a.depth
	}
	return 0
}

func (t *Transcript) agent(id string) *agent {
	if a := t.agents[id]; a != nil {
		return a
	}
	a := &agent{id: id, open: map[event.BlockKind]*stream{}, usage: map[string]event.Usage{}}
	t.agents[id] = a
	t.order = append(t.order, a)
	t.roots = append(t.roots, a)
	if t.main == nil {
		t.main = a
	}
	return a
}

// Event writes what ev adds to the transcript. Its error is a write error
// or assemble.ErrBlockTooLarge (the block is cut and the transcript goes on).
func (t *Transcript) Event(ev event.Event) error {
	a := t.agent(ev.AgentID())
	var err error
	switch e := ev.(type) {
	case *event.SessionStart:
		t.session(a, e)
	case *event.BlockStart:
		if s := a.open[e.Kind]; s != nil {
			t.endBlock(a, s, true)
		}
		a.open[e.Kind] = t.newStream(e.Kind)
	case *event.Delta:
		err = t.delta(a, e)
	case *event.BlockEnd:
		if s := a.open[e.Kind]; s != nil {
			t.endBlock(a, s, false)
		}
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
		t.fileChange(a, e)
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
		t.turnEnd(a, e)
	case *event.RunEnd:
		t.ended = true
		t.put(a, &piece{lines: t.summary(a, e)})
	case *event.Notice:
		kind := cmp.Or(e.Kind, "notice")
		t.put(a, &piece{lines: []string{t.dimLine(oneLine("• "+kind+": "+e.Message, t.o.Width))}, tight: true})
	case *event.Unknown:
		s := "• unknown " + e.Format
		if e.Type != "" {
			s += " " + e.Type
		}
		t.put(a, &piece{lines: []string{t.dimLine(oneLine(s+": "+string(e.Raw), t.o.Width))}, tight: true})
	}
	return cmp.Or(err, t.lw.err)
}

// Close writes what is left: blocks the stream ended inside (marked
// truncated), calls still waiting for a result, and a summary when the
// stream had no run end. It returns a write error, or an error wrapping
// event.ErrTruncated when blocks were left open.
func (t *Transcript) Close() error {
	type openBlock struct {
		a *agent
		s *stream
	}
	var blocks []openBlock
	for _, a := range t.order {
		for _, k := range []event.BlockKind{event.Thinking, event.Text} {
			if s := a.open[k]; s != nil {
				ob := openBlock{a, s}
				if any(s) == t.lw.lineOwner {
					// The block whose line is open ends first, so
					// that its mark goes at the end of that line.
					blocks = append([]openBlock{ob}, blocks...)
				} else {
					blocks = append(blocks, ob)
				}
			}
		}
	}
	var open []string
	for _, ob := range blocks {
		t.endBlock(ob.a, ob.s, true)
		open = append(open, fmt.Sprintf("%s block of agent %q", ob.s.kind, ob.a.id))
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
		for _, r := range t.roots {
			t.drain(r, true)
		}
	}
	if !t.ended && t.main != nil && t.main.turns > 0 {
		t.put(t.main, &piece{lines: t.summary(t.main, nil)})
	}
	if t.lw.err != nil {
		return t.lw.err
	}
	if len(open) > 0 {
		return fmt.Errorf("%w inside %s", event.ErrTruncated, strings.Join(open, ", "))
	}
	return nil
}

func (t *Transcript) session(a *agent, e *event.SessionStart) {
	a.name, a.desc = e.Name, e.Description
	if e.ParentAgent == "" || e.ParentAgent == a.id {
		if !t.mainSet {
			t.main, t.mainSet = a, true
		}
	} else if a.parent == nil {
		p := t.agent(e.ParentAgent)
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
		if c != nil && !c.done {
			a.under = c
			c.children = append(c.children, a)
			if a.desc == "" && a.name == "" && c.view.summary != "" && (c.ev.Name == "Task" || c.ev.Name == "Agent") {
				a.desc = c.view.summary
			}
		} else {
			a.released = true
		}
	}
	var meta []string
	for _, kv := range [][2]string{{"", e.Model}, {"session ", e.SessionID}, {"cwd ", e.Cwd}} {
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

func (t *Transcript) newStream(k event.BlockKind) *stream {
	return &stream{kind: k, hidden: k == event.Thinking && t.o.NoThinking}
}

func (t *Transcript) delta(a *agent, e *event.Delta) error {
	s := a.open[e.Kind]
	if s == nil {
		s = t.newStream(e.Kind)
		a.open[e.Kind] = s
	}
	if s.hidden || s.over || e.Text == "" {
		return nil
	}
	if t.o.Live {
		if !s.started {
			s.started = true
			t.lw.streamStart(s, a, t.blockHeader(s.kind), t.blockPrefix(s.kind), t.blockStyle(s.kind))
		}
		t.lw.streamText(s, a, e.Text, t.blockPrefix(s.kind), t.blockStyle(s.kind))
		return nil
	}
	if s.text.Len()+len(e.Text) > t.o.MaxBlockBytes {
		s.over = true
		return fmt.Errorf("%w: %s block of agent %q is over %d bytes; the rest is dropped", assemble.ErrBlockTooLarge, e.Kind, a.id, t.o.MaxBlockBytes)
	}
	s.text.WriteString(e.Text)
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

// endBlock closes a text or thinking block; truncated when the stream ended
// (or the block restarted) inside it.
func (t *Transcript) endBlock(a *agent, s *stream, truncated bool) {
	delete(a.open, s.kind)
	if s.kind == event.Text {
		a.cites = 0
	}
	if s.hidden {
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
	text := s.text.String()
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
		if n := len(lines); n > 0 && lines[n-1] != "" && !strings.HasSuffix(text, "\n") {
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

func (t *Transcript) citations(a *agent, e *event.Citations) {
	var lines []string
	for _, c := range e.Items {
		a.cites++
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
		if t.o.Markdown {
			lines = append(lines, fmt.Sprintf("[%d] %s  ", a.cites, mdEscape(quote)))
		} else {
			lines = append(lines, t.dimLine(fmt.Sprintf("[%d] %s", a.cites, quote)))
		}
	}
	if len(lines) > 0 {
		if t.o.Markdown {
			lines[len(lines)-1] = strings.TrimSuffix(lines[len(lines)-1], "  ")
		}
		t.put(a, &piece{lines: lines, tight: true})
	}
}

func (t *Transcript) turnEnd(a *agent, e *event.TurnEnd) {
	if e.MessageID == "" {
		a.turns++
		if e.Usage != nil {
			a.anonUsage = append(a.anonUsage, *e.Usage)
		}
	} else {
		if _, seen := a.usage[e.MessageID]; !seen {
			a.turns++
		}
		var u event.Usage
		if e.Usage != nil {
			u = *e.Usage
		}
		// The same message's usage may be repeated (Claude writes it
		// on each content block); the last one is the most complete.
		a.usage[e.MessageID] = u
	}
	if e.StopReason != "" {
		a.lastStop = e.StopReason
	}
	if e.Error != "" {
		t.put(a, &piece{lines: t.errLines("✗ turn failed: " + e.Error)})
	}
}

// summary returns the run-end line of agent a; r is nil when the stream
// carried no run end and the line is made of the turns seen.
func (t *Transcript) summary(a *agent, r *event.RunEnd) []string {
	var u *event.Usage
	stop, turns := a.lastStop, a.turns
	var parts []string
	if r != nil {
		stop = cmp.Or(r.StopReason, stop)
		if r.Turns > 0 {
			turns = r.Turns
		}
		u = r.Usage
	}
	if u == nil && (len(a.usage) > 0 || len(a.anonUsage) > 0) {
		u = &event.Usage{}
		ids := make([]string, 0, len(a.usage))
		for id := range a.usage {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			addUsage(u, a.usage[id])
		}
		for _, x := range a.anonUsage {
			addUsage(u, x)
		}
	}
	if stop != "" {
		parts = append(parts, stop)
	}
	isErr := r != nil && r.IsError
	if isErr {
		parts = append(parts, "error")
	}
	if turns > 0 {
		parts = append(parts, plural(turns, "turn"))
	}
	if r != nil && r.DurationMS > 0 {
		parts = append(parts, fmt.Sprintf("%.1fs", float64(r.DurationMS)/1000))
	}
	if u != nil {
		tok := fmt.Sprintf("%s in / %s out tokens", count(u.InputTokens), count(u.OutputTokens))
		var cache []string
		if u.CacheReadTokens > 0 {
			cache = append(cache, count(u.CacheReadTokens)+" cache read")
		}
		if u.CacheWriteTokens > 0 {
			cache = append(cache, count(u.CacheWriteTokens)+" cache write")
		}
		if len(cache) > 0 {
			tok += " (" + strings.Join(cache, ", ") + ")"
		}
		parts = append(parts, tok)
	}
	if r != nil && r.CostUSD != nil {
		parts = append(parts, fmt.Sprintf("$%.4f", *r.CostUSD))
	}
	head := "■ end"
	if r == nil {
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

func addUsage(u *event.Usage, x event.Usage) {
	u.InputTokens += x.InputTokens
	u.OutputTokens += x.OutputTokens
	u.CacheReadTokens += x.CacheReadTokens
	u.CacheWriteTokens += x.CacheWriteTokens
	u.ReasoningTokens += x.ReasoningTokens
}

// count formats a token count with thousands separators.
func count(n int64) string {
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
	for _, r := range t.roots {
		t.drain(r, false)
	}
}

// drain writes agent a's queue up to the first call still waiting for its
// result, and the nested output of that call's subagents so far. force
// writes everything: the call is over (or the stream is).
func (t *Transcript) drain(a *agent, force bool) {
	for len(a.queue) > 0 {
		it := a.queue[0]
		if it.call == nil {
			t.lw.piece(it.p)
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
		a.queue = a.queue[1:]
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
