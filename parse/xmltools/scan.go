package xmltools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/parse/internal/rewrite"
)

type state uint8

const (
	sText  state = iota // free text
	sThink              // inside <think>
	sSlot               // inside a numbered, PROGRESS or META slot: the payload is held
	sFinal              // inside FINAL: the report streams as text
)

// Tag candidates: literal beginnings a pending '<' may grow into.
const (
	litOpen  = "<" + Prefix
	litClose = "</" + Prefix
	litThink = "<think"
	litThEnd = "</think"
)

// Stages of a pending tag after its literal beginning.
const (
	stLit    = iota // matching literal beginnings
	stName          // open tag: the name after <ai-agent-
	stAttrs         // open tag: attributes
	stCName         // close tag: the name after </ai-agent-
	stCSpace        // white space before '>'
)

// maxTag caps a tag's length; a longer "tag" is text.
const maxTag = 4096

type scanner struct {
	cfg     *Config
	nonce   string
	allowed map[string]bool // nil: any tool
	ids     map[string]int  // tool call ids given, for uniqueness

	st  state
	pos rewrite.Pos

	// the pending tag
	pend    []byte
	pendPos rewrite.Pos
	stage   int
	cands   []string // literal beginnings still possible (stLit), or the matched one
	quote   byte
	slash   bool // open tag: '/' just before '>'
	nameEnd int  // open tag: end of the name in pend

	// the open slot
	slot    *slotTag
	raw     []byte // slot: open tag and payload as written
	payload []byte // slot payload
	// FINAL
	final    *slotTag
	finalRaw []byte // FINAL's open tag and the white space after it, until content starts
	report   strings.Builder
	started  bool // FINAL: content other than white space seen
	// a META slot inside FINAL
	inFinal bool

	lay  rewrite.Layout // free text and its layout white space
	lead []byte         // held white space before a slot's open tag

	lastInvalid string // name of an invalid open tag: the next orphan close is its close, text too
}

type slotTag struct {
	name   string // full name after <ai-agent-: nonce-SLOT
	slot   string // SLOT
	tool   string
	attrs  map[string]string
	at     rewrite.Pos
	close  string // close tag up to '>' (white space allowed before it)
	ending string // the close tag as written
}

// candidate literal sets per state
var (
	topCands   = []string{litOpen, litClose, litThink}
	thinkCands = []string{litThEnd}
)

func newScanner(cfg *Config) *scanner {
	s := &scanner{cfg: cfg, pos: rewrite.Start, ids: map[string]int{}}
	s.nonce = strings.TrimPrefix(cfg.Nonce, Prefix)
	if cfg.Tools != nil {
		s.allowed = map[string]bool{}
		for _, t := range cfg.Tools {
			s.allowed[t.Name] = true
		}
	}
	return s
}

// Feed scans text. See rewrite.Scanner.
func (s *scanner) Feed(o *rewrite.Out, text string) {
	for i := 0; i < len(text); {
		if len(s.pend) == 0 {
			n := strings.IndexByte(text[i:], '<')
			if n < 0 {
				n = len(text) - i
			}
			if n > 0 {
				s.content(o, text[i:i+n])
				s.pos.Advance(text[i : i+n])
				i += n
				if s.st == sSlot && len(s.raw) > s.cfg.maxBytes() {
					s.tooLarge(o)
				}
				continue
			}
		}
		at := s.pos
		s.pos.AdvanceByte(text[i])
		s.step(o, text[i], at)
		i++
		if s.st == sSlot && len(s.raw) > s.cfg.maxBytes() {
			s.tooLarge(o)
		}
	}
}

// content handles text that holds no tag.
func (s *scanner) content(o *rewrite.Out, t string) {
	switch s.st {
	case sText:
		s.lay.Text(o, t)
	case sThink:
		o.Write(event.Thinking, t)
	case sSlot:
		s.raw = append(s.raw, t...)
		s.payload = append(s.payload, t...)
	case sFinal:
		if !s.started {
			n := len(t) - len(strings.TrimLeft(t, " \t\r\n"))
			s.finalRaw = append(s.finalRaw, t[:n]...)
			t = t[n:]
			if t == "" {
				return
			}
			s.started = true
			o.End(event.Text)
			o.Start(event.Text)
			o.Write(event.Text, string(s.finalRaw[len(s.final.ending):]))
		}
		o.Write(event.Text, t)
		s.report.WriteString(t)
	}
}

