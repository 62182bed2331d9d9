package geminisession

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/wire/gemini"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
	"github.com/agentstream/agentstream/parse/internal/logline"
)

// MetaKind names the SessionStart Meta this package writes: the header
// line, verbatim.
const MetaKind = "gemini-session"

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one line (event.DefaultMaxBytes if 0)
	Agent         string // agent id until the header names the session
	// Foreign names the format of a line of another format
	// (format.Options.Foreign).
	Foreign format.Foreign
}

// Bounds on what the decoder remembers.
const (
	maxRecords   = 4096 // message ids whose content was written (a window: a message repeated after this many is written again)
	maxHeldLines = 16   // lines the session's start waits for its prompt
)

// Decoder reads a Gemini CLI session log and yields canonical events. See
// the package documentation.
type Decoder struct {
	jr    jsontext.Reader // reads the wire structs in one pass
	cfg   Config
	lines *logline.Lines
	out   logline.Out
	bad   badutf8.Once

	agent     string
	heldLines int
	prompted  bool // the first prompt was read
	known     bool // a line of this format was read
	seen      bool // a line was read
	cut       bool // the log ends inside a line

	records *openset.Set[string]    // ids of the records written, oldest first
	written map[string]*recordState // what was written of each
	turn    *recordState            // the gemini message whose turn is open
}

// recordState is what was written of one gemini message.
type recordState struct {
	id       string
	model    string
	usage    *event.Usage
	text     bool
	thoughts int
	calls    map[string]bool // tool calls written
	results  map[string]bool // tool results written
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{records: openset.New[string](maxRecords), written: map[string]*recordState{}}
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

// Detect reports whether an input whose first unit is h is a Gemini CLI
// session log: its header line (sessionId and projectHash, no type), a
// message record (id, timestamp and a record type, no session id) or a
// patch line ($set, $rewindTo).
func Detect(h format.Head) bool {
	if h.SSE {
		return false
	}
	fields := h.Fields()
	if fields == nil {
		return false
	}
	if _, ok := fields[gemini.KeySet]; ok && len(fields) == 1 {
		return true
	}
	if _, ok := fields[gemini.KeyRewindTo]; ok && len(fields) == 1 {
		return true
	}
	_, sid := fields["sessionId"]
	_, project := fields["projectHash"]
	_, typ := fields["type"]
	if sid && project && !typ {
		return true
	}
	t, _ := format.String(fields, "type")
	_, id := fields["id"]
	_, ts := fields["timestamp"]
	_, content := fields["content"]
	switch t {
	case gemini.RecordUser, gemini.RecordGemini, gemini.RecordInfo, gemini.RecordWarning, gemini.RecordError:
		_, snake := fields["session_id"]
		_, uuid := fields["uuid"]
		return id && ts && content && !snake && !uuid
	}
	return false
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) {
	for {
		if ok, ev, err := d.out.Step(d.lines, d.decodeLine, d.finish); ok {
			return ev, err
		}
	}
}

func (d *Decoder) emit(ev event.Event) { d.out.Emit(ev) }

// decodeLine decodes a line, and lets the held start go once enough lines
// have come without its prompt.
func (d *Decoder) decodeLine(raw []byte) error {
	raw, i, warn := d.bad.Fix(raw)
	err := d.decode(raw)
	if d.out.Held() != nil {
		if d.heldLines++; d.heldLines >= maxHeldLines {
			d.out.Release()
		}
	}
	if warn {
		if err != nil {
			d.out.Problem(err)
		}
		return badutf8.Warning(d.cfg.Source, d.lines.Line, i+1, d.lines.Offset+int64(i))
	}
	return err
}

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return d.lines.Errorf(sentinel, format, args...)
}

// line is what tells a session log's lines apart.
type line struct {
	ID          *string          `json:"id"`
	Type        *string          `json:"type"`
	SessionID   *string          `json:"sessionId"`
	ProjectHash *string          `json:"projectHash"`
	Set         *json.RawMessage `json:"$set"`
	RewindTo    *json.RawMessage `json:"$rewindTo"`
	Timestamp   *json.RawMessage `json:"timestamp"`
}

