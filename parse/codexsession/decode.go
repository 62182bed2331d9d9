package codexsession

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/parse/internal/logline"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one line (event.DefaultMaxBytes if 0)
	Agent         string // agent id until session_meta names the session
	// Subagent opens the rollout of a subagent thread by its id (Codex's
	// rollout-<time>-<thread id>.jsonl), and returns its name for error
	// messages. Nil: subagent rollouts are not read, and the spawn_agent
	// call's result stands alone.
	Subagent func(agentID string) (io.ReadCloser, string, error)
}

// Decoder reads a Codex rollout file and yields canonical events. See the
// package documentation for the grammar and tolerance rules.
type Decoder struct {
	cfg   Config
	lines *logline.Lines
	out   logline.Out
	cut   bool // the input ends inside a line

	splices logline.Splices // subagent rollouts to read, by position in the output
	child   *childSpec      // set when this decoder reads a subagent's rollout

	agent     string
	heldLines int  // lines read since the session's start was held (until its prompt or first content)
	started   bool // session_meta seen
	seen      bool // a line was read
	known     bool // a line of a type this package reads was read

	pending map[string]*call // tool calls waiting for their output
	order   []string         // their ids, oldest first
	total   *event.Usage     // the last cumulative token count
	prev    event.Usage      // the cumulative count at the end of the last turn
	records *event.Usage     // token_usage_record usage summed over the turn
	capped  bool             // the cap on held calls was reported

	jr   jsontext.Reader // decodes lines in one pass
	line line            // the line being decoded, reused
}

// call is a tool call held until its output: the exec item Codex
// completes for a shell command replaces the model's function call.
type call struct {
	id, name string
	input    json.RawMessage
	item     *completedItem
}

const (
	maxPending   = openset.DefaultMax // tool calls held without an output
	maxHeldLines = 16                 // lines the session's start waits for its prompt or first content
)

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{pending: map[string]*call{}}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxEventBytes <= 0 {
		d.cfg.MaxEventBytes = event.DefaultMaxBytes
	}
	d.agent = d.cfg.Agent
	d.lines = logline.NewLines(r, d.cfg.Source, d.cfg.MaxEventBytes)
	return d
}

var lineTypes = map[string]bool{
	typeSessionMeta: true, typeTurnContext: true, typeResponseItem: true, typeEventMsg: true,
	typeWorldState: true, typeTokenUsageRecord: true, typeCompacted: true,
}

// Detect reports whether an input whose first unit is h is a Codex
// rollout file: a JSON object (not SSE) with a rollout line type and a
// timestamp or payload member (codex exec --json has neither).
func Detect(h format.Head) bool {
	if h.SSE {
		return false
	}
	fields := h.Fields()
	typ, _ := format.String(fields, "type")
	_, ts := fields["timestamp"]
	_, p := fields["payload"]
	if typ == "" {
		// The first line of a rollout before session_meta.
		_, id := fields["id"]
		_, inst := fields["instructions"]
		return id && ts && inst
	}
	return lineTypes[typ] && (ts || p)
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) {
	for {
		if ev, ok, err := d.splices.Next(&d.out, d.spliceFailed); ok {
			return ev, err
		}
		if ok, ev, err := d.out.Step(d.lines, d.decodeLine, d.finish); ok {
			return ev, err
		}
	}
}

// decodeLine decodes a line, and lets the held session start go once
// enough lines have come without saying more of it.
func (d *Decoder) decodeLine(raw []byte) error {
	err := d.decode(raw)
	if d.out.Held() != nil {
		if d.heldLines++; d.heldLines >= maxHeldLines {
			d.out.Release()
		}
	}
	return err
}

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return d.lines.Errorf(sentinel, format, args...)
}

func (d *Decoder) emit(ev event.Event) { d.out.Emit(ev) }

func (d *Decoder) release() { d.out.Release() }

func (d *Decoder) unknown(typ string, raw []byte) {
	d.emit(&event.Unknown{Agent: d.agent, Format: metaKind, Type: typ, Raw: bytes.Clone(raw)})
}

