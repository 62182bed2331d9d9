// Package rewrite drives a text scanner over model text: the text blocks of
// another decoder's stream (Wrap) or a plain text input (NewPlain). The
// scanners of the inline XML tool protocols (parse/inlinexml,
// parse/xmltools) turn that text into text, thinking, tool call and result
// events; this package owns what both share: the decoder state (on
// parse/internal/decoderstate), lazily opened
// blocks, valid UTF-8 (invalid bytes become U+FFFD before a scanner sees
// them) and UTF-8 safe delta boundaries, input positions, the white space
// that is layout between elements (Layout), and the final RunEnd a
// protocol's completion tag produces.
package rewrite

import (
	"errors"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Scanner is one protocol's incremental scanner over one agent's text.
type Scanner interface {
	// Feed scans the next piece of text. It emits through o everything
	// s completes and holds back at most what may still be a tag.
	Feed(o *Out, s string)
	// End finishes the text: held-back text is released, unclosed tags
	// are reported. eof says the whole input ended here (the plain text
	// decoder), not only a text block of a wrapped stream. The scanner
	// must be ready for new text afterwards.
	End(o *Out, eof bool)
}

// Out receives one agent's events from a Scanner, in order.
type Out struct {
	agent  string
	source string
	st     *decoderstate.State
	cut    *error // the truncation report, returned after everything else

	kind event.BlockKind   // kind of the bytes in buf
	buf  []byte            // delta text not yet queued
	open []event.BlockKind // the kinds of the open blocks (text, thinking: a short list)
	// keep leaves blocks open: the source's block was cut off, and the
	// encoder's Close reports the blocks left open.
	keep bool
	// ending: the scanner's End is running; its problems wait in later
	// until the blocks it ended are closed.
	ending bool
	later  []error

	// Final is the run's outcome a completion tag recorded; the driver
	// emits it when the text's run ends (or merges it into the source's
	// RunEnd).
	Final *event.RunEnd
}

func newOut(agent, source string, st *decoderstate.State, cut *error) *Out {
	return &Out{agent: agent, source: source, st: st, cut: cut}
}

// Agent returns the agent scope of the events.
func (o *Out) Agent() string { return o.agent }

// Write appends s to the block of kind, opening the block if needed.
func (o *Out) Write(kind event.BlockKind, s string) {
	if s == "" {
		return
	}
	if o.kind != kind {
		o.flush(true)
		o.kind = kind
	}
	if !o.IsOpen(kind) {
		o.open = append(o.open, kind)
		o.push(&event.BlockStart{Agent: o.agent, Kind: kind})
	}
	o.buf = append(o.buf, s...)
}

// Start opens a block of kind (so that an empty block still shows).
func (o *Out) Start(kind event.BlockKind) {
	if !o.IsOpen(kind) {
		o.flush(true)
		o.open = append(o.open, kind)
		o.push(&event.BlockStart{Agent: o.agent, Kind: kind})
	}
}

// End closes the block of kind if it is open. At the end of a source
// block that was cut off it only flushes the block's text: the block
// stays open.
func (o *Out) End(kind event.BlockKind) {
	if o.kind == kind {
		o.flush(true)
	}
	if o.IsOpen(kind) && !o.keep {
		o.open = slices.DeleteFunc(o.open, func(k event.BlockKind) bool { return k == kind })
		o.push(&event.BlockEnd{Agent: o.agent, Kind: kind})
	}
}

// EndAll closes every open block, text first.
func (o *Out) EndAll() {
	o.End(event.Text)
	o.End(event.Thinking)
}

// IsOpen reports whether a block of kind is open.
func (o *Out) IsOpen(kind event.BlockKind) bool { return slices.Contains(o.open, kind) }

// Emit queues a complete event after the text written so far.
func (o *Out) Emit(ev event.Event) {
	o.flush(true)
	o.push(ev)
}

// Errorf queues a *event.ParseError at p wrapping sentinel. A truncation
// (sentinel event.ErrTruncated) is held instead and returned once, after
// every event, as event.Decoder requires; only the first one counts (the
// source's own, when it reported one).
func (o *Out) Errorf(p Pos, sentinel error, format string, args ...any) {
	o.flush(true)
	err := &event.ParseError{
		Source: o.source, Line: p.Line, Column: p.Col, Offset: p.Off,
		Err: event.Errorf(sentinel, format, args...),
	}
	switch {
	case errors.Is(sentinel, event.ErrTruncated):
		if *o.cut == nil {
			*o.cut = err
		}
	case o.ending:
		o.later = append(o.later, err)
	default:
		o.st.ProblemHere(err)
	}
}

// end ends the text with sc.End and closes the blocks it leaves open
// (unless keep is set), then queues the problems End reported: the
// events of the text come before the problems about it.
func (o *Out) end(sc Scanner, eof bool) {
	o.ending = true
	sc.End(o, eof)
	o.ending = false
	if o.keep {
		o.flush(true)
	} else {
		o.EndAll()
	}
	for _, err := range o.later {
		o.st.ProblemHere(err)
	}
	clear(o.later)
	o.later = o.later[:0]
}

func (o *Out) push(ev event.Event) { o.st.Emit(ev) }

// flush queues the pending delta. Unless all is set it keeps back an
// incomplete UTF-8 sequence at the end, so that no Delta splits a rune
// however the input was chunked.
func (o *Out) flush(all bool) {
	if len(o.buf) == 0 {
		return
	}
	n := len(o.buf)
	if !all {
		n = completeUTF8(o.buf)
		if n == 0 {
			return
		}
	}
	o.push(&event.Delta{Agent: o.agent, Kind: o.kind, Text: string(o.buf[:n])})
	o.buf = append(o.buf[:0], o.buf[n:]...)
}

// completeUTF8 returns the length of the longest prefix of b that does not
// end inside a UTF-8 sequence that may still be completed.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		c := b[i]
		if c < utf8.RuneSelf {
			return len(b)
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			return len(b)
		}
	}
	return len(b)
}

