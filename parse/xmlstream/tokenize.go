package xmlstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
)

// feed appends document bytes and decodes what they complete. Text of the
// open block goes out as at most one Delta per call.
func (d *Decoder) feed(data []byte) {
	if d.pos > 0 && d.pos == len(d.buf) {
		d.buf, d.pos = d.buf[:0], 0
	}
	if d.st == stClose && d.holdCut < 0 {
		d.holdCut = len(d.hold) // what the earlier messages held
	}
	d.buf = append(d.buf, data...)
	d.run()
	d.flushText()
}

// textDelta decodes b, a message's data (not a continuation), as message
// would when it is what most messages are, a piece of the open text or thinking block: after a message that
// left nothing over, with no '<', in an escaping known for sure (so that
// unescape only undoes it, the same each time it is called), and valid
// UTF-8 once unescaped; not [DONE] and not an error line. Such a message
// is one Delta of its unescaped text, what validDoc, feed, run and
// flushText would make of it, without their calls, the copies into buf
// and text, and the checks of what it is not. It returns the Delta, not
// emitted (Next returns it without the queue), or nil for any other
// message.
func (d *Decoder) textDelta(b []byte) *event.Delta {
	// The decoder's state is tested only after another message: one
	// that textDelta took leaves it as it was.
	if !d.inText && (d.pendingErr != nil || d.st != stText || d.stray || d.first || d.textRun != 0 ||
		len(d.text) != 0 || d.pos != len(d.buf) || len(d.doc.part) != 0 || d.docTap != nil ||
		!d.esc.sure && !d.esc.forced) {
		return nil
	}
	if len(b) == 0 || b[0] == '{' || string(b) == "[DONE]" || bytes.IndexByte(b, '<') >= 0 {
		return nil
	}
	if b = d.esc.text(b); !badutf8.Valid(b) {
		return nil
	}
	d.data, d.ended, d.inText = true, false, true
	d.buf, d.pos = d.buf[:0], 0
	d.sc.work += int64(len(b))
	return d.deltas.make(d.agent(), d.kind, b)
}

func (d *Decoder) rest() []byte { return d.buf[d.pos:] }

func (d *Decoder) consume(n int) {
	d.pos += n
	d.textRun = max(d.textRun-n, 0)
}

// run steps the tokenizer until it needs more input.
func (d *Decoder) run() {
	for d.step() {
	}
	if d.pos > 0 && d.pos >= len(d.buf)/2 {
		n := copy(d.buf, d.buf[d.pos:])
		d.buf, d.pos = d.buf[:n], 0
	}
}

// step makes one move. It reports false when it needs more input.
func (d *Decoder) step() bool {
	switch d.st {
	case stTop:
		return d.stepTop()
	case stText:
		return d.stepText()
	case stClose:
		return d.stepClose()
	case stAfterAttr:
		return d.stepAfterAttr()
	case stBody:
		return d.stepBody()
	case stCitations:
		return d.stepCitations()
	}
	return false
}

func (d *Decoder) skipSpace() []byte {
	b := d.rest()
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	d.consume(i)
	return b[i:]
}