func (d *Decoder) notice(kind, msg string, raw []byte) {
	d.emit(&event.Notice{Agent: d.agent, Kind: kind, Message: firstLine(msg), Raw: bytes.Clone(raw)})
}

// decode handles one line.
func (d *Decoder) decode(raw []byte) error {
	l := &d.line
	*l = line{}
	d.jr.Reset(raw)
	if readLine(&d.jr, l) && d.jr.End() {
		return d.dispatch(l, raw)
	}
	*l = line{}
	m, cut, err := d.lines.Unmarshal(raw, l)
	switch {
	case cut: // a log still being written: its last line is not whole yet
		d.cut = true
		return nil
	case err != nil:
		return err
	case m != nil: // a field of an unexpected type: keep the line
		d.unknown(m.Type, raw)
		return d.errorf(event.ErrSyntax, "%s: %s", orLine(m.Type), m.Problem)
	}
	return d.dispatch(l, raw)
}

// dispatch handles a decoded line.
func (d *Decoder) dispatch(l *line, raw []byte) error {
	p := &l.Payload
	d.seen = true
	if lineTypes[l.Type] || legacyItems[l.Type] {
		d.known = true
	}
	if l.Type == "" || legacyItems[l.Type] {
		return d.legacy(l, raw)
	}
	switch l.Type {
	case typeSessionMeta:
		// Meta is the payload verbatim: taken again, once per session,
		// when the one-pass reader did not keep it.
		meta := l.PayloadText()
		if meta == nil {
			meta = payloadText(&d.jr, raw)
		}
		d.sessionMeta(p, meta)
	case typeTurnContext:
		if st := d.out.Held(); st != nil && st.Model == "" && p.Model != "" {
			st.Model = p.Model
			if p.Cwd != "" && st.Cwd == "" {
				st.Cwd = p.Cwd
			}
			return nil
		}
		d.notice(typeTurnContext, "model "+p.Model, raw)
	case typeResponseItem:
		return d.responseItem(p, raw)
	case typeEventMsg:
		d.eventMsg(p, raw)
	case typeWorldState:
		d.notice(typeWorldState, "world state", raw)
	case typeTokenUsageRecord:
		if p.Usage != nil {
			if d.records == nil {
				d.records = &event.Usage{}
			}
			u := p.Usage.Event()
			d.records.Add(&u)
		}
	case typeCompacted:
		d.notice(typeCompacted, p.Message, raw)
	default:
		d.unknown(l.Type, raw)
	}
	return nil
}

// legacyItems are the response item types rollouts before session_meta
// (Codex before 0.4x) wrote as lines of their own, with no wrapper.
var legacyItems = map[string]bool{
	itemMessage: true, itemReasoning: true, itemFunctionCall: true, itemFunctionCallOutput: true,
	itemCustomToolCall: true, itemCustomToolOutput: true, itemLocalShellCall: true, itemWebSearchCall: true,
}

// legacy reads a line of the rollout format before session_meta: a first
// line {id, timestamp, instructions}, response items without a wrapper,
// and {record_type: "state"} lines.
func (d *Decoder) legacy(l *line, raw []byte) error {
	if l.Type != "" {
		var p payload
		if err := json.Unmarshal(raw, &p); err != nil {
			d.unknown(l.Type, raw)
			return d.errorf(event.ErrSyntax, "%s: %s", l.Type, jsontext.Problem(err))
		}
		return d.responseItem(&p, raw)
	}
	var h struct {
		ID         string `json:"id"`
		RecordType string `json:"record_type"`
	}
	json.Unmarshal(raw, &h)
	switch {
	case h.RecordType != "":
		d.known = true
		d.notice(h.RecordType, "", raw)
	case h.ID != "" && !d.started:
		d.known = true
		d.sessionMeta(&payload{ID: h.ID}, raw)
	default:
		d.unknown("", raw)
		return d.errorf(event.ErrSyntax, "not a rollout line: it has no type")
	}
	return nil
}

func orLine(typ string) string {
	if typ == "" {
		return "line"
	}
	return typ
}