// validText makes text that arrives in pieces valid UTF-8 for a scanner:
// a sequence split across two pieces is joined, and each byte that is
// invalid once the bytes after it are known (or the text ended) becomes
// U+FFFD, whatever the chunking.
type validText struct {
	part []byte // an incomplete sequence at the end of the last piece
	n    int64  // bytes given so far
	bad  int64  // offset of the first byte replaced, plus one; 0 if none
}

// piece returns b joined to what the last piece held back, valid, holding
// back an incomplete sequence at its end unless end is set.
func (v *validText) piece(b []byte, end bool) string {
	start := v.n - int64(len(v.part))
	v.n += int64(len(b))
	if len(v.part) > 0 {
		b = append(append([]byte(nil), v.part...), b...)
		v.part = v.part[:0]
	}
	n := len(b)
	if !end {
		n = completeUTF8(b)
		v.part = append(v.part, b[n:]...)
	}
	s := validString(b[:n])
	if len(s) != n && v.bad == 0 {
		v.bad = start + int64(badutf8.FirstInvalid(b[:n])) + 1
	}
	return s
}

// validString returns b as a string with every byte that does not belong
// to a valid UTF-8 sequence replaced by U+FFFD, each on its own.
func validString(b []byte) string { return string(badutf8.Replace(b)) }

// Pos is a position in the scanned text.
type Pos struct {
	Off       int64
	Line, Col int
}

// Start is the position of the first byte.
var Start = Pos{Line: 1, Col: 1}

// Advance moves p over s. Columns count the bytes that start a UTF-8
// sequence, so that a rune split across two pieces of text counts once.
func (p *Pos) Advance(s string) {
	p.Off += int64(len(s))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		p.Line += strings.Count(s, "\n")
		p.Col = 1
		s = s[i+1:]
	}
	for i := 0; i < len(s); i++ {
		if s[i]&0xC0 != 0x80 {
			p.Col++
		}
	}
}

// AdvanceByte moves p over c, counting columns in runes.
func (p *Pos) AdvanceByte(c byte) {
	p.Off++
	switch {
	case c == '\n':
		p.Line++
		p.Col = 1
	case c&0xC0 != 0x80:
		p.Col++
	}
}

// Plain is a decoder of plain model text.
type Plain struct {
	r    io.Reader
	sc   Scanner
	out  *Out
	st   decoderstate.State // what Next returns
	cut  error              // the truncation report, held until the end
	buf  []byte
	text validText
	// head holds the input's first bytes until they are known to be
	// text (format.SniffText): binary data and HTML documents are
	// refused.
	head    []byte
	checked bool
}