func (d *Decoder) stepTop() bool {
	b := d.skipSpace()
	if len(b) == 0 {
		return false
	}
	if b[0] != '<' {
		d.startStray()
		return true
	}
	t, n, m := scanTag(b, d.eof, d.cfg.MaxEventBytes, &d.sc)
	switch m {
	case more:
		return false
	case no:
		if d.eof && cutTopTag(b, d.cfg.MaxEventBytes) {
			d.cutTag = true
			d.consume(len(b))
			return false
		}
		d.textRun = n // scanned to its end without finding a tag
		d.startStray()
		return true
	}
	if t.close && d.interrupted != "" && t.name == blockTagOf(d.interrupted) {
		// The end tag of the block an error element interrupted: older
		// producers close the block after the error. It ends the block
		// (whose text is whole), rather than being text of its own.
		d.consume(n)
		d.emit(&event.BlockEnd{Agent: d.agent(), Kind: d.interrupted})
		d.interrupted = ""
		return true
	}
	if t.close || !isTopTag(t.name) {
		// An orphan end tag or an unknown element: text, as the
		// reference parser shows it.
		d.startStray()
		return true
	}
	d.consume(n)
	switch t.name {
	case TagText, TagThinking:
		d.kind = event.Text
		if t.name == TagThinking {
			d.kind = event.Thinking
		}
		if d.kind == d.interrupted {
			d.interrupted = ""
		}
		d.emit(&event.BlockStart{Agent: d.agent(), Kind: d.kind})
		if t.selfClose {
			d.emit(&event.BlockEnd{Agent: d.agent(), Kind: d.kind})
			return true
		}
		d.st, d.stray, d.closeAt = stText, false, t.name
	case TagToolCall, TagServerToolCall, TagMetaInit, TagMetaFinal, TagAwaitingTools:
		d.attrElement(&t)
		if !t.selfClose {
			d.st, d.attrTag = stAfterAttr, t.name
		}
	case TagCitations:
		d.cites, d.inCites = nil, true
		d.st = stCitations
		if t.selfClose {
			d.endCitations()
		}
	default: // tool results, error, meta_files
		d.bodies = append(d.bodies[:0], &body{tag: t})
		d.st = stBody
		if t.selfClose {
			d.endBody()
		}
	}
	return true
}

// attrEscaper escapes an attribute value as the producer does.
var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")

func (d *Decoder) startStray() {
	d.problem(event.ErrSyntax, "text outside any element (kept as a text block)")
	d.kind, d.stray, d.first = event.Text, true, true
	d.emit(&event.BlockStart{Agent: d.agent(), Kind: event.Text})
	d.st = stText
}

// stepText reads text or thinking up to the end tag of the open block;
// everything else, tags included, is text. Stray text ends at the next
// start tag of a known element.
func (d *Decoder) stepText() bool {
	b := d.rest()
	if len(b) == 0 {
		return false
	}
	from := 0
	if d.first {
		from, d.first = 1, false
	}
	from = max(from, min(d.textRun, len(b)))
	for {
		i := bytes.IndexByte(b[from:], '<')
		if i < 0 {
			d.sc.work += int64(len(b) - from)
		} else {
			d.sc.work += int64(i + 1)
		}
		if i < 0 {
			n := len(b)
			if !d.eof && b[n-1] >= utf8.RuneSelf {
				// (The test saves the call on text ending in ASCII.)
				n = completeRunes(b)
			}
			d.addText(b[:n])
			d.consume(n)
			return false
		}
		i += from
		var n int
		var m match
		if d.stray {
			m = knownTopAt(b[i:], d.eof)
		} else {
			n, m = matchClose(b[i:], d.closeAt, d.eof)
			if m == no {
				switch hasPrefixOrMore(b[i:], errorInText, d.eof) {
				case more:
					m = more
				case yes:
					d.addText(b[:i])
					d.consume(i)
					d.interruptText()
					return true
				}
			}
		}
		switch m {
		case more:
			d.addText(b[:i])
			d.consume(i)
			return false
		case yes:
			d.addText(b[:i])
			d.consume(i)
			if d.stray {
				d.endBlock()
				return true
			}
			d.hold = append(d.hold[:0], b[i:i+n]...)
			d.holdCut = -1
			d.consume(n)
			d.st = stClose
			return true
		}
		from = i + 1
	}
}

// completeRunes returns the length of b without a partial UTF-8 sequence
// at its end.
func completeRunes(b []byte) int {
	for k := 1; k <= utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return len(b)
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-k:]) {
				return len(b)
			}
			return len(b) - k
		}
	}
	return len(b)
}

