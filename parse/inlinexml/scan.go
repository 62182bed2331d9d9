package inlinexml

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/parse/internal/rewrite"
	"github.com/agentstream/agentstream/toolset"
)

type state uint8

const (
	sText       state = iota // free text
	sThinking                // inside <thinking> or <think>
	sTool                    // inside a tool call, between parameters
	sParam                   // inside a parameter value
	sAfterClose              // after a raw parameter's close tag, deciding whether it was the last
	sResult                  // inside <tool_result>
)

// maxPending caps the tool calls waiting for a result: the same default
// cap as every decoder's open blocks (openset.DefaultMax).
const maxPending = openset.DefaultMax

// maxTag bounds a tag name read inside a tool whose parameters are not
// declared.
const maxTag = 128

// scanner is the incremental scanner of the inline XML tool protocol. It
// reads every byte once; what it holds back is a possible tag (pend), the
// tool call being read (raw, its values), and after a raw parameter's
// close tag the white space up to the next tag (hold).
type scanner struct {
	g   *grammar
	ids *int // tool call counter, shared by the scanners of one stream

	st      state
	pos     rewrite.Pos // position of the next new byte
	pend    []byte      // a possible tag, from its '<'
	pendPos rewrite.Pos

	code, ticks int // open inline code span (backtick count), backticks just read

	lay  rewrite.Layout // free text and its layout white space
	lead []byte         // held white space before a tool's open tag

	attrs      bool           // pend is "<tool_result " and its attributes
	quote      byte           // the quote open in attrs
	resultName string         // tool_name of the <tool_result> being read
	pending    [][2]string    // calls without a result yet, oldest first: name, id
	waiting    map[string]int // how many of pending each tool has
	capped     bool           // a call was dropped from pending, and reported

	thinkClose string

	tool    *tool
	toolPos rewrite.Pos
	raw     []byte // the tool call's text so far, as written
	names   []string
	values  []json.RawMessage
	texts   []string // the values as text, before jsonValue
	param   string
	value   []byte
	hold    []byte // sAfterClose: the close tag and white space after it
	stray   []byte // text between parameters, reported at the next tag
	strayAt rewrite.Pos
	nstray  int

	spare []byte   // fail's copy of a pending tag, kept for the next one
	match tagRange // the tags pend may still grow into
}

func newScanner(g *grammar, ids *int) *scanner {
	return &scanner{g: g, ids: ids, pos: rewrite.Start, waiting: map[string]int{}}
}

// Feed scans s. See rewrite.Scanner.
func (s *scanner) Feed(o *rewrite.Out, text string) {
	for i := 0; i < len(text); {
		if n := 0; len(s.pend) == 0 {
			n = s.run(o, text[i:])
			s.pos.Advance(text[i : i+n])
			i += n
		}
		if i < len(text) {
			at := s.pos
			s.pos.AdvanceByte(text[i])
			s.step(o, text[i], at)
			i++
		}
		if len(s.raw) > s.g.maxBytes {
			s.tooLarge(o)
		}
	}
}

// run consumes the longest prefix of text that holds no byte the current
// state must look at, and returns its length.
func (s *scanner) run(o *rewrite.Out, text string) int {
	var n int
	switch s.st {
	case sText:
		if s.ticks > 0 {
			return 0
		}
		n = strings.IndexAny(text, "<`\n")
		if n < 0 {
			n = len(text)
		}
		s.lay.Text(o, text[:n])
	case sThinking:
		n = strings.IndexByte(text, '<')
		if n < 0 {
			n = len(text)
		}
		o.Write(event.Thinking, text[:n])
	case sParam, sResult:
		n = strings.IndexByte(text, '<')
		if n < 0 {
			n = len(text)
		}
		s.raw = append(s.raw, text[:n]...)
		s.value = append(s.value, text[:n]...)
	}
	return n
}