// headLimit caps the leading white space held while SniffText cannot
// tell.
const headLimit = 4 << 10

// NewPlain returns a decoder that reads r as one agent's model text and
// scans it with sc.
func NewPlain(r io.Reader, sc Scanner, source, agent string) *Plain {
	p := &Plain{r: r, sc: sc, buf: make([]byte, minRead)}
	p.out = newOut(agent, source, &p.st, &p.cut)
	return p
}

// Next returns the next event. See event.Decoder for the error contract.
func (p *Plain) Next() (event.Event, error) { return p.st.Next(p.read, p.finish) }

// The read buffer starts small (a short text costs no large buffer) and
// doubles each time a read fills it, up to maxRead.
const minRead, maxRead = 512, 32 << 10

// read scans the next piece of the input.
func (p *Plain) read() {
	n, err := p.r.Read(p.buf)
	b := p.buf[:n]
	if !p.checked {
		p.head = append(p.head, b...)
		what, ok := format.SniffText(p.head, err != nil || len(p.head) >= headLimit)
		if !ok {
			return
		}
		p.checked = true
		if what != "" {
			// Not text: no event, and the input is not read on.
			p.st.Problem(&event.ParseError{
				Source: p.out.source, Line: 1, Column: 1,
				Err: event.Errorf(event.ErrSyntax, "not model text: it looks like %s", what),
			})
			p.st.End()
			return
		}
		b, p.head = p.head, nil
	}
	if len(b) > 0 || err == io.EOF {
		if s := p.text.piece(b, err == io.EOF); s != "" {
			p.sc.Feed(p.out, s)
			p.out.flush(false)
		}
	}
	if n == len(p.buf) && n < maxRead {
		p.buf = make([]byte, 2*n) // the scanner keeps nothing of buf
	}
	switch {
	case err == io.EOF:
		p.st.End()
	case err != nil:
		p.st.Fail(err)
	}
}

// finish ends the text: what the scanner holds, the invalid UTF-8 warning
// (at the end, so that the events do not depend on how the input was
// read), the completion's RunEnd, then the truncation.
func (p *Plain) finish() error {
	p.out.end(p.sc, true)
	if p.text.bad > 0 {
		p.st.ProblemHere(badutf8.Warning(p.out.source, 0, 0, p.text.bad-1))
	}
	if p.out.Final != nil {
		p.out.Emit(p.out.Final)
		p.out.Final = nil
	}
	return p.cut
}

// Wrapped rewrites the text blocks of another decoder's stream.
type Wrapped struct {
	dec    event.Decoder
	newSc  func() Scanner
	source string
	agents map[string]*agent
	order  []string           // the agents, in the order they came
	st     decoderstate.State // what Next returns
	cut    error              // the truncation report, held until the end
	capped bool               // an agent was let go of, and reported
	bad    int64              // the invalid UTF-8 of an agent let go of, as agent.text.bad
}

// MaxAgents caps the agents whose text Wrap keeps a scanner for: the same
// default cap as every decoder's open blocks (openset.DefaultMax).
const MaxAgents = openset.DefaultMax

type agent struct {
	out     *Out
	sc      Scanner
	text    validText
	inBlock bool
}

// endText ends the agent's text: what validText held back goes to the
// scanner first.
func (a *agent) endText(eof bool) {
	a.inBlock = false
	if s := a.text.piece(nil, true); s != "" {
		a.sc.Feed(a.out, s)
	}
	a.out.end(a.sc, eof)
}

// Wrap returns a decoder yielding dec's events with the Text blocks'
// content rewritten by a scanner from newScanner (one per agent). Every
// other event passes through unchanged. A scanner's text ends with its
// source text block; a completion result is merged into the agent's next
// RunEnd without a Result, or emitted as a RunEnd at the end of the stream.
func Wrap(dec event.Decoder, newScanner func() Scanner, source string) *Wrapped {
	return &Wrapped{dec: dec, newSc: newScanner, source: source, agents: map[string]*agent{}}
}

func (w *Wrapped) agent(id string) *agent {
	a := w.agents[id]
	if a == nil {
		if len(w.order) == MaxAgents {
			w.letGo()
		}
		a = &agent{out: newOut(id, w.source, &w.st, &w.cut), sc: w.newSc()}
		w.agents[id] = a
		w.order = append(w.order, id)
	}
	return a
}