func (s *scanner) step(o *rewrite.Out, c byte, at rewrite.Pos) {
	if len(s.pend) == 0 {
		if c != '<' {
			s.content(o, string([]byte{c}))
			return
		}
		s.pend = append(s.pend, c)
		s.pendPos = at
		s.stage = stLit
		s.quote, s.slash = 0, false
		s.cands = s.cands[:0]
		switch s.st {
		case sText:
			s.cands = append(s.cands, topCands...)
		case sThink:
			s.cands = append(s.cands, thinkCands...)
		case sSlot:
			s.cands = append(s.cands, s.slot.close)
		case sFinal:
			s.cands = append(s.cands, s.final.close, litOpen)
		}
		return
	}
	s.pend = append(s.pend, c)
	if len(s.pend) > maxTag {
		s.fail(o)
		return
	}
	switch s.stage {
	case stLit:
		n := len(s.pend)
		alive := s.cands[:0]
		for _, cand := range s.cands {
			if len(cand) >= n && cand[n-1] == c {
				alive = append(alive, cand)
			}
		}
		s.cands = alive
		switch {
		case len(alive) == 0:
			s.fail(o)
		case len(alive) == 1 && len(alive[0]) == n:
			switch lit := alive[0]; {
			case lit == litOpen:
				s.stage = stName
			case lit == litClose && s.st == sText:
				s.stage = stCName
			default: // </think, <think, a slot's close: white space, then '>'
				s.stage = stCSpace
			}
		}
	case stName:
		switch {
		case c == '>':
			s.nameEnd = len(s.pend) - 1
			s.openTag(o)
		case isSpace(c) || c == '/':
			s.nameEnd = len(s.pend) - 1
			s.stage = stAttrs
			s.slash = c == '/'
		case c == '<' || c == '"' || c == '\'':
			s.fail(o)
		}
	case stAttrs:
		switch {
		case s.quote != 0:
			if c == s.quote {
				s.quote = 0
			}
		case c == '"' || c == '\'':
			s.quote = c
			s.slash = false
		case c == '>':
			s.openTag(o)
		case c == '<':
			s.fail(o)
		case c == '/':
			s.slash = true
		case !isSpace(c):
			s.slash = false
		}
	case stCName:
		switch {
		case c == '>':
			s.closeTag(o)
		case isSpace(c):
			s.stage = stCSpace
		case c == '<':
			s.fail(o)
		}
	case stCSpace:
		switch {
		case c == '>':
			s.closeTag(o)
		case !isSpace(c):
			s.fail(o)
		}
	}
}

// fail handles a pend that is not a tag: its '<' is content and the bytes
// after it are scanned again, so "a <</ai-agent-…>" finds the tag.
func (s *scanner) fail(o *rewrite.Out) {
	rest := bytes.Clone(s.pend[1:])
	at := s.pendPos
	s.pend = s.pend[:0]
	s.content(o, "<")
	at.AdvanceByte('<')
	for _, c := range rest {
		b := at
		at.AdvanceByte(c)
		s.step(o, c, b)
	}
}

// takeTag returns the pending tag and clears it.
func (s *scanner) takeTag() string {
	t := string(s.pend)
	s.pend = s.pend[:0]
	return t
}

// closeTag handles a complete close tag (or <think>).
func (s *scanner) closeTag(o *rewrite.Out) {
	lit := s.cands[0]
	tag := s.takeTag()
	switch {
	case s.st == sText && lit == litThink:
		s.element()
		o.End(event.Text)
		o.Start(event.Thinking)
		s.st = sThink
	case s.st == sText: // </ai-agent-…> with nothing open
		s.lay.Text(o, tag)
		if s.lastInvalid != "" {
			s.lastInvalid = ""
			return
		}
		o.Errorf(s.pendPos, event.ErrSyntax, "close tag %s without an open tag; kept as text", tag)
	case s.st == sThink:
		o.End(event.Thinking)
		s.element()
		s.st = sText
	case s.st == sSlot:
		s.raw = append(s.raw, tag...)
		s.slot.ending = tag
		s.endSlot(o)
	case s.st == sFinal:
		s.endFinal(o, tag)
	}
}

