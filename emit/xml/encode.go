package xml

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/emit/internal/lost"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/agentmeta"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/slab"
	wire "github.com/agentstream/agentstream/parse/xmlstream"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Agent is the agent id of events whose agent is empty.
	Agent string
	// Warn receives what the XML stream cannot carry, once per kind. Nil
	// discards it.
	Warn func(error)
}

// Encoder writes canonical events as the legacy XML stream, message by
// message as the current reference producer does.
type Encoder struct {
	w      io.Writer
	cfg    Config
	losses event.Losses    // what was warned about
	turns  agentmeta.Turns // what of the turns is reported lost
	buf    []byte
	meta   []byte             // scratch for an error object or a chunk built here
	py     agentmeta.Spelling // writes the meta_init and meta_final built here
	err    error

	open    *blockKey // the block open in the XML (&openKey) or nil
	openKey blockKey
	live    *openset.Small[blockKey] // blocks open in the source
	started bool                     // an agent scope has been written or implied
	cur     string                   // the current agent scope
	seen    *openset.Set[string]     // agents that have had a scope
	calls   map[string]string        // tool call id -> agent, for the ids in callIDs
	callIDs *openset.Set[string]     // the tool calls kept, oldest first
	failed  bool                     // the producer's error line was written: no [DONE]

	// An agent's events that came while one of its subagents had the
	// scope (see hold): XML can put them in the agent's scope only once
	// the scope returns to it, at its result for the subagent's call.
	parent    map[string]string // each agent's parent scope
	children  map[string]int    // how many agents of parent have each as their parent
	ended     map[string]bool   // subagents whose scope was returned to a parent
	held      map[string][]event.Event
	heldBytes int
}

// maxHeldBytes caps the events held for agents whose subagent has the
// scope: beyond it they are dropped and reported.
const maxHeldBytes = event.DefaultMaxBytes

// maxOpen caps each of live, seen and callIDs (openset.DefaultMax): beyond
// it the oldest entry is forgotten, which is warned about once.
const maxOpen = openset.DefaultMax

type blockKey struct {
	agent string
	kind  event.BlockKind
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{
		w: w, live: openset.NewSmall[blockKey](maxOpen), seen: openset.New[string](maxOpen),
		calls: map[string]string{}, callIDs: openset.New[string](maxOpen), py: pySpelling,
	}
	if cfg != nil {
		e.cfg = *cfg
	}
	return e
}

func (e *Encoder) warn(what string) {
	e.losses.Report(e.cfg.Warn, "xml", what)
}

// keep adds k to set; beyond the cap the oldest entry is forgotten
// (returned), which is warned about once.
func keep[K comparable](e *Encoder, set interface{ Add(K) (K, bool) }, k K) (old K, out bool) {
	old, out = set.Add(k)
	if out {
		e.warn(fmt.Sprintf("more than %d open blocks, agents or tool calls waiting for a result (the oldest is forgotten)", maxOpen))
	}
	return old, out
}