// letGo forgets the agent that came first, to make room for a new one:
// its text ends there (what its scanner holds comes out, its blocks
// close, its completion's RunEnd is emitted). Reported once.
func (w *Wrapped) letGo() {
	id := w.order[0]
	w.order[0] = ""
	w.order = w.order[1:]
	a := w.agents[id]
	delete(w.agents, id)
	if a.inBlock {
		a.endText(false)
	}
	if a.out.Final != nil {
		a.out.Emit(a.out.Final)
		a.out.Final = nil
	}
	if w.bad == 0 {
		w.bad = a.text.bad
	}
	if !w.capped {
		w.capped = true
		w.st.ProblemHere(&event.ParseError{Source: w.source, Offset: -1, Err: event.Errorf(event.ErrTooManyOpen,
			"text of more than %d agents; let go of the first, %q: its text ended here (later ones are not reported)", MaxAgents, id)})
	}
}

// Next returns the next event. See event.Decoder for the error contract.
func (w *Wrapped) Next() (event.Event, error) { return w.st.Next(w.read, w.finish) }

// read rewrites the source's next event.
func (w *Wrapped) read() {
	ev, err := w.dec.Next()
	if err == io.EOF {
		w.st.End()
		return
	}
	if err != nil {
		var perr *event.ParseError
		switch {
		case !errors.As(err, &perr):
			w.st.Fail(err)
		case errors.Is(err, event.ErrTruncated):
			// Returned after what the scanners still hold.
			if w.cut == nil {
				w.cut = err
			}
		default:
			w.st.ProblemHere(err)
		}
		return
	}
	w.rewrite(ev)
}

// finish releases what the scanners hold, warns once of invalid UTF-8
// (text events of a source that let it through: the offset is in the
// agent's text), and returns the truncation.
func (w *Wrapped) finish() error {
	w.end()
	bad := w.bad
	for _, id := range w.order {
		if bad > 0 {
			break
		}
		bad = w.agents[id].text.bad
	}
	if bad > 0 {
		w.st.ProblemHere(badutf8.Warning(w.source, 0, 0, bad-1))
	}
	return w.cut
}

func (w *Wrapped) rewrite(ev event.Event) {
	switch e := ev.(type) {
	case *event.BlockStart:
		if e.Kind == event.Text {
			w.agent(e.Agent).inBlock = true
			return
		}
		w.yieldTo(e.Agent, e.Kind)
	case *event.Delta:
		if e.Kind == event.Text {
			a := w.agent(e.Agent)
			a.inBlock = true
			if s := a.text.piece([]byte(e.Text), false); s != "" {
				a.sc.Feed(a.out, s)
				a.out.flush(false)
			}
			return
		}
		w.yieldTo(e.Agent, e.Kind)
	case *event.BlockEnd:
		if e.Kind == event.Text {
			a := w.agent(e.Agent)
			if a.inBlock {
				a.endText(false)
			}
			return
		}
		w.yieldTo(e.Agent, e.Kind)
	case *event.RunEnd:
		if a := w.agents[e.Agent]; a != nil {
			if a.inBlock {
				a.endText(false)
			}
			if f := a.out.Final; f != nil {
				a.out.Final = nil
				if e.Result == "" {
					c := *e
					c.Result = f.Result
					c.IsError = c.IsError || f.IsError
					if c.StopReason == "" {
						c.StopReason = f.StopReason
					}
					ev = &c
				}
			}
		}
	}
	w.st.Emit(ev)
}

// yieldTo closes a block of kind that the agent's scanner has open, before
// the source's own block of that kind (a source thinking block while the
// text holds an open <thinking>).
func (w *Wrapped) yieldTo(agent string, kind event.BlockKind) {
	if a := w.agents[agent]; a != nil && a.out.IsOpen(kind) {
		a.out.End(kind)
	}
}

// end releases what the scanners hold at the end of the source. A source
// text block still open was cut off: its text is flushed, but the blocks
// it maps to stay open, as the source left them.
func (w *Wrapped) end() {
	for _, id := range w.order {
		a := w.agents[id]
		if a.inBlock {
			a.out.keep = true
			a.endText(true)
		}
		if a.out.Final != nil {
			a.out.Emit(a.out.Final)
			a.out.Final = nil
		}
	}
}