// step scans one byte c at position at.
func (s *scanner) step(o *rewrite.Out, c byte, at rewrite.Pos) {
	if s.attrs {
		s.pend = append(s.pend, c)
		switch {
		case s.quote != 0:
			if c == s.quote {
				s.quote = 0
			}
		case c == '"' || c == '\'':
			s.quote = c
		case c == '>':
			s.attrs = false
			s.tag(o, tagResult)
		case c == '<' || len(s.pend) > maxTag:
			s.attrs = false
			s.fail(o)
		}
		return
	}
	if len(s.pend) > 0 {
		s.pend = append(s.pend, c)
		kind, ok := s.lookup()
		switch {
		case ok && kind == tagResultAttrs:
			s.attrs, s.quote = true, 0
		case ok && kind != tagNone:
			s.tag(o, kind)
		case ok:
			// a prefix: wait for more
		case s.st == sTool && s.tool.open && s.openName():
			// an undeclared parameter name: wait for more
		case s.st == sTool && s.tool.open && c == '>' && len(s.pend) > 2 && s.pend[1] != '/':
			s.tag(o, tagParam)
		default:
			s.fail(o)
		}
		return
	}
	switch s.st {
	case sText:
		if c == '`' {
			s.ticks++
			s.lay.Text(o, "`")
			return
		}
		if s.ticks > 0 {
			switch s.code {
			case 0:
				s.code = s.ticks
			case s.ticks:
				s.code = 0
			}
			s.ticks = 0
		}
		switch {
		case c == '\n':
			s.code = 0
		case c == '<' && s.code == 0:
			s.startTag(c, at)
			return
		}
		s.lay.TextByte(o, c)
	case sThinking:
		if c == '<' {
			s.startTag(c, at)
			return
		}
		o.AppendByte(event.Thinking, c)
	case sTool:
		if c == '<' {
			s.startTag(c, at)
			return
		}
		if isSpace(c) {
			s.raw = append(s.raw, c)
			return
		}
		if len(s.names) == 0 {
			s.revert(o)
			s.step(o, c, at)
			return
		}
		s.strayByte(c, at)
	case sParam, sResult:
		if c == '<' {
			s.startTag(c, at)
			return
		}
		s.raw = append(s.raw, c)
		s.value = append(s.value, c)
	case sAfterClose:
		if c == '<' {
			s.startTag(c, at)
			return
		}
		if isSpace(c) {
			s.raw = append(s.raw, c)
			s.hold = append(s.hold, c)
			return
		}
		s.reopen()
		s.step(o, c, at)
	}
}

// reopen takes back a raw parameter's close tag as part of its value.
func (s *scanner) reopen() {
	s.value = append(s.value, s.hold...)
	s.hold = s.hold[:0]
	s.st = sParam
}

func (s *scanner) startTag(c byte, at rewrite.Pos) {
	s.pend = append(s.pend[:0], c)
	s.pendPos = at
	s.match = tagRange{hi: -1}
}

// openName reports whether pend is '<' and the start of a tag name.
func (s *scanner) openName() bool {
	p := s.pend
	if len(p) > maxTag || len(p) < 2 || p[1] == '/' {
		return false
	}
	c := p[1]
	if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return false
	}
	for _, c := range p[2:] {
		if !toolset.IsNameByte(c) {
			return false
		}
	}
	return true
}

// lookup returns the kind of the pending tag in the current state: a
// tag, a proper prefix of one (tagNone), or neither (false). The state
// does not change while a tag is pending, so the tags pend may still
// grow into are narrowed down by its new bytes only.
func (s *scanner) lookup() (int, bool) {
	var t *tagTable
	switch s.st {
	case sText:
		t = &s.g.top
	case sThinking:
		t = &thinkingTags
		if s.thinkClose == "</think>" {
			t = &thinkTags
		}
	case sParam:
		return closeTag(s.pend, s.param)
	case sResult:
		t = &resultTags
	default: // sTool, sAfterClose
		t = &s.tool.tags
	}
	return t.narrow(s.pend, &s.match)
}

// The close tags of thinking and a tool result. Never written to.
var (
	thinkingTags = tagTable{tags: []string{"</thinking>"}, kinds: []int{tagThinking}}
	thinkTags    = tagTable{tags: []string{"</think>"}, kinds: []int{tagThink}}
	resultTags   = tagTable{tags: []string{"</tool_result>"}, kinds: []int{tagResult}}
)