// Encode writes the messages for ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	if d, ok := ev.(*event.Delta); ok && e.open != nil {
		// A delta of the block open in the XML, of the agent in scope
		// (most events): none of the tests below applies to it (nor
		// does turns.Report: a delta has nothing to report), so it is
		// written without them.
		agent := d.Agent
		if agent == "" {
			agent = e.cfg.Agent
		}
		if e.started && slab.Equal(agent, e.cur) && e.open.kind == d.Kind && slab.Equal(agent, e.open.agent) {
			e.deltaText(d.Text)
			return e.err
		}
	}
	agent := ev.AgentID()
	if agent == "" {
		agent = e.cfg.Agent
	}
	// An event of the agent in scope (most) is neither held nor changes
	// the scope: hold and scope are called for the others.
	if e.started && agent != e.cur && e.hold(agent, ev) {
		return e.err
	}
	if interrupts(ev) {
		e.cut(agent, ev)
	}
	e.turns.Report(ev, e.warn)
	switch ev := ev.(type) {
	case *event.SessionStart:
		e.closeOpen()
		if ev.ParentAgent == "" {
			// A run of its own (a log of many runs): the agents of the
			// runs before are over, and a log of more runs than maxOpen
			// is not too many agents at once.
			e.seen.Clear() // (a new set for every run cost a map per run)
			e.dropHeld()
			clear(e.parent)
			clear(e.children)
			clear(e.ended)
		}
		e.metaInit(agent, ev)
		return e.err
	case *event.Citations, *event.ToolCall, *event.ToolResult, *event.AwaitingTools, *event.Files,
		*event.Error, *event.RunEnd, *event.Unknown:
		// Elements that cannot sit inside a text or thinking block.
		e.closeOpen()
	case *event.TurnEnd:
		if ev.Error != "" {
			e.closeOpen()
		}
	}
	if !e.started || agent != e.cur {
		e.scope(agent, ev)
	}
	switch ev := ev.(type) {
	case *event.BlockStart:
		k := blockKey{agent, ev.Kind}
		keep(e, e.live, k)
		e.openBlock(k)
	case *event.Delta:
		k := blockKey{agent, ev.Kind}
		if e.open == nil || *e.open != k {
			// The block open in the XML is always held in live: only a
			// delta of another block needs the set (a map lookup).
			keep(e, e.live, k)
			e.openBlock(k)
		}
		e.deltaText(ev.Text)
	case *event.BlockEnd:
		k := blockKey{agent, ev.Kind}
		e.live.Remove(k)
		if ev.Signature != "" {
			e.warn("thinking signatures")
		}
		if e.open != nil && *e.open == k {
			e.formatter(closeTag(k.kind))
			e.open = nil
		}
	case *event.Citations:
		e.citations(ev)
	case *event.ToolCall:
		e.toolCall(agent, ev)
	case *event.ToolResult:
		e.toolResult(ev)
		// Its call is answered: nothing more to find it for.
		e.callIDs.Remove(ev.ID)
		delete(e.calls, ev.ID)
		e.release(agent) // the scope is agent's again
	case *event.AwaitingTools:
		tools := make([]wire.PendingTool, 0, len(ev.Tools))
		for _, t := range ev.Tools {
			tools = append(tools, wire.PendingTool{ToolUseID: t.ID, Name: t.Name, Input: inputJSON(t.Input)})
		}
		e.agentLayer(`<` + wire.TagAwaitingTools + ` data="` + htmlEscape(string(marshal(tools))) +
			`"></` + wire.TagAwaitingTools + `>`)
	case *event.Files:
		data := ev.Raw
		if len(data) == 0 {
			type file struct {
				FileID          string `json:"file_id"`
				Filename        string `json:"filename"`
				StorageLocation string `json:"storage_location"`
			}
			files := struct {
				Files []file `json:"files"`
			}{Files: []file{}}
			for _, f := range ev.Files {
				files.Files = append(files.Files, file{f.ID, f.Name, f.Location})
			}
			data = marshal(files)
		}
		e.agentLayer("<" + wire.TagMetaFiles + "><![CDATA[" + cdata(string(compactASCII(data))) +
			"]]></" + wire.TagMetaFiles + ">")
	case *event.Error:
		e.errorEvent(ev)
	case *event.TurnStart:
		// XML has no turn boundaries; the blocks imply them.
	case *event.TurnEnd:
		if ev.Error != "" {
			e.errorObject("turn_failed", ev.Error)
		}
	case *event.RunEnd:
		e.metaFinal(ev)
	case *event.Notice:
		if ev.Kind != event.NoticeAbandoned { // (cut warns about what it gave up)
			e.warn("notices (" + ev.Kind + ")")
		}
	case *event.Unknown:
		if ev.Format == "xml" {
			e.message(ev.Raw)
		} else {
			e.warn("unknown " + ev.Format + " events")
		}
	default: // file changes, todo lists, ...
		e.warn(lost.Kind(ev))
	}
	return e.err
}