// validDoc makes the document valid UTF-8 as its messages arrive: a
// sequence split across messages is joined, and each byte that is invalid
// once the bytes after it are known (or the input ended) becomes U+FFFD,
// whatever the chunking.
type validDoc struct {
	part []byte // an incomplete sequence at the end of the last message
	bad  int    // bytes replaced so far
}

// piece returns b joined to what the last message held back, valid,
// holding back an incomplete sequence at its end unless end is set.
func (v *validDoc) piece(b []byte, end bool) []byte {
	if len(v.part) > 0 {
		b = append(append([]byte(nil), v.part...), b...)
		v.part = v.part[:0]
	}
	n := len(b)
	// A piece ending in ASCII (most do) holds nothing back: completeRunes
	// and the append are skipped, and the piece is checked here, with
	// Replace only for invalid bytes (no calls' overhead per message).
	if !end && n > 0 && b[n-1] >= utf8.RuneSelf {
		n = completeRunes(b)
		v.part = append(v.part, b[n:]...)
	}
	if badutf8.Valid(b[:n]) {
		return b[:n]
	}
	v.bad++ // Replace makes it longer: each invalid byte becomes three
	return validUTF8(b[:n])
}

// validUTF8 returns b with every byte that does not belong to a valid
// UTF-8 sequence replaced by U+FFFD, each on its own, so that the result
// does not depend on where the input was cut; b itself when b is valid.
func validUTF8(b []byte) []byte { return badutf8.Replace(b) }

func (d *Decoder) addText(b []byte) { d.text = append(d.text, b...) }

// flushText emits the open block's pending text as one Delta.
func (d *Decoder) flushText() {
	if len(d.text) == 0 {
		return
	}
	ev := d.deltas.make(d.agent(), d.kind, d.text) // valid: the document is (see validDoc)
	d.text = d.text[:0]
	d.emit(ev)
}

// errorInText starts the producer's API error element. The producer
// writes it when the API call fails while a block streams (it never closes
// that block), so inside text and thinking it is read as the error, not
// as text: a model writing this very string is far less likely.
const errorInText = "<" + TagError + "><![CDATA["

// interruptText ends the open block without its end tag, cut short by the
// error element at the input, which is read next.
func (d *Decoder) interruptText() {
	d.flushText()
	d.interrupted = d.kind
	d.st, d.stray = stTop, false
	d.consume(len("<" + TagError + ">"))
	d.bodies = append(d.bodies[:0], &body{tag: tag{name: TagError}})
	d.st = stBody
}

func (d *Decoder) endBlock() {
	d.flushText()
	d.emit(&event.BlockEnd{Agent: d.agent(), Kind: d.kind})
	d.st, d.stray = stTop, false
}

// stepClose decides whether the end tag just read ends the block: it does
// when the input ends or the next thing is the start of a known element;
// otherwise the model wrote it and it is text.
func (d *Decoder) stepClose() bool {
	b := d.rest()
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	d.hold = append(d.hold, b[:i]...)
	d.consume(i)
	b = b[i:]
	m := no
	switch {
	case len(d.hold) > d.cfg.MaxEventBytes:
		// White space without end: memory stays bounded, and the end
		// tag counts as text.
	case len(b) == 0 && !d.eof:
		return false
	case len(b) == 0:
		m = yes
	case b[0] == '<':
		m = knownTopAt(b, d.eof)
		if m == no && d.eof && cutTopTag(b, d.cfg.MaxEventBytes) {
			m = yes
		}
	}
	switch m {
	case more:
		return false
	case yes:
		d.endBlock()
	default:
		if d.holdCut >= 0 {
			// The end tag came in an earlier message: it was that
			// message's text, so it goes out as its own delta.
			d.flushText()
			d.addText(d.hold[:d.holdCut])
			d.flushText()
			d.addText(d.hold[d.holdCut:])
		} else {
			d.addText(d.hold)
		}
		d.st = stText
	}
	return true
}

// resolveClose settles a pending end tag as real: the input is ending.
func (d *Decoder) resolveClose() {
	if d.st == stClose {
		d.endBlock()
	}
}