// AppendByte appends c to the block of kind, as Write.
func (o *Out) AppendByte(kind event.BlockKind, c byte) {
	if o.kind == kind && o.IsOpen(kind) {
		o.buf = append(o.buf, c)
		return
	}
	o.Write(kind, string([]byte{c}))
}

// Layout writes a scanner's free text, dropping the white space that is
// layout: a run of white space at the start or between two elements (the
// layout of "</thinking>\n\n<read_file>"), and one newline right after an
// element. White space is held until other text follows.
type Layout struct {
	started bool   // free text other than white space written since the last element
	after   bool   // an element was read
	held    []byte // white space not yet written
}

// Text writes free text t.
func (l *Layout) Text(o *Out, t string) {
	if !l.started {
		i := 0
		for i < len(t) && isSpace(t[i]) {
			i++
		}
		l.held = append(l.held, t[:i]...)
		if i == len(t) {
			return
		}
		t = t[i:]
		l.started = true
		l.release(o)
	}
	o.Write(event.Text, t)
}

// TextByte writes the free text byte c.
func (l *Layout) TextByte(o *Out, c byte) {
	if !l.started {
		if isSpace(c) {
			l.held = append(l.held, c)
			return
		}
		l.started = true
		l.release(o)
	}
	o.AppendByte(event.Text, c)
}

// Element notes that an element (thinking, a tool call) was read: white
// space held before it is dropped.
func (l *Layout) Element() {
	l.held = l.held[:0]
	l.started, l.after = false, true
}

// TakeHeld appends the white space held to dst and forgets it: an
// element may begin there, or the open tag may turn out to be text.
func (l *Layout) TakeHeld(dst []byte) []byte {
	dst = append(dst, l.held...)
	l.held = l.held[:0]
	return dst
}

// End finishes the text: white space held since the start is written,
// white space after the last element is dropped.
func (l *Layout) End(o *Out) {
	if !l.after {
		o.Write(event.Text, string(l.held))
	}
	l.held, l.after, l.started = l.held[:0], false, false
}

// release writes the white space held before the first other text,
// without its first newline when it follows an element: the newline
// after a close tag is layout.
func (l *Layout) release(o *Out) {
	h := l.held
	if l.after {
		if len(h) > 1 && h[0] == '\r' && h[1] == '\n' {
			h = h[2:]
		} else if len(h) > 0 && h[0] == '\n' {
			h = h[1:]
		}
	}
	o.Write(event.Text, string(h))
	l.held = l.held[:0]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Format completes f, the description of a text rewriting format, with
// what every such format shares: what it cannot carry (everything but
// text, tool calls and tool results), the validation rule it skips (one
// model response: its tool results go in the next request), and its
// NewDecoder and Wrap, made from the function that makes its Config out
// of the command's options and its two constructors: a bad option (an
// unreadable tools file) makes a decoder that fails with it.
func Format[C any, D event.Decoder](f format.Format, config func(*format.Options) (C, error),
	newDecoder func(io.Reader, C) D, wrap func(event.Decoder, C) event.Decoder,
) format.Format {
	f.Lacks = []format.Content{
		format.MetaInit, format.MetaFinal, format.TurnEnd, format.Signature, format.Citations,
		format.CitationExtras, format.Images, format.MCPServer, format.ExitCode, format.Status,
		format.Structured, format.Server, format.Kind, format.AgentID, format.Model, format.Prompt,
		format.StopReason, format.Usage, format.Cost, format.AwaitingTools, format.MetaFiles,
		format.FileChange, format.TodoList, format.ErrorBlock, format.Subagents,
	}
	f.Skips = []string{"GEN007"}
	f.NewDecoder = func(r io.Reader, o *format.Options) event.Decoder {
		cfg, err := config(o)
		if err != nil {
			return format.Failed(err)
		}
		return newDecoder(r, cfg)
	}
	f.Wrap = func(dec event.Decoder, o *format.Options) event.Decoder {
		cfg, err := config(o)
		if err != nil {
			return format.Failed(err)
		}
		return wrap(dec, cfg)
	}
	return f
}