func (d *Decoder) sessionMeta(p *payload, raw json.RawMessage) {
	if d.started {
		d.notice(typeSessionMeta, "session "+p.ID, raw)
		return
	}
	d.started = true
	if p.ID != "" {
		d.agent = p.ID
	}
	st := &event.SessionStart{
		Agent: d.agent, SessionID: p.ID, Cwd: p.Cwd, Meta: bytes.Clone(raw), MetaKind: metaKind,
	}
	if c := d.child; c != nil {
		st.ParentAgent, st.ParentToolID, st.Name = c.parent, c.tool, c.name
	}
	d.out.Hold(st)
	d.heldLines = 0
}

func (d *Decoder) responseItem(p *payload, raw []byte) error {
	switch p.Type {
	case itemMessage:
		d.message(p, raw)
	case itemReasoning:
		var text []string
		for _, parts := range []parts{p.Summary, p.Content} {
			for _, s := range parts {
				text = append(text, s.Text)
			}
			if len(text) > 0 {
				break // the summary, or else the raw reasoning
			}
		}
		sig := ""
		if p.EncryptedContent != nil {
			sig = *p.EncryptedContent
		}
		d.block(event.Thinking, strings.Join(text, "\n"), sig)
	case itemFunctionCall, itemCustomToolCall, itemLocalShellCall, itemToolSearchCall:
		c := &call{id: p.CallID, name: p.Name}
		switch p.Type {
		case itemFunctionCall:
			c.input = arguments(p.Arguments)
		case itemToolSearchCall:
			c.name = toolSearchTool
			c.input = arguments(p.Arguments)
		case itemCustomToolCall:
			c.input = event.JSONText(p.Input)
		default:
			c.name = "local_shell"
			c.input = json.RawMessage("{}")
			if len(p.Action) > 0 {
				c.input = bytes.Clone(p.Action)
			}
		}
		if c.id == "" {
			c.id = p.ID
		}
		d.hold(c)
	case itemFunctionCallOutput, itemCustomToolOutput:
		c := d.pending[p.CallID]
		if c == nil {
			c = &call{id: p.CallID}
		}
		d.answer(c, p, raw)
	case itemToolSearchOutput:
		c := d.pending[p.CallID]
		if c == nil {
			c = &call{id: p.CallID, name: toolSearchTool}
		}
		d.answered(c)
		ev := &event.ToolResult{Agent: d.agent, ID: c.id, Name: c.name, Status: p.Status, Structured: bytes.Clone(p.Tools)}
		if len(p.Tools) > 0 {
			ev.Content = []event.Part{{Type: "text", Text: string(p.Tools)}}
		}
		d.emit(ev)
	case itemWebSearchCall:
		input := json.RawMessage("{}")
		if len(p.Action) > 0 {
			input = bytes.Clone(p.Action)
		}
		d.emit(&event.ToolCall{Agent: d.agent, ID: p.ID, Name: "web_search", Input: input})
		d.emit(&event.ToolResult{Agent: d.agent, ID: p.ID, Name: "web_search", Status: p.Status})
	default:
		d.unknown(p.Type, raw)
	}
	return nil
}

// arguments returns a call's arguments as event.ToolCall's Input: a JSON
// string holds them as JSON text (function_call), any other value is
// them (tool_search_call's object).
func arguments(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return event.JSONText(s)
	}
	return bytes.Clone(raw)
}

// message handles a message item: the assistant's text, the user's
// prompt, or the context Codex gives the model.
func (d *Decoder) message(p *payload, raw []byte) {
	var text []string
	images := 0
	for _, c := range p.Content {
		switch c.Type {
		case "output_text", "input_text", "text", "refusal":
			text = append(text, c.Text)
		case "input_image":
			images++
		}
	}
	s := strings.Join(text, "")
	if p.Role == "assistant" {
		d.block(event.Text, s, "")
		return
	}
	if images > 0 {
		s = strings.TrimSpace(s + " [" + strconv.Itoa(images) + " image(s)]")
	}
	switch {
	case p.Role != "user":
		d.notice(p.Role, s, raw)
	case strings.HasPrefix(s, "<environment_context>") || strings.HasPrefix(s, "<user_instructions>") ||
		strings.HasPrefix(s, "# AGENTS.md"):
		d.notice("context", s, raw)
	case d.out.Held() != nil && d.out.Held().Prompt == "":
		d.out.Held().Prompt = s
		d.release()
	default:
		d.notice("user", s, raw)
	}
}

