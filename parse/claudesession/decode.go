package claudesession

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
	"github.com/agentstream/agentstream/parse/internal/logline"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one line (event.DefaultMaxBytes if 0)
	Agent         string // agent id for lines that carry no session id
	// Subagent opens the transcript of a subagent by its agentId (Claude
	// Code's <session>/subagents/agent-<id>.jsonl). Nil: subagent
	// transcripts are not read, and the Agent tool's result stands alone.
	Subagent func(agentID string) (io.ReadCloser, string, error)
}

// Decoder reads a Claude Code session log and yields canonical events.
// See the package documentation for the grammar and tolerance rules.
type Decoder struct {
	cfg     Config
	lines   *logline.Lines
	out     logline.Out
	splices logline.Splices // subagent transcripts to read, by position in the output
	cut     bool            // the input ends inside a line

	child *childSpec // set when this decoder reads a subagent's transcript

	session   string
	meta      sessionMeta // the held start's Meta
	heldLines int         // lines read since the main scope's start was held (until its model is known)

	scopes     map[string]*scope
	sidechains *openset.Set[string] // the scopes but the main agent's, in the order opened
	toolOf     map[string]toolInfo  // tool calls without a result yet
	pending    *openset.Set[string] // their ids, in the order called
	tooMuch    [2]bool              // the cap of sidechains, of pending, was reported
	closed     *openset.Set[string] // the last maxClosed message ids whose usage was counted
	uuidLine   map[string]int       // line number of each message line, for branch notices
	seen       bool                 // a line was read
	known      bool                 // a line of a type this package reads was read

	jr       jsontext.Reader // decodes lines in one pass, its strings made by str
	interned [4]string       // the session fields of the last line (str)
}

// childSpec is what the parent knows of the subagent whose transcript a
// child decoder reads.
type childSpec struct {
	agent, parent, tool, name, description string
	depth                                  int // 0 for a subagent of the main agent
}

// scope is the state of one agent scope.
type scope struct {
	started  bool
	msgID    string // the open message; "" when none
	model    string
	stop     string
	usage    *anthropic.Usage
	lastUUID string
	turns    int
	sum      *event.Usage
	lastStop string
	failed   bool // its last message is an API error
}

type toolInfo struct {
	agent, name string
	sub         *agentInput // the subagent an Agent or Task call starts
}

// Bounds on what the decoder remembers.
const (
	maxOpen      = openset.DefaultMax // sidechain scopes, and tool calls without a result (beyond: the oldest is forgotten, reported once)
	maxClosed    = 4096               // message ids whose usage was counted (a window: an id seen again after this many is counted again)
	maxUUIDs     = 1 << 16            // message lines, for branch notices
	maxHeldLines = 16                 // lines the session's start waits for its model
	maxDepth     = 8                  // subagents of subagents read (a transcript that names itself ends there)
)

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{
		scopes: map[string]*scope{}, sidechains: openset.New[string](maxOpen), toolOf: map[string]toolInfo{},
		pending: openset.New[string](maxOpen), closed: openset.New[string](maxClosed), uuidLine: map[string]int{},
	}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxEventBytes <= 0 {
		d.cfg.MaxEventBytes = event.DefaultMaxBytes
	}
	d.lines = logline.NewLines(r, d.cfg.Source, d.cfg.MaxEventBytes)
	d.jr.SetStrings(d.str)
	return d
}

// knownTypes are the line types this package reads; others are kept as
// event.Unknown.
var knownTypes = map[string]bool{
	wire.SessionUser: true, wire.SessionAssistant: true, wire.SessionSystem: true, wire.SessionAttachment: true, wire.SessionQueueOperation: true,
	wire.SessionLastPrompt: true, wire.SessionSummary: true,
}

// sessionTypes are the line types only a session log has.
var sessionTypes = map[string]bool{
	wire.SessionAttachment: true, wire.SessionQueueOperation: true, wire.SessionLastPrompt: true, wire.SessionSummary: true,
	"file-history-snapshot": true, "progress": true, "custom-title": true, "agent-name": true,
}