// decode handles one line.
func (d *Decoder) decode(raw []byte) error {
	d.seen = true
	var l line
	m, cut, err := d.lines.Unmarshal(raw, &l)
	switch {
	case cut:
		d.cut = true
		return nil
	case err != nil:
		return err
	case m != nil:
		d.unknown(m.Type, raw)
		return d.errorf(event.ErrSyntax, "a line with a field of an unexpected type (%s); kept as unknown", m.Problem)
	}
	switch {
	case l.Set != nil:
		d.known = true
		return d.set(*l.Set, raw)
	case l.RewindTo != nil:
		d.known = true
		var id string
		json.Unmarshal(*l.RewindTo, &id)
		d.closeTurn()
		d.emit(&event.Notice{Agent: d.agent, Kind: "rewind", Message: "the conversation is rewound to message " + id, Raw: bytes.Clone(raw)})
		return nil
	case l.Type == nil && l.SessionID != nil && l.ProjectHash != nil:
		d.known = true
		return d.header(raw)
	case l.Type != nil && l.ID != nil:
		d.known = true
		return d.record(raw)
	case l.Type != nil && gemini.IsStreamType(*l.Type) && l.Timestamp != nil:
		return d.errorf(event.ErrSyntax, "a %s line of Gemini CLI stream-json, not of its session log (read it with --from gemini); skipped", *l.Type)
	}
	typ := ""
	if l.Type != nil {
		typ = *l.Type
	}
	if k := d.cfg.Foreign.Of(raw); k != "" {
		return d.errorf(event.ErrSyntax, "a line of another format (it looks like %s); skipped", k)
	}
	if typ == "" {
		d.unknown("", raw)
		return d.errorf(event.ErrSyntax, "a line that is no header, message or patch; kept as unknown")
	}
	d.known = true
	d.unknown(typ, raw)
	return nil
}

func (d *Decoder) unknown(typ string, raw []byte) {
	d.emit(&event.Unknown{Agent: d.agent, Format: "gemini-session", Type: typ, Raw: bytes.Clone(raw)})
}

// header opens the session.
func (d *Decoder) header(raw []byte) error {
	var h gemini.SessionHeader
	if err := jsontext.Decode(&d.jr, raw, &h, gemini.ReadSessionHeader); err != nil {
		d.unknown("", raw)
		return d.errorf(event.ErrSyntax, "a header line with a field of an unexpected type (%s); kept as unknown", jsontext.Problem(err))
	}
	d.closeTurn()
	if d.out.Held() != nil || d.prompted {
		d.emit(&event.Notice{Agent: d.agent, Kind: "header", Message: "another session header: " + h.SessionID, Raw: bytes.Clone(raw)})
		return nil
	}
	if h.SessionID != "" {
		d.agent = h.SessionID
	}
	d.heldLines = 0
	d.out.Hold(&event.SessionStart{
		Agent: d.agent, SessionID: h.SessionID, Meta: bytes.Clone(raw), MetaKind: MetaKind,
	})
	return nil
}

// set handles a metadata patch: a new message list (the context the CLI
// gives the model, or the history rolled back) is a notice; a patch of
// nothing but lastUpdated says nothing.
func (d *Decoder) set(patch json.RawMessage, raw []byte) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(patch, &m) != nil {
		d.unknown(gemini.KeySet, raw)
		return d.errorf(event.ErrSyntax, "a $set line whose value is not an object; kept as unknown")
	}
	delete(m, "lastUpdated")
	if len(m) == 0 {
		return nil
	}
	msg := "session metadata set"
	if list, ok := m["messages"]; ok {
		var recs []json.RawMessage
		json.Unmarshal(list, &recs)
		msg = fmt.Sprintf("the message list is set to %d message(s)", len(recs))
		if len(recs) > 0 {
			var r gemini.Record
			if jsontext.Decode(&d.jr, recs[0], &r, gemini.ReadRecord) == nil {
				if t := firstLine(textOf(r.Content)); t != "" {
					msg += ": " + t
				}
			}
		}
	}
	d.closeTurn()
	d.emit(&event.Notice{Agent: d.agent, Kind: gemini.KeySet, Message: msg, Raw: bytes.Clone(raw)})
	return nil
}

