// Package htmlview writes agent runs as one self-contained HTML page:
// inline CSS and one small inline script, no network fetch, readable from
// file://. New writes a page of one run; a Page holds several, each in a
// section of its own with ids of its own, and an index of the runs at the
// top (each run's line is written after the run and moved there by the
// script). Text blocks are Markdown, rendered by goldmark in its safe mode
// (markdown.go); a search box filters the blocks.
//
// The page is written as a stream: the head first, then each block as the
// assembler (package assemble) completes it, so a huge run never sits in
// memory and a file a live run is being written into can be opened at any
// time. Blocks are written in stream order; each subagent block and tool
// result names, in data-into, the place it belongs (under the call that
// started the subagent, under the call a result answers), and the page's
// script moves it there once the document is parsed. Without script the
// blocks stay in stream order, subagents indented by depth.
//
// The run's summary (model, session, duration, tokens, cost) is known at
// the end: it is written as a footer, and the script copies it into the
// header; the header shows the model and session from the start when the
// stream opens with them.
//
// Everything from the stream is escaped (html.EscapeString, in text and in
// double-quoted attributes); links are made only of http and https URLs,
// images only of data:image URLs (an http(s) image is a link, never
// fetched; anything else is dropped with a notice). A
// Content-Security-Policy allows the page's own script by its hash and no
// other script, and images from data: URLs only.
package htmlview

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/render"
	"github.com/agentstream/agentstream/usage"
)

// Options configure a Writer.
type Options struct {
	// Title is the page's title, the input's name.
	Title string
	// NoThinking leaves thinking blocks out.
	NoThinking bool
	// MaxBlockBytes caps a text or thinking block (assemble.New).
	MaxBlockBytes int
	// Prices prices the run when the stream reports no cost; nil leaves
	// the cost out.
	Prices *usage.Prices
	// Verbose shows the bookkeeping lines (render.Bookkeeping) too.
	Verbose bool
	// TurnEndsRun says that the format has no run end (Codex exec, a raw
	// API response): a run whose main agent's last turn ended, with
	// nothing after it, is shown as ended.
	TurnEndsRun bool
	// Agent and Time describe the run in the index of a page of several
	// runs: the producer (the input's format) and when the run was
	// written; "" leaves them out.
	Agent, Time string
}

// Writer writes one run as an HTML page. Feed it with Event and finish
// with Close. Memory: the assembler's open blocks (assemble.DefaultMaxOpen),
// and a few numbers for each of the last MaxAgents agents seen and the last
// MaxAgents tool calls (see MaxAgents).
type Writer struct {
	w    io.Writer
	o    Options
	page *Page
	own  bool   // the page is the Writer's own (New): Close ends it
	run  int    // the run's number on the page, from 1
	pre  string // what the ids of the run's elements start with
	cwd  string // the main agent's working directory
	asm  *assemble.Assembler
	cnt  *usage.Counter
	err  error

	header    bool
	n         int // blocks written
	agents    map[string]*agentInfo
	seen      *openset.Set[string]  // agents, the one seen longest ago first
	calls     map[string]int        // call id -> its block number
	called    *openset.Set[string]  // call ids, oldest first
	waiting   *openset.Set[waiting] // calls without a result yet, oldest first
	truncated bool
	forgot    error // what the Writer let go of, reported by the next Event
	capped    [2]bool
}

// MaxAgents caps the agents and the tool calls a Writer remembers (where a
// subagent's blocks go, which calls wait for a result, of all agents
// together). Past it the agent
// seen longest ago (never the main agent) or the oldest call is forgotten:
// a forgotten agent's calls without a result get no "no result" line, a
// result or subagent of a forgotten call stays where the stream has it.
// Event reports each once, wrapping ErrTooManyAgents.
const MaxAgents = openset.DefaultMax

// ErrTooManyAgents is wrapped by the error Event returns the first time
// the Writer forgets an agent or a tool call (MaxAgents); the page goes on.
var ErrTooManyAgents = errors.New("too many agents or tool calls")

