package xmlstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/agentmeta"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one SSE message, tag or element body (event.DefaultMaxBytes if 0)
	Agent         string // agent id for events before (or without) a meta_init
	// Escaping forces a generation of the producer's per-message escaping:
	// "auto" or "" (detect it), "none", "newline" or "full".
	Escaping string
	// StopAtDone ends the input at data: [DONE], reading nothing after
	// it: for a live connection, which may stay open. Otherwise what
	// follows [DONE] is read as the next stream, as package jsonenv does.
	StopAtDone bool
}

// Decoder reads a legacy XML stream and yields canonical events. See the
// package documentation for the grammar and tolerance rules.
type Decoder struct {
	cfg Config
	fr  *framer
	out decoderstate.State // what Next returns

	// A stream ends with data: [DONE], the main agent's meta_final or the
	// producer's error line; one that stops before any of them, even
	// between blocks, is a cut. data:
	// a message was read; ended: what was read last ends the stream.
	data, ended bool
	// inText: the last message was one textDelta took, so the state it
	// tests is as it needs it.
	inText bool

	line int // position of the message being decoded
	off  int64

	esc    escaper
	doc    validDoc
	deltas deltas
	meta   agentmeta.Reader
	args   jsontext.Reader // checks tool call arguments (jsonText)

	// tokenizer
	buf     []byte // document bytes; buf[pos:] is not consumed yet
	pos     int
	eof     bool
	st      state
	kind    event.BlockKind // open text or thinking block
	stray   bool            // the open block is text found outside any element
	first   bool            // stray: the next byte is text whatever it is
	closeAt string          // the open element's name, whose end tag ends it
	hold    []byte          // stClose: the candidate end tag and white space after it
	holdCut int             // bytes of hold from earlier messages; -1 if it began in this one
	text    []byte          // text of the open block not yet emitted
	textRun int             // bytes at pos known to be text: a tag scan went through them
	// interrupted is the kind of the block an error element cut short,
	// until a block of that kind starts again.
	interrupted event.BlockKind
	sc          tagScan
	bodies      []*body
	cites       []event.Citation
	inCites     bool
	attrTag     string // stAfterAttr: the element whose end tag may follow
	cutTag      bool   // the input ended inside the start tag of a known element

	agents     []*scope              // the scope stack, at most maxOpen
	calls      *openset.Set[callKey] // tool calls waiting for their result
	capped     bool                  // a cap on agents or calls was reported
	pendingErr *event.Error
	cut        error // the framer's report of an input cut inside an SSE message
	badWarned  bool  // invalid UTF-8 was reported

	// docTap, when set, receives every message's data after unescaping:
	// the XML document, for tests.
	docTap func(data []byte, cont bool)
}

type state int

const (
	stTop       state = iota // between elements
	stText                   // inside text or thinking
	stClose                  // after a candidate end tag of the text or thinking block
	stAfterAttr              // after the start tag of an element whose data is in attributes
	stBody                   // inside an element whose body is CDATA (bodies holds the stack)
	stCitations              // inside <citations>
)

// body is an element whose content the decoder collects until its end tag.
type body struct {
	tag      tag
	parts    []event.Part
	cur      []byte // text part being read
	inCDATA  bool
	raw      []byte // text outside CDATA since the last tag
	size     int
	overflow bool
}

// scope is one agent's scope: a meta_init starts one.
type scope struct{ id string }

// callKey is a tool call of a scope, kept to see its result come back.
type callKey struct {
	s  *scope
	id string
}

// maxOpen caps the agent scopes on the stack and the tool calls waiting
// for their result, each: beyond it the oldest is let go and that is
// reported once.
const maxOpen = openset.DefaultMax

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{calls: openset.New[callKey](maxOpen)}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxEventBytes <= 0 {
		d.cfg.MaxEventBytes = event.DefaultMaxBytes
	}
	d.fr = newFramer(r, d.cfg.Source, d.cfg.MaxEventBytes)
	switch escaping(d.cfg.Escaping) {
	case "", escAuto:
		d.esc.gen = escFull
	case escNone, escNewline, escFull:
		d.esc.gen, d.esc.forced = escaping(d.cfg.Escaping), true
	default:
		d.out.Fail(fmt.Errorf("xml: unknown escaping %q (want auto, none, newline or full)", d.cfg.Escaping))
	}
	return d
}

// Detect reports whether an input whose first unit is h is a legacy XML
// stream: SSE whose first data payload starts with '<'.
func Detect(h format.Head) bool {
	return h.SSE && len(h.Payload) > 0 && h.Payload[0] == '<'
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) {
	if d.out.Idle() {
		// The usual message, a delta, returned without the queue.
		if b, off, ok := d.fr.quick(); ok {
			d.line, d.off = d.fr.line-1, off
			if ev := d.textDelta(b); ev != nil {
				return ev, nil
			}
			d.other(message{data: b, line: d.line, off: off})
		}
	}
	return d.out.Next(d.readMessage, func() error { d.finish(); return nil })
}

// readMessage decodes the next SSE message of the input.
func (d *Decoder) readMessage() {
	if b, off, ok := d.fr.quick(); ok {
		// The usual message, without next's error result and the
		// switch on it.
		d.line, d.off = d.fr.line-1, off
		d.message(message{data: b, line: d.line, off: off})
		return
	}
	m, err := d.fr.next()
	if err != nil {
		// An input that ends inside an SSE message loses what it
		// held: one truncation is reported, after what is flushed.
		d.cut = d.out.ReadError(err)
		return
	}
	d.line, d.off = m.line, m.off
	d.message(m)
}

func (d *Decoder) emit(ev event.Event) { d.out.Emit(ev) }