// record handles a message record.
func (d *Decoder) record(raw []byte) error {
	var r gemini.Record
	if err := jsontext.Decode(&d.jr, raw, &r, gemini.ReadRecord); err != nil {
		var head struct {
			Type string `json:"type"`
		}
		json.Unmarshal(raw, &head)
		d.unknown(head.Type, raw)
		return d.errorf(event.ErrSyntax, "a %s message with a field of an unexpected type (%s); kept as unknown", head.Type, jsontext.Problem(err))
	}
	switch r.Type {
	case gemini.RecordUser:
		d.closeTurn()
		d.user(&r)
	case gemini.RecordGemini:
		d.model(&r)
	case gemini.RecordInfo, gemini.RecordWarning:
		d.closeTurn()
		d.emit(&event.Notice{Agent: d.agent, Kind: r.Type, Message: textOf(r.Content)})
	case gemini.RecordError:
		d.closeTurn()
		d.emit(&event.Error{Agent: d.agent, Message: textOf(r.Content), Raw: bytes.Clone(raw)})
	default:
		d.closeTurn()
		d.unknown(r.Type, raw)
	}
	return nil
}

// user handles a user message: the first prompt opens the session; tool
// responses are the results the model was sent, written here only for a
// call whose result no gemini message had.
func (d *Decoder) user(r *gemini.Record) {
	parts := partsOf(r.Content)
	var text []string
	for _, p := range parts {
		switch {
		case p.FunctionResponse != nil:
			d.response(p.FunctionResponse)
		case p.Text != nil && !p.Thought:
			text = append(text, *p.Text)
		}
	}
	if len(text) == 0 {
		return
	}
	prompt := strings.Join(text, "")
	if s := d.out.Held(); s != nil && !d.prompted {
		d.prompted = true
		s.Prompt = prompt
		d.out.Release()
		return
	}
	d.prompted = true
	d.emit(&event.Notice{Agent: d.agent, Kind: "user", Message: prompt})
}

// response writes the result of a call no gemini message gave one.
func (d *Decoder) response(fr *gemini.FunctionResponse) {
	for _, st := range d.written {
		if st.results[fr.ID] {
			return
		}
	}
	res := &event.ToolResult{Agent: d.agent, ID: fr.ID, Name: fr.Name, Structured: cloneRaw(fr.Response)}
	var resp struct {
		Output *json.RawMessage `json:"output"`
		Error  *json.RawMessage `json:"error"`
	}
	json.Unmarshal(fr.Response, &resp)
	if resp.Error != nil {
		res.IsError = true
		res.Content = []event.Part{{Type: "text", Text: stringOrJSON(*resp.Error)}}
	} else if resp.Output != nil {
		res.Content = []event.Part{{Type: "text", Text: stringOrJSON(*resp.Output)}}
	}
	d.emit(res)
}

// model handles a gemini message, the first time or again: what it has
// that was not written yet is written.
func (d *Decoder) model(r *gemini.Record) {
	st := d.written[r.ID]
	if st == nil {
		st = &recordState{id: r.ID, calls: map[string]bool{}, results: map[string]bool{}}
		if old, ok := d.records.Add(r.ID); ok {
			delete(d.written, old)
		}
		d.written[r.ID] = st
	}
	if d.turn != st {
		d.closeTurn()
		d.turn = st
		d.emit(&event.TurnStart{Agent: d.agent, MessageID: r.ID, Model: r.Model})
	}
	if r.Model != "" {
		st.model = r.Model
	}
	if t := r.Tokens; t != nil {
		u := &event.Usage{InputTokens: t.Input, OutputTokens: t.Output, CacheReadTokens: t.Cached, Has: event.HasTokens | event.HasCacheRead}
		if t.Thoughts != nil {
			u.OutputTokens += *t.Thoughts
			u.ReasoningTokens = *t.Thoughts
			u.Has |= event.HasReasoning
		}
		st.usage = u
	}
	for _, th := range r.Thoughts[min(st.thoughts, len(r.Thoughts)):] {
		text := th.Description
		if th.Subject != "" {
			text = th.Subject + "\n\n" + th.Description
		}
		d.block(event.Thinking, text)
	}
	st.thoughts = max(st.thoughts, len(r.Thoughts))
	if !st.text {
		var text []string
		for _, p := range partsOf(r.Content) {
			if p.Text != nil && !p.Thought {
				text = append(text, *p.Text)
			}
		}
		if s := strings.Join(text, ""); s != "" {
			st.text = true
			d.block(event.Text, s)
		}
	}
	for _, c := range r.ToolCalls {
		if st.calls[c.ID] {
			continue
		}
		st.calls[c.ID] = true
		input := json.RawMessage("null")
		if len(c.Args) > 0 {
			input = cloneRaw(c.Args)
		}
		d.emit(&event.ToolCall{Agent: d.agent, ID: c.ID, Name: c.Name, Input: input})
	}
	for i := range r.ToolCalls {
		c := &r.ToolCalls[i]
		if st.results[c.ID] || !ended(c) {
			continue
		}
		st.results[c.ID] = true
		d.emit(toolResult(d.agent, c))
	}
}