// forget notes, once for each kind, what the Writer let go of.
func (h *Writer) forget(kind int, format string, args ...any) {
	if h.capped[kind] {
		return
	}
	h.capped[kind] = true
	h.forgot = fmt.Errorf("%w: "+format+" (later ones are not reported)", append([]any{ErrTooManyAgents}, args...)...)
}

// waiting is a call without a result yet: its block number and agent.
type waiting struct {
	call  int
	agent string
}

type agentInfo struct {
	depth int
	// turnEnded: the agent's last turn ended and nothing of another
	// came after it.
	turnEnded bool
	into      string // where the agent's blocks go: "c<call>", "" at top level
	pending   []int  // calls without a result yet
}

// New returns a Writer of a page of one run on w: its Close ends the page.
func New(w io.Writer, o Options) *Writer {
	h := NewPage(w, PageOptions{Title: o.Title, Runs: 1}).Run(o)
	h.own = true
	return h
}

// id is the page-wide id of the run's element kind+n ("b3", "run2-b3").
func (h *Writer) id(kind string, n int) string { return h.pre + kind + strconv.Itoa(n) }

// ErrBlockTooLarge is assemble.ErrBlockTooLarge: the block is cut, marked
// truncated, and the page goes on.
var ErrBlockTooLarge = assemble.ErrBlockTooLarge

// Event writes the blocks ev completes. Its error is a write error or one
// wrapping ErrBlockTooLarge.
func (h *Writer) Event(ev event.Event) error {
	h.cnt.Add(ev)
	switch e := ev.(type) {
	case *event.SessionStart:
		h.session(e)
		if e.ParentAgent == "" && h.cwd == "" {
			h.cwd = e.Cwd
		}
	case *event.TurnStart, *event.BlockStart, *event.Delta, *event.ToolCall, *event.ToolResult:
		h.agent(ev.AgentID()).turnEnded = false
	case *event.TurnEnd:
		h.agent(e.Agent).turnEnded = true
	case *event.Notice:
		if !h.o.Verbose && render.Bookkeeping(e) {
			return h.err
		}
	}
	bs, aerr := h.asm.Add(ev)
	for _, b := range bs {
		h.block(b)
	}
	if err := cmp.Or(h.err, aerr); err != nil {
		return err // what was forgotten is reported by the next Event
	}
	forgot := h.forgot
	h.forgot = nil
	return forgot
}

// Close writes the blocks left open (marked truncated), the run's summary
// and the end of the page. It returns a write error, or one wrapping
// event.ErrTruncated when blocks were left open.
func (h *Writer) Close() error {
	var open []string
	for _, b := range h.asm.Flush() {
		if b.Truncated && (b.Type == assemble.TypeText || b.Type == assemble.TypeThinking) {
			open = append(open, fmt.Sprintf("%s block of agent %q", b.Type, b.Agent))
		}
		h.block(b)
	}
	// Calls the stream ended before the result of, in call order.
	type call struct {
		n     int
		agent string
	}
	var pending []call
	for id, a := range h.agents {
		for _, n := range a.pending {
			pending = append(pending, call{n, id})
		}
		a.pending = nil
	}
	slices.SortFunc(pending, func(x, y call) int { return x.n - y.n })
	for _, c := range pending {
		h.n++
		h.printf(`<section class="b t-no_result" id="%s" data-agent="%s" data-into="%s"><p class="dim">↳ no result in the stream</p></section>`+"\n",
			h.id("b", h.n), esc(c.agent), h.id("r", c.n))
	}
	h.start(nil)
	h.write("</div>\n")
	entry := h.summary()
	h.write("</article>\n")
	h.page.endRun(h, entry)
	if h.own {
		h.page.end()
	}
	h.err = cmp.Or(h.err, h.page.err)
	if h.err != nil {
		return h.err
	}
	if len(open) > 0 {
		return fmt.Errorf("%w inside %s", event.ErrTruncated, strings.Join(open, ", "))
	}
	return nil
}

func (h *Writer) printf(format string, args ...any) {
	if h.err != nil {
		return
	}
	_, h.err = fmt.Fprintf(h.w, format, args...)
}