// openTag handles a complete <ai-agent-…> open tag.
func (s *scanner) openTag(o *rewrite.Out) {
	selfClosing := s.slash
	nameEnd := s.nameEnd
	at := s.pendPos
	tag := s.takeTag()
	name := tag[len(litOpen):nameEnd]
	t, reason := s.validate(name, tag[nameEnd:len(tag)-1])
	if reason == "" && selfClosing {
		reason = "empty payload (self-closing tag)"
	}
	if s.st == sFinal {
		if reason != "" || t.slot != "META" {
			s.content(o, tag) // part of the report
			return
		}
		s.inFinal = true
	} else if reason != "" {
		s.lay.Text(o, tag)
		o.Errorf(at, event.ErrSyntax, "invalid tag <%s%s>: %s; kept as text", Prefix, name, reason)
		if !selfClosing {
			s.lastInvalid = name
		}
		return
	}
	t.at = at
	t.close = litClose + name
	t.ending = tag // the open tag, until the close replaces it
	if t.slot == "FINAL" {
		s.element()
		s.final = t
		s.finalRaw = append(s.finalRaw[:0], tag...)
		s.started = false
		s.report.Reset()
		s.st = sFinal
		return
	}
	s.slot = t
	if !s.inFinal {
		s.lead = s.lay.TakeHeld(s.lead[:0])
	}
	s.raw = append(s.raw[:0], tag...)
	s.payload = s.payload[:0]
	s.st = sSlot
}

// validate checks an open tag as the transport says: matching nonce,
// declared slot, allowed tool. It returns the reason a tag is invalid.
func (s *scanner) validate(name, attrs string) (*slotTag, string) {
	t := &slotTag{name: name, attrs: parseAttrs(attrs)}
	nonce, slot, ok := strings.Cut(name, "-")
	if s.nonce == "" && ok && isNonce(nonce) {
		s.nonce = nonce // detected
	}
	if s.nonce == "" {
		return t, "no nonce"
	}
	if !strings.HasPrefix(name, s.nonce+"-") {
		return t, fmt.Sprintf("nonce does not match %s", s.nonce)
	}
	t.slot = name[len(s.nonce)+1:]
	_ = slot
	t.tool = t.attrs["tool"]
	switch t.slot {
	case "FINAL":
		if t.tool == "" {
			t.tool = finalReport
		}
		if t.tool != finalReport {
			return t, fmt.Sprintf("tool %q in the FINAL slot", t.tool)
		}
	case "PROGRESS":
		if t.tool == "" {
			t.tool = ProgressReport
		}
		if t.tool != ProgressReport {
			return t, fmt.Sprintf("tool %q in the PROGRESS slot", t.tool)
		}
	case "META":
	default:
		if !s.declared(t.slot) {
			return t, fmt.Sprintf("slot %q is not declared", t.slot)
		}
		if t.tool == "" {
			return t, "no tool attribute"
		}
		if s.allowed != nil && !s.allowed[t.tool] {
			return t, fmt.Sprintf("tool %q is not allowed", t.tool)
		}
	}
	return t, ""
}

// declared reports whether slot is a declared numbered slot: four or more
// digits, not zero, at most cfg.Slots when set.
func (s *scanner) declared(slot string) bool {
	if len(slot) < 4 {
		return false
	}
	for i := 0; i < len(slot); i++ {
		if slot[i] < '0' || slot[i] > '9' {
			return false
		}
	}
	n, err := strconv.Atoi(slot)
	return err == nil && n > 0 && (s.cfg.Slots <= 0 || n <= s.cfg.Slots)
}