func (d *Decoder) block(kind event.BlockKind, text, sig string) {
	d.release() // the session's start waits no longer than its first content
	d.emit(&event.BlockStart{Agent: d.agent, Kind: kind})
	if text != "" {
		d.emit(&event.Delta{Agent: d.agent, Kind: kind, Text: text})
	}
	d.emit(&event.BlockEnd{Agent: d.agent, Kind: kind, Signature: sig})
}

// hold keeps a tool call until its output.
func (d *Decoder) hold(c *call) {
	if _, ok := d.pending[c.id]; !ok {
		d.order = append(d.order, c.id)
	}
	d.pending[c.id] = c
	for len(d.pending) > maxPending {
		if old := d.pending[d.order[0]]; old != nil {
			d.flush(old) // which drops it from order
			if !d.capped {
				d.capped = true
				d.out.Problem(d.errorf(event.ErrTooManyOpen, "more than %d tool calls wait for their output; %q went out without it (later ones are not reported)", maxPending, old.id))
			}
		} else {
			d.order = d.order[1:]
		}
	}
}

// flush emits a held call that gets no output (and its exec item's
// result, if it had one).
func (d *Decoder) flush(c *call) {
	delete(d.pending, c.id)
	d.order = slices.DeleteFunc(d.order, func(id string) bool { return id == c.id })
	d.emitCall(c)
	if c.item != nil {
		d.emit(d.itemResult(c.id, c.item))
	}
}

func (d *Decoder) flushAll() {
	for len(d.order) > 0 {
		if c := d.pending[d.order[0]]; c != nil {
			d.flush(c)
		} else {
			d.order = d.order[1:]
		}
	}
}

func (d *Decoder) emitCall(c *call) {
	d.release()
	if it := c.item; it != nil && it.Type == evItemCommandExecution {
		input, _ := json.Marshal(struct {
			Command string `json:"command"`
		}{shellJoin(it.Command)})
		d.emit(&event.ToolCall{Agent: d.agent, ID: c.id, Name: "command_execution", Input: input})
		return
	}
	input := c.input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	d.emit(&event.ToolCall{Agent: d.agent, ID: c.id, Name: c.name, Input: input})
}

// itemResult is the result of a shell command as its exec item reports it.
func (d *Decoder) itemResult(id string, it *completedItem) *event.ToolResult {
	ev := &event.ToolResult{
		Agent: d.agent, ID: id, Name: "command_execution", ExitCode: it.ExitCode, Status: it.Status,
		IsError: it.Status == "failed" || it.Status == "declined",
	}
	if it.AggregatedOutput != "" {
		ev.Content = []event.Part{{Type: "text", Text: it.AggregatedOutput}}
	}
	return ev
}

// answered emits held call c, whose output has come: its result follows.
func (d *Decoder) answered(c *call) {
	delete(d.pending, c.id)
	d.order = slices.DeleteFunc(d.order, func(id string) bool { return id == c.id })
	d.emitCall(c)
}

// answer emits a held call and its result, from its output item p.
func (d *Decoder) answer(c *call, p *payload, raw []byte) {
	d.answered(c)
	if c.item != nil && c.item.Type == evItemCommandExecution {
		ev := d.itemResult(c.id, c.item)
		ev.Structured = bytes.Clone(p.Output) // what the model was told
		d.emit(ev)
		return
	}
	ev := &event.ToolResult{Agent: d.agent, ID: c.id, Name: c.name}
	out := bytes.TrimSpace(p.Output)
	switch {
	case len(out) == 0:
	case out[0] == '"':
		var s string
		json.Unmarshal(out, &s)
		ev.Content = []event.Part{{Type: "text", Text: s}}
	case out[0] == '{':
		var o functionOutput
		json.Unmarshal(out, &o)
		ev.Content = []event.Part{{Type: "text", Text: o.Content}}
		ev.IsError = o.Success != nil && !*o.Success
	case out[0] == '[':
		var parts []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			ImageURL string `json:"image_url"`
		}
		json.Unmarshal(out, &parts)
		for _, pt := range parts {
			if pt.ImageURL != "" {
				ev.Content = append(ev.Content, event.Part{Type: "image", Source: pt.ImageURL})
			} else {
				ev.Content = append(ev.Content, event.Part{Type: "text", Text: pt.Text})
			}
		}
	default:
		ev.Content = []event.Part{{Type: "text", Text: string(out)}}
	}
	d.emit(ev)
	if c.name == spawnTool && len(ev.Content) == 1 {
		d.spawned(c, ev.Content[0].Text)
	}
}