// Detect reports whether an input whose first unit is h is a Claude Code
// session log: a JSON object (not SSE) whose type only session logs
// have, or a user, assistant or system line with the session log's own
// fields (sessionId, parentUuid), which stream-json writes as session_id
// and does not have.
func Detect(h format.Head) bool {
	if h.SSE {
		return false
	}
	fields := h.Fields()
	typ, _ := format.String(fields, "type")
	if sessionTypes[typ] {
		_, ok := fields["payload"] // a Codex rollout line
		return !ok
	}
	switch typ {
	case wire.SessionUser, wire.SessionAssistant, wire.SessionSystem:
		_, parent := fields["parentUuid"]
		_, sid := fields["sessionId"]
		_, snake := fields["session_id"]
		return (parent || sid) && !snake
	}
	return false
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) {
	for {
		if ev, ok, err := d.splices.Next(&d.out, d.spliceFailed); ok {
			return ev, err
		}
		if ok, ev, err := d.out.Step(d.lines, d.decode, d.finish); ok {
			return ev, err
		}
	}
}

// spliceFailed is the problem of a subagent transcript whose reading
// failed: said, and the parent goes on.
func (d *Decoder) spliceFailed(_ event.Decoder, err error) error {
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.lines.Line, Offset: -1,
		Err: event.Errorf(event.ErrSyntax, "reading a subagent transcript: %v", err),
	}
}

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return d.lines.Errorf(sentinel, format, args...)
}

func (d *Decoder) emit(ev event.Event) { d.out.Emit(ev) }

// decode handles one line.
func (d *Decoder) decode(raw []byte) error {
	var l wire.SessionLine
	var m *logline.Mistyped
	var cut bool
	var err error
	if !d.unmarshalLine(raw, &l) {
		m, cut, err = d.lines.Unmarshal(raw, &l)
	}
	switch {
	case cut: // a log still being written: its last line is not whole yet
		d.cut = true
		return nil
	case err != nil:
		return err
	case m != nil: // a field of an unexpected type: keep the line
		d.emit(&event.Unknown{Agent: d.main(), Format: metaKind, Type: m.Type, Raw: bytes.Clone(raw)})
		return d.errorf(event.ErrSyntax, "%s line: %s", orLine(m.Type), m.Problem)
	}
	d.seen = true
	if !knownTypes[l.Type] {
		agent := d.main()
		if l.Type != "" && l.IsSidechain {
			agent = d.scopeOf(&l)
		}
		d.emit(&event.Unknown{Agent: agent, Format: metaKind, Type: l.Type, Raw: bytes.Clone(raw)})
		if l.Type == "" {
			return d.errorf(event.ErrSyntax, "not a session log line: it has no type")
		}
		return nil
	}
	d.known = true
	if d.session == "" && l.SessionID != "" {
		d.session = l.SessionID
		d.rescope()
	}
	agent := d.scopeOf(&l)
	s := d.open(agent, &l)
	if d.out.Held() != nil {
		d.heldLines++
		d.fill(&l)
	}
	d.branch(s, &l)
	switch l.Type {
	case wire.SessionAssistant:
		return d.assistant(agent, s, &l, raw)
	case wire.SessionUser:
		return d.user(agent, s, &l, raw)
	case wire.SessionSystem:
		kind, msg := l.Subtype, firstLine(stringContent(l.Content))
		if kind == "" {
			kind = wire.SessionSystem
		}
		if kind == wire.SubtypeCompactBoundary && msg == "" {
			msg = "conversation compacted"
		}
		d.emit(&event.Notice{Agent: agent, Kind: kind, Message: msg, Raw: bytes.Clone(raw)})
	case wire.SessionAttachment:
		msg := ""
		if l.Attachment != nil {
			msg = l.Attachment.Type
		}
		d.emit(&event.Notice{Agent: agent, Kind: wire.SessionAttachment, Message: msg, Raw: bytes.Clone(raw)})
	case wire.SessionQueueOperation:
		msg := l.Operation
		if c := firstLine(stringContent(l.Content)); c != "" {
			msg += ": " + c
		}
		d.emit(&event.Notice{Agent: agent, Kind: wire.SessionQueueOperation, Message: msg, Raw: bytes.Clone(raw)})
	case wire.SessionLastPrompt:
		d.emit(&event.Notice{Agent: agent, Kind: wire.SessionLastPrompt, Message: firstLine(l.LastPrompt), Raw: bytes.Clone(raw)})
	case wire.SessionSummary:
		d.emit(&event.Notice{Agent: agent, Kind: wire.SessionSummary, Message: firstLine(l.Summary), Raw: bytes.Clone(raw)})
	}
	if d.out.Held() != nil && d.heldLines >= maxHeldLines {
		d.out.Release()
	}
	return nil
}