// fail handles a pend that turned out not to be a tag: its '<' is
// content, and the bytes after it are scanned again (a tag may start
// among them: "a <</path>").
func (s *scanner) fail(o *rewrite.Out) {
	// rest is spare's array, lent for the loop: a fail inside it (a tag
	// started in rest) finds spare nil and takes its own.
	rest := append(s.spare[:0], s.pend[1:]...)
	s.spare = nil
	at := s.pendPos
	s.pend = s.pend[:0]
	s.literal(o, '<', at)
	at.AdvanceByte('<')
	for _, c := range rest {
		b := at
		at.AdvanceByte(c)
		s.step(o, c, b)
	}
	s.spare = rest[:0]
}

// literal scans c as content, never as the start of a tag.
func (s *scanner) literal(o *rewrite.Out, c byte, at rewrite.Pos) {
	switch s.st {
	case sText:
		s.lay.TextByte(o, c)
	case sThinking:
		o.AppendByte(event.Thinking, c)
	case sTool:
		if len(s.names) == 0 {
			s.revert(o)
			s.lay.TextByte(o, c)
			return
		}
		s.strayByte(c, at)
	case sParam, sResult:
		s.raw = append(s.raw, c)
		s.value = append(s.value, c)
	case sAfterClose:
		s.reopen()
		s.raw = append(s.raw, c)
		s.value = append(s.value, c)
	}
}

// tag handles a complete tag in pend.
func (s *scanner) tag(o *rewrite.Out, kind int) {
	tag := s.pend // read before the next byte is appended to pend
	s.pend = s.pend[:0]
	switch s.st {
	case sText:
		switch kind {
		case tagThinking, tagThink:
			s.thinkClose = "</thinking>"
			if kind == tagThink {
				s.thinkClose = "</think>"
			}
			s.element()
			o.End(event.Text)
			o.Start(event.Thinking)
			s.st = sThinking
		case tagResult:
			s.resultName = attr(string(tag), "tool_name")
			s.toolPos = s.pendPos
			s.raw = append(s.raw[:0], tag...)
			s.value = s.value[:0]
			s.lead = s.lay.TakeHeld(s.lead[:0])
			s.st = sResult
		case tagTool:
			s.tool = s.g.tools[string(tag[1:len(tag)-1])]
			s.toolPos = s.pendPos
			s.raw = append(s.raw[:0], tag...)
			s.names, s.values, s.texts = s.names[:0], s.values[:0], s.texts[:0]
			s.lead = s.lay.TakeHeld(s.lead[:0])
			s.st = sTool
		}
	case sThinking:
		o.End(event.Thinking)
		s.element()
		s.st = sText
	case sResult:
		s.endResult(o)
	case sParam:
		s.raw = append(s.raw, tag...)
		if s.g.raw[s.param] {
			s.hold = append(s.hold[:0], tag...)
			s.st = sAfterClose
			return
		}
		s.endParam()
	case sTool, sAfterClose:
		if s.st == sAfterClose {
			s.endParam()
		}
		s.reportStray(o)
		s.raw = append(s.raw, tag...)
		if kind == tagToolClose {
			s.endTool(o)
			return
		}
		s.param = s.tool.paramName(tag[1 : len(tag)-1])
		s.value = s.value[:0]
		s.st = sParam
	}
}

// strayByte keeps c, text between a tool call's parameters, for
// reportStray (its first 40 bytes, and their count), and in the call's raw
// text.
func (s *scanner) strayByte(c byte, at rewrite.Pos) {
	if len(s.stray) == 0 {
		s.strayAt = at
	}
	s.nstray++
	if len(s.stray) < 40 {
		s.stray = append(s.stray, c)
	}
	s.raw = append(s.raw, c)
}

func (s *scanner) reportStray(o *rewrite.Out) {
	if s.nstray == 0 {
		return
	}
	more := ""
	if s.nstray > len(s.stray) {
		more = "..."
	}
	o.Errorf(s.strayAt, event.ErrSyntax, "text between the parameters of <%s> ignored: %q%s", s.tool.Name, s.stray, more)
	s.stray, s.nstray = s.stray[:0], 0
}