func (h *Writer) write(s string) {
	if h.err != nil {
		return
	}
	_, h.err = io.WriteString(h.w, s)
}

// esc escapes s for text and for double-quoted attribute values.
func esc(s string) string { return html.EscapeString(s) }

// agent returns what the Writer remembers of agent id, which becomes the
// agent seen last.
func (h *Writer) agent(id string) *agentInfo {
	a := h.agents[id]
	if a == nil {
		a = &agentInfo{}
		h.agents[id] = a
	}
	h.seen.Remove(id)
	old, out := h.seen.Add(id)
	if out && old == h.cnt.Main() {
		old, out = h.seen.Add(old) // the main agent stays: let go of the next oldest
	}
	if out {
		delete(h.agents, old)
		h.forget(0, "more than %d agents; forgot the one seen longest ago, %q: its calls without a result are not listed", MaxAgents, old)
	}
	return a
}

// session places a subagent under the call that started it: the one it
// names, else its parent's latest call still waiting for a result.
func (h *Writer) session(s *event.SessionStart) {
	a := h.agent(s.Agent)
	if s.ParentAgent == "" || s.ParentAgent == s.Agent || a.into != "" {
		return
	}
	p := h.agent(s.ParentAgent)
	call, ok := h.calls[s.ParentToolID]
	if !ok || s.ParentToolID == "" {
		if n := len(p.pending); n > 0 {
			call, ok = p.pending[n-1], true
		}
	}
	a.depth = p.depth + 1
	if ok {
		a.into = h.id("c", call)
	}
}

// start writes the page's head, once, and the run's header before its
// first block; first is that block, whose model and session the header
// shows when it is the main agent's start.
func (h *Writer) start(first *assemble.Block) {
	h.page.start()
	if h.err == nil {
		h.err = h.page.err
	}
	if h.header {
		return
	}
	h.header = true
	model, session := "…", "…"
	if first != nil && first.Type == assemble.TypeMetaInit && first.ParentAgent == "" {
		model, session = cmp.Or(first.Model, "…"), cmp.Or(first.SessionID, first.Agent, "…")
	}
	heading := "h1"
	if h.page.o.Runs > 1 {
		heading = "h2"
	}
	h.printf(`<article class="run" id="%s">
<header>
<%s>%s</%s>
<dl class="meta"><dt>Model</dt><dd data-k="model">%s</dd><dt>Session</dt><dd data-k="session">%s</dd>`+
		`<dt>Duration</dt><dd data-k="duration">…</dd><dt>Tokens</dt><dd data-k="tokens">…</dd><dt>Cost</dt><dd data-k="cost">…</dd></dl>
</header>
<div class="blocks">
`, h.runID(), heading, esc(cmp.Or(h.o.Title, "agent run")), heading, esc(model), esc(session))
}

// runID is the id of the run's article: "run1", "run2", ...
func (h *Writer) runID() string { return "run" + strconv.Itoa(h.run) }