// ended reports whether a tool call has its outcome.
func ended(c *gemini.ToolCallRecord) bool {
	switch c.Status {
	case gemini.ToolSuccess, gemini.ToolError, gemini.ToolCancelled:
		return true
	}
	return len(c.Result) > 0 && string(c.Result) != "null"
}

// toolResult is a tool call's result: what the user was shown
// (resultDisplay, as stream-json writes it), with what the model was sent
// (the function response) as Structured.
func toolResult(agent string, c *gemini.ToolCallRecord) *event.ToolResult {
	res := &event.ToolResult{Agent: agent, ID: c.ID, Name: c.Name, IsError: c.Status == gemini.ToolError}
	if c.Status != gemini.ToolSuccess && c.Status != gemini.ToolError {
		res.Status = c.Status
	}
	var response json.RawMessage
	for _, p := range partsOf(c.Result) {
		if p.FunctionResponse != nil {
			response = p.FunctionResponse.Response
			break
		}
	}
	res.Structured = cloneRaw(response)
	var display string
	if len(c.ResultDisplay) > 0 && json.Unmarshal(c.ResultDisplay, &display) == nil {
		res.Content = []event.Part{{Type: "text", Text: display}}
		return res
	}
	var resp struct {
		Output *json.RawMessage `json:"output"`
		Error  *json.RawMessage `json:"error"`
	}
	json.Unmarshal(response, &resp)
	switch {
	case resp.Error != nil:
		res.Content = []event.Part{{Type: "text", Text: stringOrJSON(*resp.Error)}}
	case resp.Output != nil:
		res.Content = []event.Part{{Type: "text", Text: stringOrJSON(*resp.Output)}}
	}
	return res
}

// block writes a whole block.
func (d *Decoder) block(kind event.BlockKind, text string) {
	d.emit(&event.BlockStart{Agent: d.agent, Kind: kind})
	d.emit(&event.Delta{Agent: d.agent, Kind: kind, Text: text})
	d.emit(&event.BlockEnd{Agent: d.agent, Kind: kind})
}

// closeTurn ends the open gemini message's turn, with its last usage.
func (d *Decoder) closeTurn() {
	if d.turn == nil {
		return
	}
	st := d.turn
	d.turn = nil
	d.emit(&event.TurnEnd{Agent: d.agent, MessageID: st.id, Usage: st.usage})
}

// finish ends the log: the open turn, the held start, and what the log
// lacked.
func (d *Decoder) finish() {
	d.closeTurn()
	d.out.Release()
	if d.seen && !d.known {
		// Never a false yes: lines of no type this format has.
		d.out.Problem(&event.ParseError{
			Source: d.cfg.Source, Offset: -1,
			Err: event.Errorf(event.ErrSyntax, "no Gemini CLI session log line in the input"),
		})
	}
	if d.cut {
		d.out.Problem(d.lines.Truncated())
	}
}

// partsOf reads content (a PartListUnion: a string, a part, or a list of
// strings and parts) as parts.
func partsOf(content json.RawMessage) []gemini.Part {
	content = bytes.TrimSpace(content)
	if len(content) == 0 {
		return nil
	}
	switch content[0] {
	case '"':
		var s string
		json.Unmarshal(content, &s)
		return []gemini.Part{{Text: &s}}
	case '{':
		var p gemini.Part
		json.Unmarshal(content, &p)
		return []gemini.Part{p}
	case '[':
		var list []json.RawMessage
		json.Unmarshal(content, &list)
		var out []gemini.Part
		for _, it := range list {
			out = append(out, partsOf(it)...)
		}
		return out
	}
	return nil
}

// textOf is the text of content's parts, thoughts left out.
func textOf(content json.RawMessage) string {
	var b strings.Builder
	for _, p := range partsOf(content) {
		if p.Text != nil && !p.Thought {
			b.WriteString(*p.Text)
		}
	}
	return b.String()
}

func stringOrJSON(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func cloneRaw(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return bytes.Clone(raw)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