func (d *Decoder) stepAfterAttr() bool {
	b := d.skipSpace()
	if len(b) == 0 {
		return false
	}
	n, m := matchClose(b, d.attrTag, d.eof)
	switch m {
	case more:
		return false
	case yes:
		d.consume(n)
	}
	d.st = stTop
	return true
}

// stepBody reads the body of a tool result, server tool result, error,
// meta_files or citation: CDATA sections, text, and in tool results nested
// <text> and <image/> elements.
func (d *Decoder) stepBody() bool {
	bd := d.bodies[len(d.bodies)-1]
	b := d.rest()
	if len(b) == 0 {
		return false
	}
	if bd.inCDATA {
		return d.stepCDATA(bd, b)
	}
	if b[0] != '<' {
		i := bytes.IndexByte(b, '<')
		if i < 0 {
			i = len(b)
		}
		d.bodyRaw(bd, b[:i])
		d.consume(i)
		return i < len(b)
	}
	switch hasPrefixOrMore(b, "<![CDATA[", d.eof) {
	case more:
		return false
	case yes:
		d.flushRaw(bd)
		bd.inCDATA = true
		d.consume(len("<![CDATA["))
		return true
	}
	n, m := matchClose(b, bd.tag.name, d.eof)
	switch m {
	case more:
		return false
	case yes:
		d.flushRaw(bd)
		d.consume(n)
		d.endBody()
		return true
	}
	if isResultTag(d.bodies[0].tag.name) && len(d.bodies) == 1 {
		name, m := tagNameAt(b, d.eof)
		if m == more {
			return false
		}
		if m == yes && (name == TagResultText || name == TagResultImage) {
			t, n, m := scanTag(b, d.eof, d.cfg.MaxEventBytes, &d.sc)
			switch m {
			case more:
				return false
			case no:
				if n > 0 {
					// No end within the cap: all of it is text.
					d.bodyRaw(bd, b[:n])
					d.consume(n)
					return true
				}
			case yes:
				if t.close {
					d.consume(n) // a stray </image>
					return true
				}
				d.flushRaw(bd)
				d.consume(n)
				d.bodies = append(d.bodies, &body{tag: t})
				if t.selfClose {
					d.endBody()
				}
				return true
			}
		}
	}
	// A '<' that starts nothing known is text.
	d.bodyRaw(bd, b[:1])
	d.consume(1)
	return true
}

// stepCDATA reads a CDATA section. Its end is a "]]>" followed by another
// CDATA section, the end tag of the element, or the end of the input: the
// producer leaves "]]>" unescaped in several places.
func (d *Decoder) stepCDATA(bd *body, b []byte) bool {
	from := 0
	for {
		j := bytes.Index(b[from:], []byte("]]>"))
		if j < 0 {
			n := len(b) - 2
			if d.eof {
				n = len(b)
			}
			if n > 0 {
				d.bodyText(bd, b[:n])
				d.consume(n)
			}
			return false
		}
		j += from
		after := b[j+3:]
		m := hasPrefixOrMore(after, "<![CDATA[", d.eof)
		if m == no {
			_, m = matchClose(after, bd.tag.name, d.eof)
		}
		if len(after) == 0 && d.eof {
			m = yes
		}
		switch m {
		case more:
			d.bodyText(bd, b[:j])
			d.consume(j)
			return false
		case yes:
			d.bodyText(bd, b[:j])
			d.consume(j + 3)
			bd.inCDATA = false
			return true
		}
		from = j + 1
	}
}

func (d *Decoder) bodyText(bd *body, b []byte) {
	if bd.overflow || len(b) == 0 {
		return
	}
	bd.size += len(b)
	if bd.size > d.cfg.MaxEventBytes {
		bd.overflow = true
		bd.cur, bd.parts = nil, nil
		d.problem(event.ErrTooLarge, "%s body larger than %d bytes (raise the cap, MaxEventBytes)", d.bodies[0].tag.name, d.cfg.MaxEventBytes)
		return
	}
	bd.cur = append(bd.cur, b...)
}