// scope makes agent the current scope. A new agent gets a meta_init whose
// parent is the current agent, as the producer writes for a subagent. A
// return to an earlier agent is implied in XML only by a tool result for
// one of its calls; any other return is lost.
func (e *Encoder) scope(agent string, ev event.Event) {
	if !e.started {
		e.started, e.cur = true, agent
		keep(e, e.seen, agent)
		if agent != "" {
			e.warn("the agent id of a stream without meta_init")
		}
		return
	}
	if agent == e.cur {
		return
	}
	e.closeOpen()
	switch {
	case !e.seen.Has(agent):
		parent := e.cur
		e.metaInit(agent, &event.SessionStart{Agent: agent, ParentAgent: parent})
		return
	default:
		if r, ok := ev.(*event.ToolResult); !ok || e.calls[r.ID] != agent {
			e.warn("interleaved agents (XML has no agent scope but meta_init)")
		}
	}
	e.cur = agent
}

// hold keeps ev, an event of agent, for later when one of agent's
// subagents has the scope: written now, XML would make it the
// subagent's (the scope returns to an agent only at its result for a
// tool call). It reports whether it kept ev. The events held for agent
// are written when its scope returns (after that result), in order: the
// agent keeps its own content, later than it came.
func (e *Encoder) hold(agent string, ev event.Event) bool {
	if !e.started || agent == e.cur || e.ended[e.cur] {
		return false
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		return false
	case *event.ToolResult:
		if e.calls[ev.ID] == agent && e.isAncestor(agent, e.cur) {
			// Returns the scope to agent: written, then what agent has
			// held. The subagents between are over: what comes of them
			// later (a turn's end) holds nothing back.
			if e.ended == nil {
				e.ended = map[string]bool{}
			}
			for a := e.cur; a != agent && !e.ended[a]; a = e.parent[a] {
				e.ended[a] = true
			}
			return false
		}
	}
	if len(e.held[agent]) == 0 && !e.isAncestor(agent, e.cur) {
		return false
	}
	n := heldSize(ev)
	if e.heldBytes+n > maxHeldBytes {
		e.warn("an agent's content interleaved with its subagent's beyond MaxEventBytes (dropped)")
		return true
	}
	e.heldBytes += n
	if e.held == nil {
		e.held = map[string][]event.Event{}
	}
	e.held[agent] = append(e.held[agent], ev)
	e.warn("interleaved agents (an agent's content that came while its subagent ran is written after the subagent's end)")
	return true
}

// release writes the events held for agent, whose scope has returned.
func (e *Encoder) release(agent string) {
	evs := e.held[agent]
	if len(evs) == 0 {
		return
	}
	delete(e.held, agent)
	for _, ev := range evs {
		e.heldBytes -= heldSize(ev)
		if e.Encode(ev) != nil {
			return
		}
	}
}

// dropHeld reports the events still held at the end: their agent's scope
// never returned (no result for its subagent's call), so XML has no
// place where they would be read as theirs.
func (e *Encoder) dropHeld() {
	if len(e.held) > 0 {
		e.warn("an agent's content that came while its subagent ran, when the subagent never ended (dropped)")
		clear(e.held)
		e.heldBytes = 0
	}
}

// heldSize is what a held event counts against maxHeldBytes.
func heldSize(ev event.Event) int {
	const base = 64
	switch ev := ev.(type) {
	case *event.Delta:
		return base + len(ev.Text)
	case *event.ToolCall:
		return base + len(ev.Input)
	case *event.ToolResult:
		n := base + len(ev.Structured)
		for _, p := range ev.Content {
			n += len(p.Text) + len(p.Source)
		}
		return n
	}
	return base
}