func isNonce(s string) bool {
	if len(s) != 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// parseAttrs reads name="v", name='v' and name=v, white space allowed
// around '='. A value may hold '>' and the other quote.
func parseAttrs(s string) map[string]string {
	m := map[string]string{}
	for {
		s = strings.TrimLeft(s, " \t\r\n/")
		if s == "" {
			return m
		}
		i := strings.IndexAny(s, "= \t\r\n")
		if i < 0 {
			m[s] = ""
			return m
		}
		name := s[:i]
		s = strings.TrimLeft(s[i:], " \t\r\n")
		if !strings.HasPrefix(s, "=") {
			m[name] = ""
			continue
		}
		s = strings.TrimLeft(s[1:], " \t\r\n")
		var v string
		if s != "" && (s[0] == '"' || s[0] == '\'') {
			j := strings.IndexByte(s[1:], s[0])
			if j < 0 {
				v, s = s[1:], ""
			} else {
				v, s = s[1:1+j], s[2+j:]
			}
		} else {
			j := strings.IndexAny(s, " \t\r\n")
			if j < 0 {
				j = len(s)
			}
			v, s = s[:j], s[j:]
		}
		m[name] = v
	}
}

// endSlot handles a closed numbered, PROGRESS or META slot.
func (s *scanner) endSlot(o *rewrite.Out) {
	t := s.slot
	payload := bytes.TrimSpace(s.payload) // s.payload's array: copied into what keeps it
	s.st = sText
	if s.inFinal {
		s.st = sFinal
		s.inFinal = false
	}
	invalid := func(reason string) {
		if s.st == sText {
			s.lay.Text(o, string(s.lead))
		}
		s.content(o, string(s.raw))
		o.Errorf(t.at, event.ErrSyntax, "invalid tag <%s%s>: %s; kept as text", Prefix, t.name, reason)
	}
	valid := func() {
		if s.st == sText {
			s.element()
		}
	}
	if len(payload) == 0 {
		invalid("empty payload")
		return
	}
	switch t.slot {
	case "PROGRESS":
		msg := string(payload)
		var p struct {
			Progress string `json:"progress"`
		}
		if json.Unmarshal(payload, &p) == nil && p.Progress != "" {
			msg = p.Progress
		}
		o.Emit(&event.Notice{Agent: o.Agent(), Kind: "progress", Message: msg, Raw: event.JSONText(string(payload))})
		valid()
	case "META":
		if !json.Valid(payload) {
			invalid("payload is not JSON")
			return
		}
		o.Emit(&event.Notice{Agent: o.Agent(), Kind: "meta", Message: t.attrs["plugin"], Raw: bytes.Clone(payload)})
		valid()
	default:
		if status, ok := t.attrs["status"]; ok {
			s.pastResult(o, t, status, string(payload))
			valid()
			return
		}
		if !json.Valid(payload) {
			invalid("payload is not JSON")
			return
		}
		o.End(event.Text)
		o.Emit(&event.ToolCall{Agent: o.Agent(), ID: s.id(t.name), Name: t.tool, Input: bytes.Clone(payload)})
		valid()
	}
}

// id returns the tool call id of a slot: its name, made unique.
func (s *scanner) id(name string) string {
	s.ids[name]++
	if n := s.ids[name]; n > 1 {
		return name + "." + strconv.Itoa(n)
	}
	return name
}

// pastResult handles an XML-PAST entry: a slot with a status attribute,
// holding <request> and <response>.
func (s *scanner) pastResult(o *rewrite.Out, t *slotTag, status, payload string) {
	resp := section(payload, "response")
	o.End(event.Text)
	r := &event.ToolResult{Agent: o.Agent(), ID: t.name, Name: t.tool, Status: status, IsError: status == "failed"}
	if s.ids[t.name] > 1 {
		r.ID = t.name + "." + strconv.Itoa(s.ids[t.name])
	}
	if resp != "" {
		r.Content = []event.Part{{Type: "text", Text: resp}}
	}
	o.Emit(r)
}

// section returns the content of <name>…</name> in s, without the one
// newline after the open tag and before the close tag, or s itself when
// there is no such element.
func section(s, name string) string {
	i := strings.Index(s, "<"+name+">")
	j := strings.LastIndex(s, "</"+name+">")
	if i < 0 || j < i {
		if name == "response" && !strings.Contains(s, "<request>") {
			return s
		}
		return ""
	}
	v := s[i+len(name)+2 : j]
	v = strings.TrimPrefix(v, "\n")
	return strings.TrimSuffix(v, "\n")
}

// endFinal handles the close of FINAL, or the end of the text inside it
// (tag empty).
func (s *scanner) endFinal(o *rewrite.Out, tag string) {
	t := s.final
	s.st = sText
	if !s.started {
		s.lay.Text(o, string(s.finalRaw)+tag)
		o.Errorf(t.at, event.ErrSyntax, "invalid tag <%s%s>: empty payload; kept as text", Prefix, t.name)
		return
	}
	defer s.element()
	o.End(event.Text)
	// The meta object, its keys in encoding/json's (sorted) order.
	meta := []byte("{")
	if f, ok := t.attrs["format"]; ok {
		meta = jsontext.AppendMarshalString(append(meta, `"format":`...), f)
		meta = append(meta, ',')
	}
	meta = jsontext.AppendMarshalString(append(meta, `"slot":`...), t.name)
	status, given := t.attrs["status"]
	if given {
		// only what the tag said: a round trip adds none
		meta = jsontext.AppendMarshalString(append(meta, `,"status":`...), status)
	}
	if status == "" {
		status = "success"
	}
	if tag == "" {
		meta = append(meta, `,"truncated":true`...)
	}
	meta = append(meta, '}')
	o.Final = &event.RunEnd{
		Agent: o.Agent(), StopReason: status, IsError: status == "failure",
		Result: strings.TrimSpace(s.report.String()), Meta: meta, MetaKind: "xmltools",
	}
	s.final = nil
}

func (s *scanner) tooLarge(o *rewrite.Out) {
	t := s.slot
	o.Errorf(t.at, event.ErrTooLarge, "slot <%s%s> larger than %d bytes; kept as text", Prefix, t.name, s.cfg.maxBytes())
	raw := string(s.raw)
	s.st = sText
	if s.inFinal {
		s.st = sFinal
		s.inFinal = false
	}
	s.lastInvalid = t.name
	if s.st == sText {
		s.lay.Text(o, string(s.lead))
	}
	if len(s.pend) > 0 {
		pend, at := bytes.Clone(s.pend), s.pendPos
		s.pend = s.pend[:0]
		s.content(o, raw)
		for _, c := range pend {
			b := at
			at.AdvanceByte(c)
			s.step(o, c, b)
		}
		return
	}
	s.content(o, raw)
}

// End finishes the text. See rewrite.Scanner.
func (s *scanner) End(o *rewrite.Out, eof bool) {
	sentinel := event.ErrSyntax
	where := "the text block"
	if eof {
		sentinel, where = event.ErrTruncated, "the input"
	}
	if len(s.pend) > 0 {
		s.content(o, s.takeTag())
	}
	switch s.st {
	case sThink:
		o.End(event.Thinking)
		o.Errorf(s.pos, sentinel, "%s ended inside <think>", where)
	case sSlot:
		t := s.slot
		o.Errorf(t.at, sentinel, "%s ended inside <%s%s>; kept as text", where, Prefix, t.name)
		s.st = sText
		if s.inFinal {
			s.st = sFinal
			s.inFinal = false
		}
		if s.st == sText {
			s.lay.Text(o, string(s.lead))
		}
		s.content(o, string(s.raw))
		if s.st == sFinal {
			// One cut, one report: FINAL is accepted as below, without
			// a second problem.
			s.endFinal(o, "")
		}
	case sFinal:
		if s.started {
			o.Errorf(s.final.at, sentinel, "%s ended inside <%s%s>; the report is accepted", where, Prefix, s.final.name)
		}
		s.endFinal(o, "")
	}
	s.lay.End(o)
	s.lead = s.lead[:0]
	s.st = sText
	s.lastInvalid = ""
}

// element notes that an element (thinking, a slot, FINAL) was read: white
// space held before it is dropped.
func (s *scanner) element() {
	s.lay.Element()
	s.lead = s.lead[:0]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