func orLine(typ string) string {
	if typ == "" {
		return "a"
	}
	return typ
}

// rescope moves what was read before the session id was known (a log
// that starts with summary lines) into the session's scope, while the
// session's start is still held.
func (d *Decoder) rescope() {
	st := d.out.Held()
	old := d.cfg.Agent
	if d.child != nil || st == nil || st.Agent != old {
		return
	}
	st.Agent, st.SessionID = d.session, d.session
	if s, ok := d.scopes[old]; ok {
		delete(d.scopes, old)
		d.scopes[d.session] = s
	}
	for _, ev := range d.out.Behind() {
		switch e := ev.(type) {
		case *event.Notice:
			if e.Agent == old {
				e.Agent = d.session
			}
		case *event.Unknown:
			if e.Agent == old {
				e.Agent = d.session
			}
		}
	}
}

// main returns the main agent's scope.
func (d *Decoder) main() string {
	if d.child != nil {
		return d.child.agent
	}
	if d.session != "" {
		return d.session
	}
	return d.cfg.Agent
}

// scopeOf returns the agent scope of a line: the main agent's, or for a
// subagent's line in the main log (older logs keep them there) its own.
func (d *Decoder) scopeOf(l *wire.SessionLine) string {
	if d.child != nil || !l.IsSidechain {
		return d.main()
	}
	if l.AgentID != "" {
		return "agent-" + l.AgentID
	}
	return "sidechain"
}

// open returns the state of agent's scope and opens the scope the first
// time one of its lines carries session fields.
func (d *Decoder) open(agent string, l *wire.SessionLine) *scope {
	s := d.scopes[agent]
	if s == nil {
		s = &scope{}
		d.scopes[agent] = s
		if agent != d.main() {
			if old, out := d.sidechains.Add(agent); out {
				// Its message ends here; a line of it after this opens
				// it again.
				d.closeTurn(old, d.scopes[old])
				delete(d.scopes, old)
				d.tooMany(0, "subagent scopes", fmt.Sprintf("%q, whose message ends here", old))
			}
		}
	}
	if s.started {
		return s
	}
	s.started = true
	ev := &event.SessionStart{Agent: agent, SessionID: l.SessionID, Cwd: l.Cwd}
	switch {
	case d.child != nil:
		c := d.child
		ev.ParentAgent, ev.ParentToolID, ev.Name, ev.Description = c.parent, c.tool, c.name, c.description
	case agent != d.main():
		ev.ParentAgent = d.main()
		ev.Name = l.AgentID
	}
	meta := sessionMeta{SessionID: l.SessionID, Cwd: l.Cwd, Version: l.Version, GitBranch: l.GitBranch}
	ev.Meta, _ = json.Marshal(meta) // strings always marshal
	ev.MetaKind = metaKind
	if agent == d.main() {
		d.meta = meta
		d.out.Hold(ev)
		d.heldLines = 0
		d.fill(l)
		return s
	}
	if l.Message != nil && l.Message.Model != wire.SyntheticModel {
		ev.Model = l.Message.Model
	}
	d.emit(ev)
	return s
}