// block writes one block as a section with its own anchor.
func (h *Writer) block(b *assemble.Block) {
	if b.Type == assemble.TypeThinking && h.o.NoThinking {
		return
	}
	if b.Type == assemble.TypeTurnEnd && !b.IsError {
		return // shown in the summary
	}
	if b.Type == assemble.TypeText && b.Text == "" && len(b.Citations) == 0 && !b.Truncated {
		return
	}
	h.start(b)
	h.n++
	id := h.id("b", h.n)
	a := h.agent(b.Agent)
	class := "b t-" + b.Type
	if a.depth > 0 {
		class += " d" + strconv.Itoa(min(a.depth, 6))
	}
	if b.Truncated {
		class += " truncated"
		h.truncated = true
	}
	into := a.into
	if b.Type == assemble.TypeToolResult || b.Type == assemble.TypeServerToolResult {
		if call, ok := h.calls[b.ID]; ok && b.ID != "" {
			into = h.id("r", call)
			owner := h.agent(b.Agent)
			owner.pending = slices.DeleteFunc(owner.pending, func(n int) bool { return n == call })
			h.waiting.Remove(waiting{call, b.Agent})
		}
	}
	h.printf(`<section class="%s" id="%s" data-agent="%s"`, class, id, esc(b.Agent))
	if into != "" {
		h.printf(` data-into="%s"`, into)
	}
	h.printf(`><a class="a" href="#%s" aria-label="link to this block">#</a>`, id)
	switch b.Type {
	case assemble.TypeText:
		h.text(id, b)
	case assemble.TypeThinking:
		h.printf(`<details class="thinking"><summary>Thinking</summary><pre>%s</pre></details>`, esc(b.Text))
	case assemble.TypeToolCall, assemble.TypeServerToolCall:
		h.call(h.n, b)
	case assemble.TypeToolResult, assemble.TypeServerToolResult:
		h.result(b)
	case assemble.TypeMetaInit:
		h.metaInit(b)
	case assemble.TypeMetaFinal:
		h.printf(`<p class="dim">■ end%s</p>`, esc(endLine(b)))
		for _, e := range b.Errors {
			h.printf(`<p class="error">✗ %s</p>`, esc(e))
		}
	case assemble.TypeTurnEnd:
		h.printf(`<p class="error">✗ turn failed: %s</p>`, esc(b.Text))
	case assemble.TypeError:
		msg := b.Text
		if b.Kind != "" && b.Kind != "error" {
			msg = b.Kind + ": " + msg
		}
		fatal := ""
		if b.Fatal {
			fatal = " (the run stopped)"
		}
		h.printf(`<p class="error">✗ error: %s%s</p>`, esc(msg), fatal)
	case assemble.TypeNotice:
		h.printf(`<p class="notice">• %s: %s</p>`, esc(cmp.Or(b.Kind, "notice")), esc(b.Text))
	case assemble.TypeTodoList:
		h.write(`<p class="dim">☰ todo list</p>`)
		todos := make([]render.Todo, len(b.Todos))
		for i, t := range b.Todos {
			todos[i] = render.Todo{Text: t.Text, Status: t.Status}
		}
		h.checklist(todos)
	case assemble.TypeFileChange:
		status := ""
		if b.Status != "" && b.Status != "completed" {
			status = " (" + b.Status + ")"
		}
		h.printf(`<p class="dim">± file changes%s</p><ul>`, esc(status))
		for _, c := range b.Changes {
			h.printf(`<li>%s <code>%s</code></li>`, esc(c.Kind), esc(c.Path))
		}
		h.write(`</ul>`)
	case assemble.TypeMetaFiles:
		h.write(`<ul class="dim">`)
		for _, f := range b.Files {
			h.printf(`<li>file %s (%s) %s</li>`, esc(f.Name), esc(f.ID), esc(f.Location))
		}
		h.write(`</ul>`)
	case assemble.TypeAwaitingTools:
		var names []string
		for _, p := range b.Pending {
			names = append(names, p.Name)
		}
		h.printf(`<p class="dim">⏸ awaiting frontend tools: %s</p>`, esc(strings.Join(names, ", ")))
	default:
		h.printf(`<details class="dim"><summary>unknown %s %s</summary><pre>%s</pre></details>`, esc(b.Name), esc(b.Kind), esc(string(b.Raw)))
	}
	if b.Truncated {
		h.write(`<p class="trunc">[truncated: the stream ended inside this block]</p>`)
	}
	h.write("</section>\n")
}