// isAncestor reports whether agent is a parent, or a parent's parent, of
// scope.
func (e *Encoder) isAncestor(agent, scope string) bool {
	if e.children[agent] == 0 {
		// No agent's parent: the walk up from scope cannot meet it
		// (it took up to maxOpen steps for each event of a new agent).
		return false
	}
	for range len(e.parent) + 1 {
		p, ok := e.parent[scope]
		if !ok {
			return false
		}
		if p == agent {
			return true
		}
		scope = p
	}
	return false
}

func (e *Encoder) metaInit(agent string, ev *event.SessionStart) {
	p := ev.ParentAgent
	if p == "" && ev.ParentToolID != "" && e.started {
		p = e.cur // started by a tool call of the agent in scope
	}
	if p != "" {
		if p != agent {
			if e.parent == nil {
				e.parent = map[string]string{}
			}
			if e.children == nil {
				e.children = map[string]int{}
			}
			if len(e.parent) >= maxOpen {
				// As seen forgets the oldest agents: the relations of a
				// run of very many subagents are let go of, all at once.
				clear(e.parent)
				clear(e.children)
				clear(e.ended)
			}
			if old, ok := e.parent[agent]; ok {
				if e.children[old]--; e.children[old] == 0 {
					delete(e.children, old)
				}
			}
			e.parent[agent] = p
			e.children[p]++
		}
	}
	e.started, e.cur = true, agent
	keep(e, e.seen, agent)
	if ev.MetaKind == wire.MetaKind && len(ev.Meta) > 0 {
		e.metaElement(wire.TagMetaInit, ev.Meta, true)
		return
	}
	b := append(append(append(e.buf[:0], "data: <"...), wire.TagMetaInit...), ` data="`...)
	b = e.py.AppendInit(b, agent, ev)
	e.buf = append(append(append(b, `"></`...), wire.TagMetaInit...), ">\n\n"...)
	e.write(e.buf)
}

// metaFinal writes the meta_final element of ev.
func (e *Encoder) metaFinal(ev *event.RunEnd) {
	if ev.MetaKind != wire.MetaKind || len(ev.Meta) == 0 {
		b := append(append(append(e.buf[:0], "data: <"...), wire.TagMetaFinal...), ` data="`...)
		if b, ok := e.py.AppendFinal(b, ev); ok {
			e.buf = append(append(append(b, `"></`...), wire.TagMetaFinal...), ">\n\n"...)
			e.write(e.buf)
			return
		}
	}
	data, own := metaFinal(ev)
	e.metaElement(wire.TagMetaFinal, data, own)
}

// metaElement writes the meta_init or meta_final element tag with data as
// agent.py puts it on the queue: unescaped. Data of the producer's own
// (own) is made ASCII (appendMetaData); data marshal wrote is already.
func (e *Encoder) metaElement(tag string, data []byte, own bool) {
	b := append(append(append(e.buf[:0], "data: <"...), tag...), ` data="`...)
	if own {
		b = appendMetaData(b, data)
	} else {
		b = appendASCIIData(b, data)
	}
	e.buf = append(append(append(b, `"></`...), tag...), ">\n\n"...)
	e.write(e.buf)
}

// openTag and closeTag return the start and end tags of a block of kind
// k: constants, not built for every block.
func openTag(k event.BlockKind) string {
	if k == event.Thinking {
		return "<" + wire.TagThinking + ">"
	}
	return "<" + wire.TagText + ">"
}

func closeTag(k event.BlockKind) string {
	if k == event.Thinking {
		return "</" + wire.TagThinking + ">"
	}
	return "</" + wire.TagText + ">"
}

// openBlock makes k the block open in the XML, closing another one: XML
// cannot interleave blocks, so a block that resumes later is split.
func (e *Encoder) openBlock(k blockKey) {
	if e.open != nil && *e.open == k {
		return
	}
	e.closeOpen()
	e.openKey = k // open points here: no allocation per block
	e.open = &e.openKey
	e.formatter(openTag(k.kind))
}