func (d *Decoder) eventMsg(p *payload, raw []byte) {
	switch p.Type {
	case msgTaskStarted:
		d.records = nil
		d.emit(&event.TurnStart{Agent: d.agent})
	case msgTaskComplete, msgTurnAborted:
		d.release()
		d.flushAll()
		if p.Error != nil || p.Type == msgTurnAborted {
			msg, kind := "turn aborted", ""
			if p.Reason != "" {
				msg += ": " + p.Reason
			}
			if p.Error != nil {
				msg = p.Error.Message
				json.Unmarshal(p.Error.CodexErrorInfo, &kind)
				obj, _ := json.Marshal(p.Error)
				d.emit(&event.Error{Agent: d.agent, Message: msg, Type: kind, Fatal: true, Raw: obj})
			}
			d.emit(&event.TurnEnd{Agent: d.agent, Error: msg})
			d.endUsage()
			return
		}
		d.emit(&event.TurnEnd{Agent: d.agent, Usage: d.endUsage()})
	case msgTokenCount:
		if p.Info != nil && p.Info.TotalTokenUsage != nil {
			u := p.Info.TotalTokenUsage.Event()
			d.total = &u
		}
	case msgItemCompleted:
		it := p.Item
		if it == nil {
			d.notice(p.Type, "", raw)
			return
		}
		switch it.Type {
		case "AgentMessage", "Reasoning", "UserMessage":
			// The response item of the same content is what is read.
		case evItemCommandExecution:
			if c := d.pending[it.ID]; c != nil {
				c.item = it
				return
			}
			d.emitCall(&call{id: it.ID, item: it})
			d.emit(d.itemResult(it.ID, it))
		default:
			d.notice(p.Type, it.Type, raw)
		}
	case "agent_message", "agent_reasoning", "agent_reasoning_raw_content", "user_message":
		// Older rollouts repeat each response item as an event: the
		// response item is what is read.
	case msgError:
		d.emit(&event.Error{Agent: d.agent, Message: p.Message, Raw: bytes.Clone(raw)})
	default:
		d.notice(p.Type, p.Message, raw)
	}
}

// endUsage returns the usage of the turn that ends: what the cumulative
// token count grew by, or the turn's token usage records summed.
func (d *Decoder) endUsage() *event.Usage {
	var u *event.Usage
	switch {
	case d.total != nil && *d.total != d.prev:
		grew := *d.total
		grew.Sub(&d.prev)
		u, d.prev = &grew, *d.total
	case d.total == nil && d.records != nil:
		u = d.records
	}
	d.records = nil
	return u
}

// finish handles the end of the input: held calls are emitted, and a log
// cut off inside a line is reported.
func (d *Decoder) finish() {
	d.flushAll()
	d.release()
	if u := d.endUsage(); u != nil {
		// Token counts after the last task_complete (or in a rollout
		// without task events): the usage of the turn the log ends in.
		d.emit(&event.TurnEnd{Agent: d.agent, Usage: u})
	}
	if d.seen && !d.known {
		// Never a false yes: lines of no type this format has.
		d.out.Problem(&event.ParseError{
			Source: d.cfg.Source, Offset: -1,
			Err: event.Errorf(event.ErrSyntax, "no Codex rollout line in the input"),
		})
	}
	if d.cut {
		d.out.Problem(d.lines.Truncated())
	}
}

// shellJoin writes a command's arguments as one shell command line, as
// codex exec --json does: arguments with characters a shell treats
// specially are single-quoted.
func shellJoin(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:=@+%") == "" {
			b.WriteString(a)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(a, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