// fill completes the held session start with what line l says, and
// lets it go once its model is known.
func (d *Decoder) fill(l *wire.SessionLine) {
	st := d.out.Held()
	meta := &d.meta
	changed := false
	for _, f := range []struct {
		dst *string
		v   string
	}{
		{&meta.SessionID, l.SessionID}, {&meta.Cwd, l.Cwd}, {&meta.Version, l.Version}, {&meta.GitBranch, l.GitBranch},
	} {
		if *f.dst == "" && f.v != "" {
			*f.dst, changed = f.v, true
		}
	}
	if changed {
		st.Meta, _ = json.Marshal(meta) // strings always marshal
		st.SessionID, st.Cwd = meta.SessionID, meta.Cwd
	}
	if l.Type == wire.SessionAssistant && l.Message != nil && l.Message.Model != "" && l.Message.Model != wire.SyntheticModel {
		st.Model = l.Message.Model
		d.out.Release()
	}
}

// branch notes a line that does not continue from the line before it
// in its scope (an edited prompt, a retry): what was read since its
// parent is an abandoned branch. Tool results are exempt: parallel tool
// calls are answered out of order.
func (d *Decoder) branch(s *scope, l *wire.SessionLine) {
	if l.UUID == "" {
		return
	}
	defer func() {
		if len(d.uuidLine) < maxUUIDs {
			d.uuidLine[l.UUID] = d.lines.Line
		}
		s.lastUUID = l.UUID
	}()
	if l.ParentUUID == nil || *l.ParentUUID == "" || *l.ParentUUID == s.lastUUID || s.lastUUID == "" {
		return
	}
	if l.Type != wire.SessionAssistant && (l.Type != wire.SessionUser || isToolResult(l)) {
		return
	}
	from, ok := d.uuidLine[*l.ParentUUID]
	if !ok {
		return
	}
	d.emit(&event.Notice{
		Agent: d.scopeOf(l), Kind: "branch",
		Message: fmt.Sprintf("line %d continues from line %d: lines %d-%d are an abandoned branch", d.lines.Line, from, from+1, d.lines.Line-1),
	})
}

func isToolResult(l *wire.SessionLine) bool {
	if l.Message == nil {
		return false
	}
	for _, b := range l.Message.Content.Blocks {
		if b.Type == anthropic.BlockToolResult {
			return true
		}
	}
	return false
}

// closeTurn ends agent's open message, counting its usage once per
// message id.
func (d *Decoder) closeTurn(agent string, s *scope) {
	if s.msgID == "" {
		return
	}
	ev := &event.TurnEnd{Agent: agent, MessageID: s.msgID, StopReason: s.stop}
	if d.addUsage(s, s.msgID, s.usage.Event()) {
		ev.Usage = s.usage.Event()
	}
	s.turns++
	s.lastStop = s.stop
	s.msgID, s.stop, s.usage = "", "", nil
	d.emit(ev)
}

// addUsage adds the usage u of message id to the scope's total, once per
// message id; it reports false for a message already counted.
func (d *Decoder) addUsage(s *scope, id string, u *event.Usage) bool {
	if d.closed.Has(id) {
		return false
	}
	d.closed.Add(id)
	if u != nil {
		if s.sum == nil {
			s.sum = &event.Usage{}
		}
		s.sum.Add(u)
	}
	return true
}