// closeOpen closes the block open in the XML before something that cannot
// sit inside it. If the source has not ended the block, it is split.
// interrupts reports whether ev cuts short the agent's open blocks: they
// get no BlockEnd, and a BlockStart of the same kind begins a new block.
func interrupts(ev event.Event) bool {
	switch ev := ev.(type) {
	case *event.Error:
		return true
	case *event.Notice:
		return ev.Kind == event.NoticeAbandoned
	}
	return false
}

// cut ends the agent's open blocks where an error or an abandon cut them
// short: the element is closed (the next block is a new one) and they are
// no longer open. XML cannot say a block was given up: one abandoned
// reads back as content, warned (convert.AbandonHold drops it before it
// comes here, for a source that can abandon).
func (e *Encoder) cut(agent string, ev event.Event) {
	open := false
	if e.open != nil && e.open.agent == agent {
		e.live.Remove(*e.open)
		e.closeOpen()
		open = true
	}
	if e.live.Len() > 0 { // (All makes an iterator, two allocations)
		for k := range e.live.All() {
			if k.agent == agent {
				e.live.Remove(k)
				open = true
			}
		}
	}
	if n, ok := ev.(*event.Notice); ok && open && n.Kind == event.NoticeAbandoned {
		e.warn("abandoned partial messages (what was streamed of them reads back as content)")
	}
}

func (e *Encoder) closeOpen() {
	if e.open == nil {
		return
	}
	if e.live.Has(*e.open) {
		e.warn("interleaved blocks (a block is split where other content interrupts it)")
	}
	e.formatter(closeTag(e.open.kind))
	e.open = nil
}

func (e *Encoder) citations(ev *event.Citations) {
	var sb strings.Builder
	sb.WriteString("<" + wire.TagCitations + ">")
	for _, c := range ev.Items {
		if len(c.Raw) > 0 {
			e.warn("citation fields beyond the XML attributes")
		}
		sb.WriteString(`<` + wire.TagCitation + ` type="` + htmlEscape(c.Type) + `"`)
		num := func(name string, v *int64) {
			s := ""
			if v != nil {
				s = strconv.FormatInt(*v, 10)
			}
			sb.WriteString(" " + name + `="` + s + `"`)
		}
		str := func(name string, v *string) {
			s := ""
			if v != nil {
				s = *v
			}
			sb.WriteString(" " + name + `="` + htmlEscape(s) + `"`)
		}
		var extra bool
		switch c.Type {
		case "char_location":
			num("document_index", c.DocumentIndex)
			str("document_title", c.DocumentTitle)
			num("start_char_index", c.StartCharIndex)
			num("end_char_index", c.EndCharIndex)
			extra = c.StartPageNumber != nil || c.EndPageNumber != nil || c.URL != nil || c.Title != nil
		case "page_location":
			num("document_index", c.DocumentIndex)
			str("document_title", c.DocumentTitle)
			num("start_page_number", c.StartPageNumber)
			num("end_page_number", c.EndPageNumber)
			extra = c.StartCharIndex != nil || c.EndCharIndex != nil || c.URL != nil || c.Title != nil
		case "web_search_result_location":
			str("url", c.URL)
			str("title", c.Title)
			extra = c.DocumentIndex != nil || c.DocumentTitle != nil || c.StartCharIndex != nil ||
				c.EndCharIndex != nil || c.StartPageNumber != nil || c.EndPageNumber != nil
		default:
			num("document_index", c.DocumentIndex)
			extra = c.DocumentTitle != nil || c.StartCharIndex != nil || c.EndCharIndex != nil ||
				c.StartPageNumber != nil || c.EndPageNumber != nil || c.URL != nil || c.Title != nil
		}
		if extra {
			e.warn("citation fields outside the XML attribute set of their type")
		}
		sb.WriteString("><![CDATA[" + cdata(c.CitedText) + "]]></" + wire.TagCitation + ">")
	}
	sb.WriteString("</" + wire.TagCitations + ">")
	e.formatter(sb.String())
}