// bodyRaw collects text outside CDATA; white space between elements is
// dropped when the run of text ends.
func (d *Decoder) bodyRaw(bd *body, b []byte) {
	if len(bd.raw)+len(b) > d.cfg.MaxEventBytes {
		d.flushRaw(bd)
		d.bodyText(bd, b)
		return
	}
	bd.raw = append(bd.raw, b...)
}

func (d *Decoder) flushRaw(bd *body) {
	if len(bytes.TrimLeft(bd.raw, " \t\r\n")) > 0 {
		d.bodyText(bd, bd.raw)
	}
	bd.raw = bd.raw[:0]
}

func (bd *body) endPart() {
	if len(bd.cur) > 0 {
		bd.parts = append(bd.parts, event.Part{Type: "text", Text: string(bd.cur)})
	}
	bd.cur = nil
}

func (bd *body) text() string {
	bd.endPart()
	var sb strings.Builder
	for _, p := range bd.parts {
		sb.WriteString(p.Text)
	}
	return sb.String()
}

// endBody finishes the innermost open body element.
func (d *Decoder) endBody() {
	bd := d.bodies[len(d.bodies)-1]
	d.flushRaw(bd)
	d.bodies = d.bodies[:len(d.bodies)-1]
	bd.inCDATA = false
	if len(d.bodies) > 0 {
		parent := d.bodies[len(d.bodies)-1]
		switch bd.tag.name {
		case TagResultImage:
			parent.endPart()
			parent.parts = append(parent.parts, event.Part{
				Type: "image", Source: bd.tag.get("src"),
				MediaType: bd.tag.get("media_type"),
			})
		default:
			parent.endPart()
			if t := bd.text(); t != "" {
				parent.parts = append(parent.parts, event.Part{Type: "text", Text: t})
			}
		}
		return
	}
	d.st = stTop
	switch name := bd.tag.name; {
	case name == TagCitation:
		d.st = stCitations
		d.cites = append(d.cites, citation(&bd.tag, bd.text()))
	case name == TagError:
		data := bd.text()
		ev := &event.Error{Agent: d.agent(), Raw: event.JSONText(data)}
		var p errorPayload
		if json.Unmarshal([]byte(data), &p) == nil {
			ev.Type, ev.Message = p.Type, p.Message
		} else {
			ev.Message = data
		}
		d.emit(ev)
	case name == TagMetaFiles:
		data := bd.text()
		ev := &event.Files{Agent: d.agent(), Raw: event.JSONText(data)}
		var mf metaFiles
		if json.Unmarshal([]byte(data), &mf) == nil {
			for _, f := range mf.Files {
				ev.Files = append(ev.Files, event.File{ID: f.FileID, Name: f.Filename, Location: f.StorageLocation})
			}
		}
		d.emit(ev)
	default:
		d.toolResult(bd)
	}
}

func (d *Decoder) toolResult(bd *body) {
	id, name := bd.tag.get("id"), bd.tag.get("name")
	server := false
	switch bd.tag.name {
	case TagToolResult:
		server = strings.HasPrefix(id, serverToolPrefix)
	case TagServerToolResult:
		server = true
	default: // content-block-web_search_tool_result and the like
		server = true
		if name == "" {
			name = strings.TrimPrefix(bd.tag.name, blockPrefix)
		}
	}
	bd.endPart()
	d.returnTo(id)
	d.emit(&event.ToolResult{Agent: d.agent(), ID: id, Name: name, Content: bd.parts, Server: server})
}

// returnTo pops the agent scopes back to the one that made tool call id:
// the only sign in XML that a subagent has finished. The call is answered:
// it is no longer kept.
func (d *Decoder) returnTo(id string) {
	for i := len(d.agents) - 1; i >= 0; i-- {
		if k := (callKey{d.agents[i], id}); d.calls.Has(k) {
			d.calls.Remove(k)
			d.agents = d.agents[:i+1]
			return
		}
	}
}