func (d *Decoder) problem(sentinel error, format string, args ...any) {
	d.out.Problem(&event.ParseError{
		Source: d.cfg.Source, Line: d.line, Column: 1,
		Offset: d.off, Err: event.Errorf(sentinel, format, args...),
	})
}

// errorAgent is the agent of the server's error line, which names none:
// the agent whose block it interrupted, else the main agent (the first
// scope), as package jsonenv has it.
func (d *Decoder) errorAgent() string {
	if !d.outside() || len(d.agents) == 0 || d.agents[0].id == "" {
		return d.agent()
	}
	return d.agents[0].id
}

// agent returns the current agent scope.
func (d *Decoder) agent() string {
	if len(d.agents) == 0 || d.agents[len(d.agents)-1].id == "" {
		return d.cfg.Agent
	}
	return d.agents[len(d.agents)-1].id
}

// message decodes one SSE message.
func (d *Decoder) message(m message) {
	if !m.cont {
		if ev := d.textDelta(m.data); ev != nil {
			d.emit(ev)
			return
		}
	}
	d.other(m)
}

// other decodes m, a message textDelta did not take.
func (d *Decoder) other(m message) {
	d.inText = false
	if d.pendingErr != nil {
		if m.cont {
			// The old "Error: ..." line was plain text and could hold
			// raw newlines.
			d.pendingErr.Message += string(validUTF8(m.data))
			return
		}
		d.emit(d.pendingErr)
		d.pendingErr = nil
	}
	if !m.cont {
		d.data, d.ended = true, false
		if string(m.data) == "[DONE]" {
			d.ended = true
			// The end of a stream: a block whose end tag was the last
			// thing in it has ended. A live connection ends here; a file
			// is read on, as the next stream (a resumed run, recordings
			// joined into one file), as the envelope reader does.
			d.flushPart()
			d.resolveClose()
			if d.cfg.StopAtDone {
				d.out.End()
			}
			return
		}
		// Lines that are not document text: what the last message
		// held back of a character is not completed (flushPart).
		if d.outside() {
			if msg, ok := bytes.CutPrefix(m.data, []byte("Error: ")); ok {
				d.flushPart()
				d.resolveClose()
				d.pendingErr = &event.Error{Agent: d.errorAgent(), Message: string(validUTF8(msg)), Fatal: true}
				d.ended = true
				return
			}
		}
		// (The test of the first byte, here, saves most messages the call.)
		if len(m.data) > 0 && m.data[0] == '{' {
			if ev := d.serverError(m.data); ev != nil {
				d.flushPart()
				d.resolveClose()
				d.emit(ev)
				d.ended = true
				return
			}
		}
	}
	data := d.doc.piece(d.esc.unescape(m, d.st == stText), false)
	if d.doc.bad > 0 {
		d.warnBadUTF8() // (no call per message)
	}
	if d.esc.doubt && !d.esc.warned {
		d.esc.warned = true
		d.problem(event.ErrWarning, "warning: escaping generation unsure: this message's JSON reads as JSON both with the current producer's escaping undone and as it is; read with the current one (--xml-escaping forces one)")
	}
	if d.docTap != nil {
		d.docTap(data, m.cont)
	}
	d.feed(data)
}

// flushPart feeds what validDoc held back of a character that will not be
// completed.
func (d *Decoder) flushPart() {
	if b := d.doc.piece(nil, true); len(b) > 0 {
		d.warnBadUTF8()
		d.feed(b)
	}
}

// warnBadUTF8 reports, once, that the document held invalid UTF-8.
func (d *Decoder) warnBadUTF8() {
	if d.doc.bad > 0 && !d.badWarned {
		d.badWarned = true
		d.out.Problem(badutf8.Warning(d.cfg.Source, d.line, 1, d.off))
	}
}

// outside reports whether the tokenizer is between elements.
func (d *Decoder) outside() bool {
	return d.st == stTop || d.st == stClose || d.st == stAfterAttr
}

// serverError recognises the producer's JSON error line. Inside a block
// it must have the traceback key too, since a text delta may look alike.
func (d *Decoder) serverError(data []byte) *event.Error {
	if len(data) == 0 || data[0] != '{' {
		return nil
	}
	var se serverError
	if json.Unmarshal(data, &se) != nil || se.Error == nil {
		return nil
	}
	if se.Traceback == nil && !d.outside() {
		return nil
	}
	return &event.Error{
		Agent: d.errorAgent(), Message: se.Message, Type: *se.Error, Fatal: true,
		Raw: json.RawMessage(bytes.Clone(validUTF8(data))),
	}
}

// finish handles the end of the input: what is open is emitted as far as
// it was read and reported as truncated.
func (d *Decoder) finish() {
	d.inText = false
	d.flushPart()
	d.eof = true
	var open string
	d.run()
	if d.cutTag {
		open = "a tag"
	}
	switch d.st {
	case stText:
		d.flushText()
		if d.stray {
			d.endBlock()
		} else {
			open = d.closeAt
		}
	case stBody:
		open = d.bodies[0].tag.name
		for len(d.bodies) > 0 {
			d.endBody()
		}
		if d.inCites {
			d.endCitations()
		}
	case stCitations:
		open = TagCitations
		d.endCitations()
	}
	if d.pendingErr != nil {
		d.emit(d.pendingErr)
		d.pendingErr = nil
	}
	if open == "" && d.interrupted != "" {
		open = fmt.Sprintf("a %s block an error interrupted", d.interrupted)
	}
	switch {
	case open != "":
		d.problem(event.ErrTruncated, "stream ended inside %s", open)
	case d.cut != nil:
		d.out.Problem(d.cut)
	case d.data && !d.ended:
		d.problem(event.ErrTruncated, "stream ended between blocks, without data: [DONE]")
	}
	d.st = stTop
}