func (e *Encoder) toolCall(agent string, ev *event.ToolCall) {
	tag := wire.TagToolCall
	if ev.Server {
		tag = wire.TagServerToolCall
	}
	if ev.MCPServer != "" {
		e.warn("the MCP server of a tool call")
	}
	if old, out := keep(e, e.callIDs, ev.ID); out {
		delete(e.calls, old)
	}
	e.calls[ev.ID] = agent
	// The element as formatter writes it, in one pass over each part:
	// the arguments are pyJSON's, HTML-escaped, backslashes doubled.
	b := append(append(append(e.buf[:0], "data: <"...), tag...), ` id="`...)
	b = appendHTMLFormatted(b, ev.ID)
	b = append(b, `" name="`...)
	b = appendHTMLFormatted(b, ev.Name)
	b = append(b, `" arguments="`...)
	b = appendReformat(b, inputJSON(ev.Input), ", ", ": ", &pyHTMLFormatted)
	e.buf = append(append(append(b, `"></`...), tag...), ">\n\n"...)
	e.write(e.buf)
}

// inputJSON is the tool input, {} when there is none (where the producer
// writes "", its bug B3).
func inputJSON(in json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(in)) == 0 {
		return json.RawMessage("{}")
	}
	return in
}

func (e *Encoder) toolResult(ev *event.ToolResult) {
	if ev.IsError {
		e.warn("tool result is_error")
	}
	if ev.ExitCode != nil || ev.Status != "" {
		e.warn("tool result exit codes and status")
	}
	if len(ev.Structured) > 0 {
		e.warn("structured tool results")
	}
	var images []event.Part
	for _, p := range ev.Content {
		if p.Type == "image" {
			images = append(images, p)
		}
	}
	if ev.Server {
		if len(images) > 0 {
			e.warn("images in server tool results")
		}
		const tag = wire.TagServerToolResult // (a constant: no concatenation at run time)
		b := append(e.meta[:0], `<`+tag+` id="`...)
		b = appendHTML(b, ev.ID)
		b = append(b, `" name="`...)
		b = appendHTML(b, ev.Name)
		b = append(b, `"><![CDATA[`...)
		b = appendResultText(b, ev.Content)
		e.meta = append(b, `]]></`+tag+`>`...)
		e.formatterBytes(e.meta)
		return
	}
	// The text is the text parts joined with LF, which neither check
	// below can see across: each part is checked on its own.
	var literalLF, cr bool
	for _, p := range ev.Content {
		if p.Type != "image" {
			literalLF = literalLF || strings.Contains(p.Text, `\n`)
			cr = cr || strings.Contains(p.Text, "\r")
		}
	}
	if literalLF {
		e.warn(`a literal \n in tool result text (XML reads it as a newline)`)
	}
	if cr {
		e.warn("carriage returns in tool result text (XML writes them as newlines)")
	}
	const tag = wire.TagToolResult
	b := append(e.meta[:0], `<`+tag+` id="`...)
	b = appendHTML(b, ev.ID)
	b = append(b, `" name="`...)
	b = appendHTML(b, ev.Name)
	b = append(b, `">`...)
	if len(images) == 0 {
		b = append(b, "<![CDATA["...)
		b = appendResultText(b, ev.Content)
		b = append(b, "]]>"...)
	} else {
		b = append(b, "<"+wire.TagResultText+"><![CDATA["...)
		b = appendResultText(b, ev.Content)
		b = append(b, "]]></"+wire.TagResultText+">"...)
		for _, img := range images {
			b = append(b, `<`+wire.TagResultImage+` src="`...)
			b = appendHTML(b, img.Source)
			b = append(b, `" media_type="`...)
			b = appendHTML(b, img.MediaType)
			b = append(b, `" />`...)
		}
	}
	e.meta = append(b, "</"+tag+">"...)
	// agent.py escapes tool results on its own: CR and CRLF to LF, then LF
	// to \n, backslashes left alone.
	b = append(e.buf[:0], "data: "...)
	b = appendResultLines(b, e.meta)
	e.buf = append(b, "\n\n"...)
	e.write(e.buf)
}