func (d *Decoder) assistant(agent string, s *scope, l *wire.SessionLine, raw []byte) error {
	m := l.Message
	if m == nil {
		d.emit(&event.Unknown{Agent: agent, Format: metaKind, Type: l.Type, Raw: bytes.Clone(raw)})
		return d.errorf(event.ErrSyntax, "assistant line without a message")
	}
	blocks := m.Content.Blocks
	if m.Model == wire.SyntheticModel || l.IsAPIErrorMessage {
		// Claude Code's report of an API error, dressed as a message.
		var text []string
		for _, cb := range blocks {
			if cb.Text != nil {
				text = append(text, *cb.Text)
			}
		}
		var errType string
		json.Unmarshal(l.Error, &errType)
		if errType == "" {
			errType = "unknown"
		}
		msg := strings.Join(text, "\n")
		obj, _ := messages.Marshal(anthropic.APIError{Type: errType, Message: msg}) // strings always marshal
		d.closeTurn(agent, s)
		// Its stop reason and (empty) usage are what the run ended with.
		if m.StopReason != nil {
			s.lastStop = *m.StopReason
		}
		d.addUsage(s, m.ID, m.Usage.Event())
		s.failed = true
		d.emit(&event.Error{Agent: agent, Message: msg, Type: errType, Fatal: true, Raw: obj})
		return nil
	}
	if s.msgID == "" || s.msgID != m.ID {
		d.closeTurn(agent, s)
		s.msgID, s.model = m.ID, m.Model
		if s.msgID == "" {
			s.msgID = "\x00" // a message without an id: one turn per line
		}
		s.failed = false
		d.emit(&event.TurnStart{Agent: agent, MessageID: m.ID, Model: m.Model})
	}
	if m.StopReason != nil {
		s.stop = *m.StopReason
	}
	if m.Usage != nil {
		s.usage = m.Usage
	}
	for i := range blocks {
		for _, ev := range messages.BlockEvents(agent, &blocks[i], nil) {
			switch e := ev.(type) {
			case *event.ToolCall:
				if !e.Server {
					d.called(e)
				}
			case *event.Unknown:
				e.Raw = bytes.Clone(m.Content.RawBlock(i))
			}
			d.emit(ev)
		}
	}
	return nil
}

// called remembers a client tool call until its result.
func (d *Decoder) called(tc *event.ToolCall) {
	t := toolInfo{agent: tc.Agent, name: tc.Name}
	if tc.Name == "Agent" || tc.Name == "Task" {
		t.sub = &agentInput{}
		json.Unmarshal(tc.Input, t.sub)
	}
	d.toolOf[tc.ID] = t
	if old, out := d.pending.Add(tc.ID); out {
		delete(d.toolOf, old)
		d.tooMany(1, "tool calls waiting for their result", fmt.Sprintf("%s, whose result will not be named", old))
	}
}

// tooMany reports, the first time only for each kind (0 scopes, 1 tool
// calls), that the decoder forgot the oldest of what to stay within
// maxOpen.
func (d *Decoder) tooMany(kind int, what, oldest string) {
	if d.tooMuch[kind] {
		return
	}
	d.tooMuch[kind] = true
	d.out.Problem(d.errorf(event.ErrTooManyOpen, "more than %d %s; forgot the oldest, %s (later ones are not reported)", maxOpen, what, oldest))
}