// addCall keeps tool call id of the current scope until its result
// comes back. Beyond the cap the oldest is let go.
func (d *Decoder) addCall(id string) {
	if len(d.agents) == 0 {
		d.agents = append(d.agents, &scope{})
	}
	if old, out := d.calls.Add(callKey{d.agents[len(d.agents)-1], id}); out {
		d.tooMany(fmt.Sprintf("more than %d tool calls waiting for their result; let go of the oldest, %s (its result will not end the scopes started after it)", maxOpen, old.id))
	}
}

// pushScope starts scope s on top of the stack. Beyond the cap the
// oldest subagent's scope (the one above the main agent's) is let go.
func (d *Decoder) pushScope(s *scope) {
	if len(d.agents) >= maxOpen {
		old := d.agents[1]
		d.agents = append(d.agents[:1], d.agents[2:]...)
		d.tooMany(fmt.Sprintf("more than %d agent scopes open at once; let go of the oldest subagent's, %s (its tool results will not end the scopes above it)", maxOpen, old.id))
	}
	d.agents = append(d.agents, s)
}

// tooMany reports, once, that a cap let go of some state.
func (d *Decoder) tooMany(msg string) {
	if !d.capped {
		d.capped = true
		d.problem(event.ErrTooManyOpen, "%s; later ones are not reported", msg)
	}
}

func (d *Decoder) stepCitations() bool {
	b := d.skipSpace()
	if len(b) == 0 {
		return false
	}
	n, m := matchClose(b, TagCitations, d.eof)
	switch m {
	case more:
		return false
	case yes:
		d.consume(n)
		d.endCitations()
		return true
	}
	if b[0] == '<' {
		t, n, m := scanTag(b, d.eof, d.cfg.MaxEventBytes, &d.sc)
		if m == more {
			return false
		}
		if m == no && n > 0 {
			d.consume(n) // no end within the cap: skipped whole
			return true
		}
		if m == yes && t.name == TagCitation && !t.close {
			d.consume(n)
			d.bodies = append(d.bodies[:0], &body{tag: t})
			d.st = stBody
			if t.selfClose {
				d.endBody()
			}
			return true
		}
		if m == yes && isTopTag(t.name) && !t.close {
			// A new element: the citations were cut off.
			d.problem(event.ErrSyntax, "citations not closed before <%s>", t.name)
			d.endCitations()
			return true
		}
	}
	// Anything else inside citations is skipped.
	i := bytes.IndexByte(b[1:], '<')
	if i < 0 {
		i = len(b) - 1
	}
	d.consume(i + 1)
	return true
}

func (d *Decoder) endCitations() {
	d.st = stTop
	d.inCites = false
	d.emit(&event.Citations{Agent: d.agent(), Items: d.cites})
	d.cites = nil
}

// citation builds a citation from its attributes: whichever of the known
// ones are present. An empty string attribute is the producer's None.
func citation(t *tag, text string) event.Citation {
	c := event.Citation{Type: t.get("type"), CitedText: text}
	num := func(name string) *int64 {
		v, ok := t.attr(name)
		if !ok {
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil
		}
		return &n
	}
	str := func(name string) *string {
		v, ok := t.attr(name)
		if !ok || v == "" {
			return nil
		}
		return &v
	}
	c.DocumentIndex, c.DocumentTitle = num("document_index"), str("document_title")
	c.StartCharIndex, c.EndCharIndex = num("start_char_index"), num("end_char_index")
	c.StartPageNumber, c.EndPageNumber = num("start_page_number"), num("end_page_number")
	c.URL, c.Title = str("url"), str("title")
	return c
}