// appendResultText appends the text parts of content (not the images),
// joined with LF, as CDATA holds them (cdata).
func appendResultText(b []byte, content []event.Part) []byte {
	first := true
	for _, p := range content {
		if p.Type == "image" {
			continue
		}
		if !first {
			b = append(b, '\n')
		}
		first = false
		b = appendCDATA(b, p.Text)
	}
	return b
}

// appendCDATA appends cdata(s).
func appendCDATA(b []byte, s string) []byte {
	for {
		i := strings.Index(s, "]]>")
		if i < 0 {
			return append(b, s...)
		}
		b = append(append(b, s[:i]...), "]]]]><![CDATA[>"...)
		s = s[i+3:]
	}
}

// appendResultLines appends s with CRLF and CR made LF, then LF written
// as \n, in one pass: the producer's escaping of a tool result.
func appendResultLines(b, s []byte) []byte {
	if bytes.IndexByte(s, '\r') < 0 {
		// No CR (most results): each LF found by IndexByte.
		for {
			i := bytes.IndexByte(s, '\n')
			if i < 0 {
				return append(b, s...)
			}
			b = append(append(b, s[:i]...), '\\', 'n')
			s = s[i+1:]
		}
	}
	for {
		i := bytes.IndexAny(s, "\r\n")
		if i < 0 {
			return append(b, s...)
		}
		b = append(append(b, s[:i]...), '\\', 'n')
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
}

func (e *Encoder) errorEvent(ev *event.Error) {
	if ev.Fatal {
		if serverErrorLine(ev.Raw) {
			// The server's own error line, after which nothing follows.
			e.message(compactLines(ev.Raw))
			e.failed = true
			return
		}
	}
	if len(ev.Raw) == 0 {
		e.errorObject(ev.Type, ev.Message)
		return
	}
	e.errorBlock(ev.Raw)
}

// errorObject writes errorBlock of appendErrorJSON(typ, msg). With no
// "]]>" in either (which cdata would split), that is appendErrorJSON with
// its backslashes doubled, written in one pass.
func (e *Encoder) errorObject(typ, msg string) {
	if strings.Contains(typ, "]]>") || strings.Contains(msg, "]]>") {
		e.meta = appendErrorJSON(e.meta[:0], typ, msg)
		e.errorBlock(e.meta)
		return
	}
	b := append(e.buf[:0], "data: <"+wire.TagError+"><![CDATA["+`{"type": `...)
	b = appendPy(b, typ, &pyFormatted)
	b = append(b, `, "message": `...)
	b = appendPy(b, msg, &pyFormatted)
	e.buf = append(b, "}]]></"+wire.TagError+">\n\n"...)
	e.write(e.buf)
}

// serverErrorLine reports whether b is the server's JSON error line.
func serverErrorLine(b []byte) bool {
	var se struct {
		Error     *string `json:"error"`
		Traceback *string `json:"traceback"`
	}
	return json.Unmarshal(b, &se) == nil && se.Error != nil && se.Traceback != nil
}

func (e *Encoder) errorBlock(data []byte) {
	b := append(e.buf[:0], "data: <"+wire.TagError+"><![CDATA["...)
	b = appendErrorData(b, data)
	e.buf = append(b, "]]></"+wire.TagError+">\n\n"...)
	e.write(e.buf)
}

// appendErrorData appends s as errorBlock writes it: cdata's split of
// every "]]>", then formatter's escaping (the split's text has nothing
// formatter escapes, so each piece is escaped on its own, eight bytes at
// a time between the bytes it escapes).
func appendErrorData(b, s []byte) []byte {
	for {
		i := bytes.Index(s, []byte("]]>"))
		if i < 0 {
			return appendFormatted(b, s)
		}
		b = append(appendFormatted(b, s[:i]), "]]]]><![CDATA[>"...)
		s = s[i+3:]
	}
}

// cdata splits every "]]>" as "]]]]><![CDATA[>", which the producer does
// for tool results only.
func cdata(s string) string {
	return strings.ReplaceAll(s, "]]>", "]]]]><![CDATA[>")
}

func compactLines(raw []byte) []byte {
	if !bytes.ContainsAny(raw, "\r\n") {
		return raw
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return bytes.ReplaceAll(bytes.ReplaceAll(raw, []byte("\r"), nil), []byte("\n"), []byte(" "))
	}
	return buf.Bytes()
}

// deltaText writes the text of a delta of the open block, as formatter
// does.
func (e *Encoder) deltaText(s string) {
	switch {
	case s == "":
	case s == "[DONE]" || strings.HasPrefix(s, "{") && serverErrorLine([]byte(s)):
		// A message that reads as the end of the stream or as the
		// server's error line: split it, the text stays the same.
		e.formatter(s[:1])
		e.formatter(s[1:])
	default:
		e.formatter(s)
	}
}

// formatter writes a chunk as formatters.py does: every backslash doubled,
// LF as \n. agentstream also writes CR as \r, where the producer writes a
// raw CR that breaks the SSE framing.
func (e *Encoder) formatter(s string) {
	e.buf = append(appendFormatted(append(e.buf[:0], "data: "...), s), "\n\n"...)
	e.write(e.buf)
}

// formatterBytes is formatter of a chunk built in a buffer.
func (e *Encoder) formatterBytes(s []byte) {
	e.buf = append(appendFormatted(append(e.buf[:0], "data: "...), s), "\n\n"...)
	e.write(e.buf)
}

// appendFormatted appends s escaped as formatter writes it.
func appendFormatted[T string | []byte](b []byte, s T) []byte {
	for {
		i := indexFormatter(s)
		if i < 0 {
			return append(b, s...)
		}
		b = appendFormatterEscape(append(b, s[:i]...), s[i])
		s = s[i+1:]
	}
}

// appendFormatterEscape appends what the formatter writes for c, one of
// the bytes it escapes (a backslash, a line feed, a carriage return).
func appendFormatterEscape(b []byte, c byte) []byte {
	switch c {
	case '\\':
		return append(b, '\\', '\\')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	}
	return b
}

// agentLayer writes a chunk agent.py puts on the queue itself: unescaped.
// Its JSON holds no line break.
func (e *Encoder) agentLayer(s string) {
	e.buf = append(append(append(e.buf[:0], "data: "...), s...), "\n\n"...)
	e.write(e.buf)
}

// message writes one SSE message.
func (e *Encoder) message(b []byte) {
	e.buf = append(append(append(e.buf[:0], "data: "...), b...), "\n\n"...)
	e.write(e.buf)
}

// write writes one whole SSE message, built in e.buf: one buffer for every
// message, escaped in runs between the bytes that need it.
func (e *Encoder) write(msg []byte) {
	if e.err != nil {
		return
	}
	_, e.err = e.w.Write(msg)
}

// Close ends the stream with "data: [DONE]". When a block is still open
// (the input was cut off), it writes neither the block's end tag nor
// [DONE], so the output is cut off too, and reports the truncation.
// Cut ends a stream whose input was cut off: what is open stays open,
// no [DONE] (event.Cutter).
func (e *Encoder) Cut() error {
	if e.err != nil {
		return e.err
	}
	e.dropHeld()
	return fmt.Errorf("xml: %w: the input was cut off, no [DONE] written", event.ErrTruncated)
}

func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	e.dropHeld()
	if n := e.live.Len(); n > 0 {
		return fmt.Errorf("xml: %w: %d block(s) left open, no [DONE] written", event.ErrTruncated, n)
	}
	e.turns.ReportEnd(e.warn)
	e.closeOpen()
	if !e.failed {
		e.message([]byte("[DONE]"))
	}
	return e.err
}