func (h *Writer) text(id string, b *assemble.Block) {
	// Model text is Markdown: rendered, raw HTML in it left out, links
	// and images as the page allows them (markdown.go).
	text := markdown(b.Text)
	var marks strings.Builder
	for i := range b.Citations {
		n := strconv.Itoa(i + 1)
		fmt.Fprintf(&marks, `<sup><a href="#%s-n%s">[%s]</a></sup>`, id, n, n)
	}
	// The marks end the cited text: inside its last paragraph.
	if p, ok := strings.CutSuffix(text, "</p>"); ok {
		text = p + marks.String() + "</p>"
	} else {
		text += marks.String()
	}
	h.printf(`<div class="text">%s</div>`, text)
	if len(b.Citations) == 0 {
		return
	}
	h.write(`<ol class="notes">`)
	for i, c := range b.Citations {
		h.printf(`<li id="%s-n%d">“%s” — `, id, i+1, esc(c.CitedText))
		title := c.Type
		switch {
		case c.Title != nil && *c.Title != "":
			title = *c.Title
		case c.DocumentTitle != nil && *c.DocumentTitle != "":
			title = *c.DocumentTitle
		case c.DocumentIndex != nil:
			title = fmt.Sprintf("document %d", *c.DocumentIndex)
		case c.URL != nil:
			title = *c.URL
		}
		if c.URL != nil && webURL(*c.URL) {
			h.printf(`<a href="%s" rel="noopener noreferrer nofollow">%s</a>`, esc(*c.URL), esc(title))
		} else {
			h.write(esc(title))
			if c.URL != nil {
				h.printf(` <span class="dim">(link dropped: not an http or https URL: %s)</span>`, esc(*c.URL))
			}
		}
		if c.StartPageNumber != nil && c.EndPageNumber != nil {
			if last := *c.EndPageNumber - 1; last > *c.StartPageNumber {
				h.printf(`, pages %d-%d`, *c.StartPageNumber, last)
			} else {
				h.printf(`, page %d`, *c.StartPageNumber)
			}
		}
		h.write(`</li>`)
	}
	h.write(`</ol>`)
}

// call writes a tool call, with the places its result and its subagents
// go.
func (h *Writer) call(n int, b *assemble.Block) {
	if b.ID != "" {
		h.calls[b.ID] = n
		if old, out := h.called.Add(b.ID); out {
			delete(h.calls, old)
			h.forget(1, "more than %d tool calls; forgot the oldest, %q: its result and subagents stay where the stream has them", MaxAgents, old)
		}
	}
	a := h.agent(b.Agent)
	a.pending = append(a.pending, n)
	if old, out := h.waiting.Add(waiting{n, b.Agent}); out {
		if o := h.agents[old.agent]; o != nil {
			o.pending = slices.DeleteFunc(o.pending, func(n int) bool { return n == old.call })
		}
		h.forget(1, "more than %d tool calls wait for a result; forgot the oldest, of %q: it gets no \"no result\" line", MaxAgents, old.agent)
	}
	v := render.DescribeCall(b.Name, b.MCPServer, b.Input)
	server := ""
	if b.Type == assemble.TypeServerToolCall {
		server = ` <span class="dim">(server tool)</span>`
	}
	h.printf(`<div class="call"><details open><summary><span class="tool">%s</span>%s`, esc(v.Title), server)
	if v.Summary != "" {
		h.printf(` <code>%s</code>`, esc(oneLine(v.Summary, 200)))
	}
	h.write(`</summary>`)
	if v.Note != "" {
		h.printf(`<p class="dim">%s</p>`, esc(v.Note))
	}
	switch {
	case v.Command != "":
		h.printf(`<pre class="cmd">$ %s</pre>`, esc(v.Command))
	case len(v.Diff) > 0:
		h.diff(v.Diff)
	case len(v.Todos) > 0:
		h.checklist(v.Todos)
	default:
		h.fields(b.Input)
	}
	sub := "subagent"
	if (b.Name == "Task" || b.Name == "Agent") && v.Summary != "" {
		sub += ": " + oneLine(v.Summary, 120)
	}
	h.printf(`<details class="subs" open hidden><summary>%s</summary><div id="%s"></div></details>`, esc(sub), h.id("c", n))
	h.printf(`<div class="result-slot" id="%s"></div>`, h.id("r", n))
	h.write(`</details></div>`)
}

func (h *Writer) diff(lines []string) {
	h.write(`<pre class="diff">`)
	for _, l := range lines {
		class := "ctx"
		switch {
		case strings.HasPrefix(l, "@@"):
			class = "hunk"
		case strings.HasPrefix(l, "+"):
			class = "add"
		case strings.HasPrefix(l, "-"):
			class = "del"
		}
		h.printf(`<span class="%s">%s</span>`+"\n", class, esc(l))
	}
	h.write(`</pre>`)
}