// attrElement emits the event of an element whose data is in its
// attributes.
func (d *Decoder) attrElement(t *tag) {
	switch t.name {
	case TagToolCall, TagServerToolCall:
		id := t.get("id")
		args, ok := t.attr("arguments")
		input := d.jsonText(args)
		if !ok || args == "" || args == `""` {
			// No input, or the producer's B3: an empty input_json
			// written as the JSON string "".
			input = json.RawMessage("{}")
		}
		d.addCall(id)
		d.emit(&event.ToolCall{
			Agent: d.agent(), ID: id, Name: t.get("name"), Input: input,
			Server: t.name == TagServerToolCall || strings.HasPrefix(id, serverToolPrefix),
		})
	case TagMetaInit:
		d.metaInit(t.dataAttr())
	case TagMetaFinal:
		d.emit(d.metaFinal(t.dataAttr()))
	case TagAwaitingTools:
		data := t.dataAttr()
		var tools []PendingTool
		if err := json.Unmarshal(data, &tools); err != nil {
			// Kept as the element itself, which the xml encoder writes back.
			raw := "<" + TagAwaitingTools + ` data="` + attrEscaper.Replace(string(data)) + `"></` + TagAwaitingTools + ">"
			d.emit(&event.Unknown{Agent: d.agent(), Format: "xml", Type: TagAwaitingTools, Raw: []byte(raw)})
			d.problem(event.ErrSyntax, "awaiting_frontend_tools data is not a JSON array of tools")
			return
		}
		ev := &event.AwaitingTools{Agent: d.agent()}
		for _, t := range tools {
			ev.Tools = append(ev.Tools, event.PendingTool{ID: t.ToolUseID, Name: t.Name, Input: t.Input})
		}
		d.emit(ev)
	}
}

// jsonText returns event.JSONText(s). JSONText checks s with json.Valid;
// here jsontext.Valid reads it in one pass first, in fewer instructions,
// and JSONText has only what that refuses.
func (d *Decoder) jsonText(s string) json.RawMessage {
	b := json.RawMessage(s)
	valid := jsontext.Valid(&d.args, b)
	d.args.Reset(nil) // holds no arguments for the rest of the input
	if valid {
		return b
	}
	return event.JSONText(s)
}

// metaInit starts an agent scope: the first meta_init the main agent's, a
// later one with parent_agent_uuid a subagent's.
func (d *Decoder) metaInit(data []byte) {
	ev, m, ok := d.meta.SessionStart("", data)
	parent := ""
	if ok && m.ParentAgentUUID != nil {
		parent = *m.ParentAgentUUID
	}
	s := &scope{id: m.AgentUUID}
	switch {
	case parent != "":
		for i := len(d.agents) - 1; i >= 0; i-- {
			if d.agents[i].id == parent {
				d.agents = d.agents[:i+1]
				break
			}
		}
		d.pushScope(s)
	case len(d.agents) == 1 && d.agents[0].id == "":
		// Tool calls came before the meta_init: keep them.
		d.agents[0].id = m.AgentUUID
	default:
		d.agents = append(d.agents[:0], s)
	}
	ev.Agent = d.agent() // the scope the meta_init started
	d.emit(ev)
}

func (d *Decoder) metaFinal(data []byte) *event.RunEnd {
	if len(d.agents) <= 1 {
		// The main agent's run end (a subagent's has a scope of its
		// own): what follows it ([DONE]) only frames it.
		d.ended = true
	}
	return d.meta.RunEnd(d.agent(), data)
}

// cutTopTag reports whether b, the end of the input, is the start tag of
// a known element cut off.
func cutTopTag(b []byte, max int) bool {
	name, _ := tagNameAt(b, true)
	if name == "" || !startsTopTag(name) {
		return false
	}
	var sc tagScan
	_, _, m := scanTag(b, false, max, &sc)
	return m == more
}

// blockTagOf returns the element of a block of kind k.
func blockTagOf(k event.BlockKind) string {
	if k == event.Thinking {
		return TagThinking
	}
	return TagText
}