// endParam records the value of the parameter just closed.
func (s *scanner) endParam() {
	v := string(s.value)
	if strings.HasPrefix(v, "\r\n") {
		v = v[2:]
	} else {
		v = strings.TrimPrefix(v, "\n")
	}
	if strings.HasSuffix(v, "\r\n") {
		v = v[:len(v)-2]
	} else {
		v = strings.TrimSuffix(v, "\n")
	}
	if !s.g.raw[s.param] {
		v = strings.TrimSpace(v)
	}
	var typ string
	if p, ok := s.tool.Param(s.param); ok {
		typ = p.Type
	}
	jv := jsonValue(v, typ)
	for i, n := range s.names {
		if n == s.param {
			s.values[i], s.texts[i] = jv, v
			s.st = sTool
			return
		}
	}
	s.names = append(s.names, s.param)
	s.values = append(s.values, jv)
	s.texts = append(s.texts, v)
	s.st = sTool
}

// endTool emits the tool call just closed.
func (s *scanner) endTool(o *rewrite.Out) {
	*s.ids++
	n := 2
	for i, name := range s.names {
		n += len(name) + 4 + len(s.values[i]) // quotes, colon, comma
	}
	in := make([]byte, 0, n)
	in = append(in, '{')
	for i, name := range s.names {
		if i > 0 {
			in = append(in, ',')
		}
		in = jsontext.AppendMarshalString(in, name)
		in = append(in, ':')
		in = append(in, s.values[i]...)
	}
	in = append(in, '}')
	o.End(event.Text)
	id := "inline-" + strconv.Itoa(*s.ids)
	o.Emit(&event.ToolCall{Agent: o.Agent(), ID: id, Name: s.tool.Name, Input: in})
	s.pending = append(s.pending, [2]string{s.tool.Name, id})
	s.waiting[s.tool.Name]++
	if len(s.pending) > maxPending {
		// The oldest call leaves the list: results pair with the calls
		// of the last maxPending, and each result's search is bounded.
		old := s.pending[0]
		s.pending[0] = [2]string{}
		s.pending = s.pending[1:]
		s.unwait(old[0])
		if !s.capped {
			s.capped = true
			o.Errorf(s.toolPos, event.ErrTooManyOpen, "more than %d tool calls wait for a result; the oldest, <%s> %s, will not be paired with one (later ones are not reported)", maxPending, old[0], old[1])
		}
	}
	if s.tool.Name == Completion {
		var result string
		for i, n := range s.names {
			if n == "result" {
				if v := s.values[i]; len(v) > 0 && v[0] == '"' {
					// jsonString(text): it reads back as text
					result = s.texts[i]
				}
			}
		}
		o.Final = &event.RunEnd{Agent: o.Agent(), StopReason: Completion, Result: result}
	}
	s.resetTool()
	s.element()
	s.st = sText
}

func (s *scanner) resetTool() {
	s.tool = nil
	s.raw, s.value, s.hold, s.stray = s.raw[:0], s.value[:0], s.hold[:0], s.stray[:0]
	s.names, s.values, s.texts = s.names[:0], s.values[:0], s.texts[:0]
	s.nstray = 0
}

// revert gives back the tool call read so far as text: the open tag was
// not a call.
func (s *scanner) revert(o *rewrite.Out) {
	s.lay.Text(o, string(s.lead))
	s.lay.Text(o, string(s.raw))
	s.resetTool()
	s.st = sText
}

func (s *scanner) tooLarge(o *rewrite.Out) {
	name := "tool_result"
	if s.tool != nil {
		name = s.tool.Name
	}
	o.Errorf(s.toolPos, event.ErrTooLarge, "<%s> larger than %d bytes; kept as text", name, s.g.maxBytes)
	pend, at := bytes.Clone(s.pend), s.pendPos
	s.pend = s.pend[:0]
	s.revert(o)
	for _, c := range pend {
		b := at
		at.AdvanceByte(c)
		s.step(o, c, b)
	}
}