func (h *Writer) checklist(items []render.Todo) {
	h.write(`<ul class="todo">`)
	for _, t := range items {
		checked, mark := "", ""
		if t.Status == "completed" {
			checked = " checked"
		}
		if t.Status == "in_progress" {
			mark = ` <span class="dim">(in progress)</span>`
		}
		h.printf(`<li class="%s"><input type="checkbox" disabled%s> %s%s</li>`, esc(t.Status), checked, esc(t.Text), mark)
	}
	h.write(`</ul>`)
}

// fields writes a JSON object's members as a definition list, strings as
// text and other values as compact JSON; other JSON as it is.
func (h *Writer) fields(raw json.RawMessage) {
	if len(raw) == 0 {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		h.printf(`<pre>%s</pre>`, esc(compact(raw)))
		return
	}
	h.write(`<dl class="fields">`)
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			break
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = compact(v)
		}
		key, _ := k.(string)
		h.printf(`<dt>%s</dt><dd>%s</dd>`, esc(key), esc(s))
	}
	h.write(`</dl>`)
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func (h *Writer) result(b *assemble.Block) {
	var status []string
	if b.ExitCode != nil {
		status = append(status, "exit "+strconv.Itoa(*b.ExitCode))
	}
	switch b.Status {
	case "", "completed", "success", "succeeded", "ok":
	default:
		status = append(status, b.Status)
	}
	failed := b.IsError || (b.ExitCode != nil && *b.ExitCode != 0) || b.Status == "failed"
	if b.IsError && len(status) == 0 {
		status = append(status, "error")
	}
	class := "res"
	if failed {
		class += " failed"
	}
	label := "result"
	if b.Name != "" {
		label += " of " + b.Name
	}
	h.printf(`<div class="%s"><p class="status">↳ %s`, class, esc(label))
	if len(status) > 0 {
		sc := "dim"
		if failed {
			sc = "err"
		}
		h.printf(` · <span class="%s">%s</span>`, sc, esc(strings.Join(status, " · ")))
	}
	h.write(`</p>`)
	if b.Content != nil && *b.Content != "" {
		h.printf(`<pre class="out">%s</pre>`, esc(*b.Content))
	} else if len(b.Images) == 0 {
		h.write(`<p class="dim">(no output)</p>`)
	}
	for _, img := range b.Images {
		switch {
		case dataImage(img.Src):
			h.printf(`<img src="%s" alt="%s">`, esc(img.Src), esc("image from the tool result ("+cmp.Or(img.MediaType, "unknown type")+")"))
		case webURL(img.Src):
			h.printf(`<p class="dim">image (not fetched): <a href="%s" rel="noopener noreferrer nofollow">%s</a></p>`, esc(img.Src), esc(img.Src))
		default:
			h.printf(`<p class="dim">image dropped: not a data: or http(s) URL (%s)</p>`, esc(oneLine(img.Src, 80)))
		}
	}
	h.write(`</div>`)
}

func (h *Writer) metaInit(b *assemble.Block) {
	var meta []string
	label := "agent"
	if b.ParentAgent != "" {
		label = "subagent"
	}
	if b.Name != "" {
		label += " " + b.Name
	}
	for _, kv := range [][2]string{{"", b.Model}, {"session ", b.SessionID}, {"cwd ", b.Cwd}} {
		if kv[1] != "" {
			meta = append(meta, kv[0]+kv[1])
		}
	}
	h.printf(`<p class="dim">● %s <code>%s</code>`, esc(label), esc(b.Agent))
	if len(meta) > 0 {
		h.printf(` · %s`, esc(strings.Join(meta, " · ")))
	}
	h.write(`</p>`)
	if b.Description != "" {
		h.printf(`<p class="dim">%s</p>`, esc(b.Description))
	}
	if b.Prompt != "" {
		h.printf(`<div class="prompt">%s</div>`, esc(b.Prompt))
	}
}