func (d *Decoder) user(agent string, s *scope, l *wire.SessionLine, raw []byte) error {
	m := l.Message
	if m == nil {
		d.emit(&event.Unknown{Agent: agent, Format: metaKind, Type: l.Type, Raw: bytes.Clone(raw)})
		return d.errorf(event.ErrSyntax, "user line without a message")
	}
	blocks := m.Content.Blocks
	prompt := ""
	if m.Content.Text != nil {
		prompt = *m.Content.Text
	}
	var problem error
	var text []string
	images, results := 0, 0
	for i := range blocks {
		cb := &blocks[i]
		switch cb.Type {
		case anthropic.BlockText:
			if cb.Text != nil {
				text = append(text, *cb.Text)
			}
			continue
		case anthropic.BlockImage:
			images++
			continue
		case anthropic.BlockToolResult:
		default:
			continue
		}
		ev := &event.ToolResult{Agent: agent, ID: cb.ToolUseID, IsError: cb.IsError != nil && *cb.IsError}
		t, known := d.toolOf[cb.ToolUseID]
		if known {
			ev.Name, ev.Agent = t.name, t.agent
			delete(d.toolOf, cb.ToolUseID)
			d.pending.Remove(cb.ToolUseID)
		}
		var err error
		ev.Content, err = messages.ResultParts(cb.Content)
		if err != nil && problem == nil {
			problem = d.errorf(event.ErrSyntax, "content of tool result %s: %s", cb.ToolUseID, jsontext.Problem(err))
		}
		if results == 0 && len(l.ToolUseResult) > 0 && string(l.ToolUseResult) != "null" {
			ev.Structured = bytes.Clone(l.ToolUseResult)
			if known && t.sub != nil {
				d.subagent(ev.Agent, cb.ToolUseID, t.sub, l.ToolUseResult)
			}
		}
		results++
		d.emit(ev)
	}
	if results > 0 {
		return problem
	}
	if len(blocks) > 0 {
		prompt = strings.Join(text, "\n")
	}
	if images > 0 {
		prompt = strings.TrimSpace(prompt + fmt.Sprintf(" [%d image(s)]", images))
	}
	kind := "user"
	switch {
	case l.IsCompactSummary:
		kind = "compact_summary"
	case l.IsMeta:
		kind = "meta"
	case d.out.Held() != nil && d.out.Held().Agent == agent && d.out.Held().Prompt == "":
		d.out.Held().Prompt = prompt
		return problem
	}
	d.emit(&event.Notice{Agent: agent, Kind: kind, Message: firstLine(prompt), Raw: bytes.Clone(raw)})
	return problem
}

// subagent arranges for the transcript of the subagent an Agent tool call
// started to be read before the call's result.
func (d *Decoder) subagent(parent, toolID string, in *agentInput, structured json.RawMessage) {
	if d.cfg.Subagent == nil {
		return
	}
	var res agentResult
	if json.Unmarshal(structured, &res) != nil || res.AgentID == "" {
		return
	}
	if d.child != nil && d.child.depth >= maxDepth {
		d.out.Problem(d.errorf(event.ErrSyntax, "subagent %s: nested more than %d deep; not read", res.AgentID, maxDepth))
		return
	}
	rc, name, err := d.cfg.Subagent(res.AgentID)
	if err != nil {
		d.out.Problem(d.errorf(event.ErrSyntax, "subagent %s: %v", res.AgentID, err))
		return
	}
	if rc == nil {
		return
	}
	spec := &childSpec{agent: toolID, parent: parent, tool: toolID, name: in.SubagentType, description: in.Description}
	if d.child != nil {
		spec.depth = d.child.depth + 1
	}
	if spec.name == "" {
		spec.name = res.AgentType
	}
	cfg := d.cfg
	cfg.Source = name
	child := NewDecoder(rc, &cfg)
	child.child = spec
	d.splices.Add(&d.out, child, rc)
}

// finish handles the end of the input: open messages end, the main
// agent's run ends with the totals its lines carry, and a log cut off
// inside a line is reported.
func (d *Decoder) finish() {
	for _, agent := range slices.Sorted(maps.Keys(d.scopes)) {
		d.closeTurn(agent, d.scopes[agent])
	}
	d.out.Release()
	if d.seen && !d.known {
		// Never a false yes: lines of no type this format has.
		d.out.Problem(&event.ParseError{
			Source: d.cfg.Source, Offset: -1,
			Err: event.Errorf(event.ErrSyntax, "no Claude Code session log line in the input"),
		})
	}
	if s := d.scopes[d.main()]; s != nil && d.child == nil && !d.cut {
		ev := &event.RunEnd{
			Agent: d.main(), StopReason: s.lastStop, Turns: s.turns, Usage: s.sum, IsError: s.failed,
			MetaKind: metaKind,
		}
		d.emit(ev)
	}
	if d.cut {
		d.out.Problem(d.lines.Truncated())
	}
}

// stringContent returns content that is a JSON string, or "".
func stringContent(content json.RawMessage) string {
	var s string
	if len(content) > 0 && content[0] == '"' {
		json.Unmarshal(content, &s)
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