// End finishes the text. See rewrite.Scanner.
func (s *scanner) End(o *rewrite.Out, eof bool) {
	sentinel := event.ErrSyntax
	where := "the text block"
	if eof {
		sentinel, where = event.ErrTruncated, "the input"
	}
	s.attrs = false
	if len(s.pend) > 0 {
		pend, at := bytes.Clone(s.pend), s.pendPos
		s.pend = s.pend[:0]
		for _, c := range pend {
			s.literal(o, c, at)
			at.AdvanceByte(c)
		}
	}
	switch s.st {
	case sThinking:
		o.End(event.Thinking)
		o.Errorf(s.pos, sentinel, "%s ended inside %s", where, strings.Replace(s.thinkClose, "/", "", 1))
	case sTool, sParam, sAfterClose:
		s.reportStray(o)
		o.Errorf(s.toolPos, sentinel, "%s ended inside <%s>; the call is kept as text", where, s.tool.Name)
		s.revert(o)
	case sResult:
		o.Errorf(s.toolPos, sentinel, "%s ended inside <tool_result>; kept as text", where)
		s.revert(o)
	}
	s.lay.End(o)
	s.st = sText
	s.code, s.ticks = 0, 0
}

// element notes that an element (thinking, a tool call) was read: white
// space held before it is dropped.
func (s *scanner) element() {
	s.lay.Element()
	s.lead = s.lead[:0]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// jsonValue returns v as JSON: a string, or v itself when the declared
// type says it is a number, boolean, array or object and v is one.
func jsonValue(v, typ string) json.RawMessage {
	t := strings.TrimSpace(v)
	if typ != "" && typ != "string" && t != "" && json.Valid([]byte(t)) {
		switch c := t[0]; typ {
		case "integer", "number":
			if c == '-' || '0' <= c && c <= '9' {
				return json.RawMessage(t)
			}
		case "boolean":
			if t == "true" || t == "false" {
				return json.RawMessage(t)
			}
		case "array":
			if c == '[' {
				return json.RawMessage(t)
			}
		case "object":
			if c == '{' {
				return json.RawMessage(t)
			}
		}
	}
	return jsonString(v)
}

// jsonString encodes s as encoding/json does without HTML escaping, so
// that "<" stays readable.
func jsonString(s string) []byte { return jsontext.AppendMarshalString(nil, s) }

// unwait notes that a call of tool left pending.
func (s *scanner) unwait(tool string) {
	if s.waiting[tool]--; s.waiting[tool] == 0 {
		delete(s.waiting, tool)
	}
}

// endResult emits the tool result just closed, paired with the oldest
// call of that tool without a result.
func (s *scanner) endResult(o *rewrite.Out) {
	v := string(s.value)
	v = strings.TrimPrefix(strings.TrimPrefix(v, "\r"), "\n")
	v = strings.TrimSuffix(strings.TrimSuffix(v, "\n"), "\r")
	r := &event.ToolResult{Agent: o.Agent(), Name: s.resultName, IsError: strings.HasPrefix(v, "Error")}
	if s.resultName == "" || s.waiting[s.resultName] > 0 { // else no call to search for
		for i, p := range s.pending {
			if p[0] == s.resultName || s.resultName == "" {
				r.ID, r.Name = p[1], p[0]
				s.pending = slices.Delete(s.pending, i, i+1)
				s.unwait(p[0])
				break
			}
		}
	}
	if v != "" {
		r.Content = []event.Part{{Type: "text", Text: v}}
	}
	o.End(event.Text)
	o.Emit(r)
	s.raw, s.value = s.raw[:0], s.value[:0]
	s.element()
	s.st = sText
}

// attr returns the value of attribute name in an open tag, quoted with
// " or ', or "".
func attr(tag, name string) string {
	i := strings.Index(tag, " "+name)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(tag[i+1+len(name):], " \t\r\n")
	rest, ok := strings.CutPrefix(rest, "=")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	v, _, _ := strings.Cut(rest[1:], rest[:1])
	return v
}