// endLine is a run end's summary: ": end_turn · 3 turns · 1.5s".
func endLine(b *assemble.Block) string {
	var parts []string
	if b.StopReason != "" {
		parts = append(parts, b.StopReason)
	}
	if b.IsError {
		parts = append(parts, "error")
	}
	if b.Turns > 0 {
		parts = append(parts, strconv.Itoa(b.Turns)+" turns")
	}
	if b.DurationMS > 0 {
		parts = append(parts, render.FormatDuration(b.DurationMS))
	}
	if u := b.Usage; u != nil {
		parts = append(parts, countOf(u.InputTokens)+" in / "+countOf(u.OutputTokens)+" out tokens")
	}
	if b.CostUSD != nil {
		parts = append(parts, fmt.Sprintf("$%.4f", *b.CostUSD))
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, " · ")
}

// summary writes the run's summary footer, counted as `agentstream
// usage` counts, and returns the run's line of the index.
func (h *Writer) summary() indexEntry {
	r := h.cnt.Run()
	t := r.Tokens()
	model, session, dur := cmp.Or(r.Model, "unknown"), cmp.Or(r.Session, r.MainAgent, "unknown"), "unknown"
	if r.DurationMS > 0 {
		dur = render.FormatDuration(r.DurationMS)
	}
	tokens := "none reported"
	if len(r.Messages) > 0 {
		tokens = fmt.Sprintf("%s in · %s out · %s cache write · %s cache read · %s reasoning",
			render.FormatCount(t.Input), render.FormatCount(t.Output), render.FormatCount(t.CacheWrite), render.FormatCount(t.CacheRead), render.FormatCount(t.Reasoning))
	}
	cost := "unknown"
	switch {
	case r.CostUSD != nil:
		cost = fmt.Sprintf("$%.4f (reported by the stream)", *r.CostUSD)
	case h.o.Prices != nil && len(r.Messages) > 0:
		rows, _, err := usage.Report([]usage.Run{r}, usage.ByRun, h.o.Prices)
		if err == nil && len(rows) == 1 {
			row := rows[0]
			switch {
			case row.CostUSD != nil && len(row.Unpriced) == 0:
				cost = fmt.Sprintf("$%.4f (at table prices)", *row.CostUSD)
			case len(row.Unpriced) > 0:
				cost = "unpriced: no price for " + strings.Join(row.Unpriced, ", ")
			}
		}
	}
	state, short := "run ended", "ended"
	switch {
	case r.Ended:
	case h.o.TurnEndsRun && h.agent(r.MainAgent).turnEnded:
		state = "run ended (its last turn ended: the format has no run end)"
	default:
		state, short = "no run end in the stream", "no run end"
	}
	if h.truncated {
		state += "; the stream was cut off inside a block"
		short += ", cut off"
	}
	h.printf(`<footer class="summary"><h2>Summary</h2><dl class="meta">`+
		`<dt>Model</dt><dd data-k="model">%s</dd><dt>Session</dt><dd data-k="session">%s</dd>`+
		`<dt>Duration</dt><dd data-k="duration">%s</dd><dt>Tokens</dt><dd data-k="tokens">%s</dd>`+
		`<dt>Cost</dt><dd data-k="cost">%s</dd><dt>State</dt><dd>%s</dd></dl></footer>`+"\n",
		esc(model), esc(session), esc(dur), esc(tokens), esc(cost), esc(state))
	return indexEntry{model: model, cost: cost, state: short}
}

// webURL reports whether s is an http or https URL.
func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// dataImage reports whether s is a data: URL of an image.
func dataImage(s string) bool {
	rest, ok := strings.CutPrefix(s, "data:")
	if !ok {
		return false
	}
	mt, _, ok := strings.Cut(rest, ",")
	return ok && strings.HasPrefix(strings.ToLower(mt), "image/")
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// countOf formats a token count, "?" for one the source did not give.
func countOf(n *int64) string {
	if n == nil {
		return "?"
	}
	return render.FormatCount(*n)
}
