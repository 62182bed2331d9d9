package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/slab"
	wire "github.com/agentstream/agentstream/internal/wire/acp"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Name is the format's name in the format table.
const Name = "acp"

// MetaKind is the event.SessionStart and event.RunEnd MetaKind of what
// this decoder reads: their Meta holds ACP messages verbatim.
const MetaKind = "acp"

// maxOpen caps the tool calls open at once and the client requests
// waiting for their response that the decoder keeps.
const maxOpen = 1024

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one line (event.DefaultMaxBytes if 0)
	Agent         string // agent id of every event (ACP has one agent per connection)
	// Foreign names the format of a line of another format
	// (format.Options.Foreign).
	Foreign format.Foreign
}

// Decoder reads an ACP agent's output, or a two-way transcript, and
// yields canonical events. See the package documentation.
type Decoder struct {
	jr      jsontext.Reader // reads the wire structs in one pass
	str     slab.Strings    // the strings jr makes
	lineBuf wire.Line       // the line agentLine reads
	deltas  deltabatch.Batch
	noLine  bool // read every line as a Message (tests compare)
	// compact: the line being read has no white space outside its
	// strings (jsontext.Reader.Spaced), nor has any value in it.
	compact bool
	cfg     Config
	in      decoderstate.Lines
	st      decoderstate.State

	requests map[string]string // client requests waiting for a response: id -> method
	initMsg  json.RawMessage   // the initialize response, compacted
	held     *event.SessionStart
	behind   []event.Event // unknown updates read while the start was held
	started  bool

	open   map[event.BlockKind]string // open blocks: kind -> message id
	order  []event.BlockKind          // open blocks, in order
	tools  map[string]*tool           // tool calls not finished, by id
	tOrder []string

	agentSeen  bool     // a message from the agent was read
	clientSeen bool     // a message from the client was read
	active     bool     // a prompt was sent or the agent sent updates, and no response ended it
	cutLine    error    // the input ended inside its last line
	ended      bool     // a response ended a prompt turn
	cost       *float64 // the last usage_update's cost, in USD
	capped     bool
}

// tool is a tool call between its tool_call and its completed or failed
// status.
type tool struct {
	title, kind, status string
	input, output       json.RawMessage
	inNote, outNote     event.Checked
	content             json.RawMessage // the last content list
	called              bool            // its ToolCall was emitted
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{
		requests: map[string]string{}, open: map[event.BlockKind]string{}, tools: map[string]*tool{},
	}
	if cfg != nil {
		d.cfg = *cfg
	}
	d.in = decoderstate.NewLines(r, d.cfg.Source, d.cfg.MaxEventBytes)
	d.jr.SetStrings(d.str.String)
	return d
}

// AgentMethod reports whether method is one an agent sends to its client.
func AgentMethod(method string) bool {
	if method == wire.MethodSessionUpdate || method == wire.MethodRequestPermission {
		return true
	}
	for _, p := range wire.AgentMethodPrefixes {
		if strings.HasPrefix(method, p) {
			return true
		}
	}
	return false
}

// Detect reports whether an input whose first unit is h is an ACP
// session: a line (not SSE) holding a JSON-RPC 2.0 message, or a
// transcript line {"dir": "client->agent"|"agent->client", "msg": ...}.
// A client's side alone (initialize first) is detected too, so that no
// other format takes it for its own: the decoder then reports that it
// holds no agent message.
func Detect(h format.Head) bool {
	if h.SSE {
		return false
	}
	m := h.Fields()
	if dir, ok := format.String(m, "dir"); ok {
		_, msg := m["msg"]
		return msg && (dir == wire.DirClientToAgent || dir == wire.DirAgentToClient)
	}
	if v, _ := format.String(m, "jsonrpc"); v != wire.Version {
		return false
	}
	if _, ok := format.String(m, "method"); ok {
		return true
	}
	_, id := m["id"]
	_, res := m["result"]
	_, e := m["error"]
	return id && (res || e)
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.st.Next(d.readLine, d.finish) }

func (d *Decoder) readLine() { d.in.Read(&d.st, d.decodeLine) }

// decodeLine decodes a line; a syntax error in a last line that the input
// ends inside is a cut, not a bad line: finish reports it.
func (d *Decoder) decodeLine(line []byte) error {
	err := d.decode(bytes.TrimSpace(line))
	if err != nil && d.in.Unterminated() && errors.Is(err, event.ErrSyntax) {
		d.cutLine = d.errorf(event.ErrTruncated, "stream ends inside line %d", d.in.Line)
		return nil
	}
	return err
}

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.in.Line, Column: 1, Offset: d.in.Offset,
		Err: event.Errorf(sentinel, format, args...),
	}
}

func (d *Decoder) emit(evs ...event.Event) {
	d.release()
	d.st.Emit(evs...)
}

// unknown keeps a message verbatim. One read while the session's start
// is held waits behind it: the prompt may still come.
func (d *Decoder) unknown(typ string, raw []byte) {
	p, note := d.payload(raw)
	u := &event.Unknown{Agent: d.cfg.Agent, Format: Name, Type: typ, Raw: p, Checked: note}
	if d.held != nil && len(d.behind) < maxOpen {
		d.behind = append(d.behind, u)
		return
	}
	d.emit(u)
}

// decode reads one line: a message, or a transcript line around one.
func (d *Decoder) decode(line []byte) error {
	if line[0] != '{' {
		return d.errorf(event.ErrSyntax, "expected a JSON object")
	}
	if done, err := d.agentLine(line); done {
		return err
	}
	var probe wire.Probe
	err := jsontext.DecodeValid(&d.jr, line, &probe, wire.ReadProbe)
	d.compact = !d.jr.Spaced()
	if err != nil {
		if !json.Valid(line) {
			return d.errorf(event.ErrSyntax, "expected a JSON object: %s", jsontext.Problem(err))
		}
		d.unknown("", line)
		return d.errorf(event.ErrSyntax, "not a JSON-RPC message: %s; kept as unknown", jsontext.Problem(err))
	}
	fromAgent := true
	msg := line
	m := probe.Message
	if probe.Dir != nil {
		switch *probe.Dir {
		case wire.DirAgentToClient:
		case wire.DirClientToAgent:
			fromAgent = false
		default:
			return d.errorf(event.ErrSyntax, "transcript line whose dir is %q, not %q or %q; skipped", *probe.Dir, wire.DirClientToAgent, wire.DirAgentToClient)
		}
		msg = bytes.TrimSpace(probe.Msg)
		m = wire.Message{}
		if len(msg) == 0 || msg[0] != '{' || jsontext.DecodeValid(&d.jr, msg, &m, wire.ReadMessage) != nil {
			return d.errorf(event.ErrSyntax, "transcript line whose msg is not a JSON-RPC message; skipped")
		}
	}
	if m.JSONRPC != wire.Version {
		if k := d.cfg.Foreign.Of(line); k != "" {
			return d.errorf(event.ErrSyntax, "a line of another format (it looks like %s), not a JSON-RPC 2.0 message; skipped", k)
		}
		return d.errorf(event.ErrSyntax, "not a JSON-RPC 2.0 message (no \"jsonrpc\": \"2.0\"); skipped")
	}
	isResponse := len(m.ID) > 0 && m.Method == "" && (m.Result != nil || m.Error != nil)
	if probe.Dir == nil && m.Method != "" && !AgentMethod(m.Method) {
		// A client's method in an agent's output: a client's log
		// given as the input.
		fromAgent = false
	}
	if !fromAgent {
		return d.client(&m, msg)
	}
	d.agentSeen = true
	switch {
	case isResponse:
		return d.response(&m, msg)
	case m.Method == wire.MethodSessionUpdate:
		return d.update(&m, msg)
	case m.Method != "" && len(m.ID) > 0:
		d.closeBlocks()
		raw, note := d.payload(msg)
		d.emit(&event.Notice{Agent: d.cfg.Agent, Kind: m.Method, Message: requestSummary(&m), Raw: raw, Checked: note})
	case m.Method != "":
		d.unknown(m.Method, msg)
	default:
		d.unknown("", msg)
		return d.errorf(event.ErrSyntax, "JSON-RPC message that is neither a request, a notification nor a response; kept as unknown")
	}
	return nil
}

// agentLine reads the lines an agent writes most, a session/update and
// a response with a result, in one pass (wire.Line), and reports whether
// it did. It reads nothing else, and decides before it changes any
// state: what it leaves, decode reads as a Message, which reads a line
// as this does where both read it.
func (d *Decoder) agentLine(line []byte) (bool, error) {
	if d.noLine {
		return false, nil
	}
	l := &d.lineBuf
	*l = wire.Line{}
	d.jr.ResetValid(line)
	if !wire.ReadLine(&d.jr, l) || !d.jr.End() || l.Dir != nil || l.JSONRPC != wire.Version {
		return false, nil
	}
	d.compact = !d.jr.Spaced()
	switch {
	case l.Method == wire.MethodSessionUpdate:
		if l.Params == nil || l.Params.Update == nil {
			return false, nil // read as a Message: null or no update
		}
		d.agentSeen = true
		return true, d.sessionUpdate(l.Params.SessionID, l.Params.Update, line)
	case l.Method == "" && len(l.ID) > 0 && l.Result != nil && l.Error == nil:
		res := &result{line: l.Result}
		if !rawString(&d.jr, l.Result.SessionID, &res.sessionID) || !rawString(&d.jr, l.Result.StopReason, &res.stopReason) {
			return false, nil
		}
		d.agentSeen = true
		return true, d.answer(l.ID, nil, res, line)
	}
	return false, nil
}

// rawString reads raw, a JSON value or nothing, into s as encoding/json
// reads it into a string field, and reports whether it could.
func rawString(jr *jsontext.Reader, raw json.RawMessage, s *string) bool {
	if raw == nil {
		return true
	}
	jr.ResetValid(raw)
	jr.StringField(s)
	return jr.End()
}

// requestSummary says what an agent's request to its client asks.
func requestSummary(m *wire.Message) string {
	if m.Method == wire.MethodRequestPermission {
		var p wire.PermissionRequest
		if json.Unmarshal(m.Params, &p) == nil {
			if p.ToolCall.Title != nil && *p.ToolCall.Title != "" {
				return "permission asked for " + *p.ToolCall.Title
			}
			return "permission asked for tool call " + p.ToolCall.ToolCallID
		}
	}
	return m.Method
}

// client reads a message the client sent: its requests are remembered
// (their responses say which they answer), its prompt opens the turn.
func (d *Decoder) client(m *wire.Message, msg []byte) error {
	d.clientSeen = true
	if len(m.ID) > 0 && m.Method != "" {
		if len(d.requests) < maxOpen {
			d.requests[string(m.ID)] = m.Method
		} else {
			d.tooMany("client requests waiting for their response")
		}
	}
	switch m.Method {
	case wire.MethodInitialize, wire.MethodSessionNew, wire.MethodSessionLoad, wire.MethodSessionResume, wire.MethodAuthenticate:
		return nil // their responses are read
	case wire.MethodSessionPrompt:
		d.active, d.ended = true, false
		var p wire.PromptRequest
		if jsontext.DecodeValid(&d.jr, m.Params, &p, wire.ReadPromptRequest) != nil {
			d.unknown(m.Method, msg)
			return d.errorf(event.ErrSyntax, "session/prompt whose params are not a prompt request; kept as unknown")
		}
		text := promptText(p.Prompt)
		if d.held != nil && d.holds(text) {
			d.held.Prompt += text
			return nil
		}
		if !d.started {
			d.startSession(p.SessionID)
			d.held.Prompt = text
			return nil
		}
		raw, note := d.payload(msg)
		d.emit(&event.Notice{Agent: d.cfg.Agent, Kind: m.Method, Message: text, Raw: raw, Checked: note})
		return nil
	case wire.MethodSessionCancel:
		raw, note := d.payload(msg)
		d.emit(&event.Notice{Agent: d.cfg.Agent, Kind: m.Method, Message: "the client cancelled the prompt", Raw: raw, Checked: note})
		return nil
	}
	typ := m.Method
	if typ == "" {
		typ = "client response"
	}
	raw, note := d.payload(msg)
	d.emit(&event.Notice{Agent: d.cfg.Agent, Kind: typ, Message: "client: " + typ, Raw: raw, Checked: note})
	return nil
}

// promptText returns the text of a prompt's text blocks.
func promptText(blocks []json.RawMessage) string {
	var b strings.Builder
	for _, raw := range blocks {
		var c wire.ContentBlock
		if json.Unmarshal(raw, &c) == nil && c.Type == wire.BlockText {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// startSession holds the session's start until the prompt that follows
// it is read.
func (d *Decoder) startSession(id string) {
	d.started = true
	d.held = &event.SessionStart{Agent: d.cfg.Agent, SessionID: id}
}

// holds reports whether the held start can take text more of prompt
// within the cap on one line (a session/load replays a whole history as
// user_message_chunks): past it, the start goes and the text is kept as
// an unknown update.
func (d *Decoder) holds(text string) bool {
	max := d.cfg.MaxEventBytes
	if max <= 0 {
		max = event.DefaultMaxBytes
	}
	if len(d.held.Prompt)+len(text) <= max {
		return true
	}
	d.release()
	return false
}

// release emits the held session start.
func (d *Decoder) release() {
	if d.held != nil {
		h := d.held
		d.held = nil
		d.st.Emit(h)
		d.st.Emit(d.behind...)
		d.behind = nil
	}
}

// result is a response's result: the text of a Message's (raw), read
// again as the method requires, or what a Line read of it (line, nil
// when raw is the source).
type result struct {
	raw  json.RawMessage
	line *wire.LineResult
	// of line: its sessionId and stopReason as the strings
	// NewSessionResponse and PromptResponse read
	sessionID, stopReason string
}

// method tells which request a response answers from its result alone,
// as methodOf does.
func (r *result) method(jr *jsontext.Reader) string {
	if r.line == nil {
		return methodOf(jr, &wire.Message{Result: r.raw})
	}
	return probeMethod(&wire.ResultProbe{ProtocolVersion: r.line.ProtocolVersion, SessionID: r.line.SessionID, StopReason: r.line.StopReason})
}

// session reads the result as a session/new (load, resume) result.
func (r *result) session(jr *jsontext.Reader, v *wire.NewSessionResponse) bool {
	if r.line == nil {
		return jsontext.DecodeValid(jr, r.raw, v, wire.ReadNewSessionResponse) == nil
	}
	*v = wire.NewSessionResponse{SessionID: r.sessionID, Models: r.line.Models, ConfigOptions: r.line.ConfigOptions}
	return true
}

// prompt reads the result as a session/prompt result.
func (r *result) prompt(jr *jsontext.Reader, v *wire.PromptResponse) bool {
	if r.line == nil {
		return jsontext.DecodeValid(jr, r.raw, v, wire.ReadPromptResponse) == nil
	}
	*v = wire.PromptResponse{StopReason: r.stopReason, Usage: r.line.Usage}
	return true
}

// response reads the agent's answer to a client request.
func (d *Decoder) response(m *wire.Message, msg []byte) error {
	return d.answer(m.ID, m.Error, &result{raw: m.Result}, msg)
}

// answer reads a response: its id, its error or its result.
func (d *Decoder) answer(id json.RawMessage, rpcErr *wire.Error, res *result, msg []byte) error {
	method, known := d.requests[string(id)]
	delete(d.requests, string(id))
	if !known {
		method = res.method(&d.jr)
	}
	if rpcErr != nil {
		// A failed initialize, session/new or prompt ends the run; an
		// agent's output alone does not say what failed: any error
		// does.
		fatal := !known || method == wire.MethodSessionPrompt || method == wire.MethodInitialize ||
			method == wire.MethodSessionNew || method == wire.MethodSessionLoad || method == wire.MethodSessionResume
		d.closeBlocks()
		if fatal {
			d.flushTools()
			d.active, d.ended = false, true
		}
		raw, note := d.payload(msg)
		d.emit(&event.Error{
			Agent: d.cfg.Agent, Message: rpcErr.Message, Type: strconv.FormatInt(rpcErr.Code, 10),
			Fatal: fatal, Raw: raw, Checked: note,
		})
		return nil
	}
	switch method {
	case wire.MethodInitialize:
		d.initMsg = bytes.Clone(d.compacted(msg))
		return nil
	case wire.MethodSessionNew, wire.MethodSessionLoad, wire.MethodSessionResume:
		var r wire.NewSessionResponse
		if !res.session(&d.jr, &r) {
			d.unknown(method, msg)
			return d.errorf(event.ErrSyntax, "%s response whose result is not a session; kept as unknown", method)
		}
		if d.started {
			d.release()
		}
		d.startSession(r.SessionID)
		d.held.Model = model(&r)
		d.held.Meta = sessionMeta(d.initMsg, method, d.compacted(msg))
		d.held.MetaKind, d.held.Checked = MetaKind, event.CompactJSON(d.held.Meta)
		return nil
	case wire.MethodSessionPrompt:
		var r wire.PromptResponse
		if !res.prompt(&d.jr, &r) {
			d.unknown(method, msg)
			return d.errorf(event.ErrSyntax, "session/prompt response whose result is not a prompt response; kept as unknown")
		}
		d.closeBlocks()
		d.flushTools()
		d.active, d.ended = false, true
		meta, note := d.payload(msg)
		end := &event.RunEnd{Agent: d.cfg.Agent, StopReason: r.StopReason, CostUSD: d.cost, Meta: meta, MetaKind: MetaKind, Checked: note}
		if u := r.Usage; u != nil {
			// A count null or absent is not given.
			eu := &event.Usage{}
			eu.Set(event.HasInput, u.InputTokens)
			eu.Set(event.HasOutput, u.OutputTokens)
			if u.ThoughtTokens != nil {
				// ACP's output count leaves out thoughts; the event
				// model's includes them (when it is known).
				eu.ReasoningTokens = *u.ThoughtTokens
				if eu.Has&event.HasOutput != 0 {
					eu.OutputTokens += *u.ThoughtTokens
				}
				eu.Has |= event.HasReasoning
			}
			eu.Set(event.HasCacheRead, u.CachedReadTokens)
			eu.Set(event.HasCacheWrite, u.CachedWriteTokens)
			end.Usage = eu
		}
		d.emit(end)
		return nil
	}
	d.unknown(method, msg)
	return nil
}

// payload returns a copy of msg, a message of the line being read, and
// its note (note).
func (d *Decoder) payload(msg []byte) (json.RawMessage, event.Checked) {
	return decoderstate.Payload(msg, d.compact)
}

// note notes p, a copy of a value of the line being read: valid JSON, as
// every message and line the decoder keeps was read whole; compact too
// when the line was.
func (d *Decoder) note(p []byte) event.Checked { return decoderstate.Note(p, d.compact) }

// compacted returns msg, a message of the line being read, as
// json.Compact writes it: msg itself when the line was compact.
func (d *Decoder) compacted(msg []byte) []byte {
	if d.compact {
		return msg
	}
	return jsontext.CompactValid(msg)
}

// sessionMeta is a session's start's Meta, a wire.SessionMeta: the
// initialize response (when there was one) and the session/* response
// that answered method, as json.Marshal writes it (initialize first):
// valid, compact JSON, built without reflection (encoding/json's
// compacting of the two messages would cost more than the rest of a
// session's setup). Both messages are valid, compact JSON (they were
// decoded, and compacted where their line was not).
func sessionMeta(initMsg []byte, method string, msg []byte) json.RawMessage {
	// {"initialize":INIT,"METHOD":MSG}: nine bytes around the names and messages.
	b := make([]byte, 0, len(initMsg)+len(msg)+len(method)+len(wire.MethodInitialize)+9)
	b = append(b, '{')
	if initMsg != nil {
		b = jsontext.AppendMarshalString(b, wire.MethodInitialize)
		b = append(b, ':')
		b = appendMarshalRaw(b, initMsg)
		b = append(b, ',')
	}
	b = jsontext.AppendMarshalString(b, method)
	b = append(b, ':')
	b = appendMarshalRaw(b, msg)
	return append(b, '}')
}

// lineSep begins U+2028 and U+2029 in UTF-8.
var lineSep = []byte("\xe2\x80")

// appendMarshalRaw appends valid, compact JSON raw as json.Marshal
// writes a json.RawMessage: with <, >, & and U+2028, U+2029 escaped.
func appendMarshalRaw(b, raw []byte) []byte {
	const hex = "0123456789abcdef"
	if bytes.IndexByte(raw, '<') < 0 && bytes.IndexByte(raw, '>') < 0 && bytes.IndexByte(raw, '&') < 0 &&
		!bytes.Contains(raw, lineSep) {
		return append(b, raw...)
	}
	start := 0
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '<' || c == '>' || c == '&':
			b = append(b, raw[start:i]...)
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			start = i + 1
		case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xA8:
			b = append(b, raw[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[raw[i+2]&0xF])
			i += 2
			start = i + 1
		}
	}
	return append(b, raw[start:]...)
}

// responseMethod tells which request a response answers from its result
// alone, for an agent's output without the client's requests.
func responseMethod(m *wire.Message) string {
	var jr jsontext.Reader
	return methodOf(&jr, m)
}

// methodOf is responseMethod reading with jr.
func methodOf(jr *jsontext.Reader, m *wire.Message) string {
	if m.Result == nil {
		return ""
	}
	var r wire.ResultProbe
	if jsontext.DecodeValid(jr, m.Result, &r, wire.ReadResultProbe) != nil {
		return "response"
	}
	return probeMethod(&r)
}

// probeMethod is methodOf for a result read.
func probeMethod(r *wire.ResultProbe) string {
	switch {
	case r.StopReason != nil:
		return wire.MethodSessionPrompt
	case r.ProtocolVersion != nil:
		return wire.MethodInitialize
	case r.SessionID != nil:
		return wire.MethodSessionNew
	}
	return "response"
}

// model is the session's current model: models.currentModelId (Gemini),
// or the value of the config option of category model (OpenCode).
func model(r *wire.NewSessionResponse) string {
	if r.Models != nil && r.Models.CurrentModelID != "" {
		return r.Models.CurrentModelID
	}
	for _, o := range r.ConfigOptions {
		var s string
		if o.Category == "model" && json.Unmarshal(o.CurrentValue, &s) == nil {
			return s
		}
	}
	return ""
}

// update reads a session/update notification.
func (d *Decoder) update(m *wire.Message, msg []byte) error {
	var n wire.SessionNotification
	var u wire.Update
	if jsontext.DecodeValid(&d.jr, m.Params, &n, wire.ReadSessionNotification) != nil || jsontext.DecodeValid(&d.jr, n.Update, &u, wire.ReadUpdate) != nil {
		d.unknown(m.Method, msg)
		return d.errorf(event.ErrSyntax, "session/update whose params are not a session notification; kept as unknown")
	}
	return d.sessionUpdate(n.SessionID, &u, msg)
}

// sessionUpdate reads the update of a session/update notification.
func (d *Decoder) sessionUpdate(sessionID string, u *wire.Update, msg []byte) error {
	if !d.started {
		d.startSession(sessionID)
	}
	agent := d.cfg.Agent
	switch u.SessionUpdate {
	case wire.UpdateAgentMessageChunk, wire.UpdateAgentThoughtChunk:
		d.activity()
		var c wire.ContentBlock
		if jsontext.DecodeValid(&d.jr, u.Content, &c, wire.ReadContentBlock) != nil || c.Type != wire.BlockText {
			d.unknown(u.SessionUpdate, msg) // an image, audio or resource chunk
			return nil
		}
		kind := event.Text
		if u.SessionUpdate == wire.UpdateAgentThoughtChunk {
			kind = event.Thinking
		}
		d.chunk(kind, u.MessageID, c.Text)
	case wire.UpdateUserMessageChunk:
		d.activity() // the prompt of a turn its response ends
		var c wire.ContentBlock
		if d.held != nil && jsontext.DecodeValid(&d.jr, u.Content, &c, wire.ReadContentBlock) == nil && c.Type == wire.BlockText && d.holds(c.Text) {
			d.held.Prompt += c.Text
			return nil
		}
		d.unknown(u.SessionUpdate, msg)
	case wire.UpdateToolCall, wire.UpdateToolCallUpdate:
		d.activity()
		if u.ToolCallID == "" {
			d.unknown(u.SessionUpdate, msg)
			return d.errorf(event.ErrSyntax, "%s without a toolCallId; kept as unknown", u.SessionUpdate)
		}
		d.closeBlocks()
		d.toolUpdate(u)
	case wire.UpdatePlan:
		d.activity()
		d.closeBlocks()
		items := make([]event.TodoItem, 0, len(u.Entries))
		for _, e := range u.Entries {
			items = append(items, event.TodoItem{Text: e.Content, Status: e.Status})
		}
		d.emit(&event.TodoList{Agent: agent, Items: items})
	case wire.UpdateUsage:
		if u.Cost != nil && u.Cost.Currency == "USD" {
			c := u.Cost.Amount
			d.cost = &c
		}
		d.unknown(u.SessionUpdate, msg)
	default:
		d.unknown(u.SessionUpdate, msg)
	}
	return nil
}

// activity notes an update of a prompt turn. In an agent's output
// without the client's side, updates after a response that ended a turn
// may belong to the same turn (an error answered it early) or to a next
// prompt nobody shows: only the first turn's end is looked for; a
// transcript shows each prompt.
func (d *Decoder) activity() {
	if !d.ended {
		d.active = true
	}
}

// chunk appends text to the open block of kind, opening it first; a
// chunk of another message id, or of the other kind, ends the block open
// before it.
func (d *Decoder) chunk(kind event.BlockKind, msgID, text string) {
	agent := d.cfg.Agent
	if id, ok := d.open[kind]; ok && id != msgID {
		d.closeBlock(kind)
	}
	for _, k := range d.order {
		if k != kind {
			d.closeBlock(k)
		}
	}
	if _, ok := d.open[kind]; !ok {
		d.open[kind] = msgID
		d.order = append(d.order, kind)
		d.emit(&event.BlockStart{Agent: agent, Kind: kind})
	}
	if text != "" {
		d.emit(d.deltas.New(agent, kind, text))
	}
}

func (d *Decoder) closeBlock(kind event.BlockKind) {
	if _, ok := d.open[kind]; !ok {
		return
	}
	delete(d.open, kind)
	for i, k := range d.order {
		if k == kind {
			d.order = append(d.order[:i], d.order[i+1:]...)
			break
		}
	}
	d.emit(&event.BlockEnd{Agent: d.cfg.Agent, Kind: kind})
}

func (d *Decoder) closeBlocks() {
	for len(d.order) > 0 {
		d.closeBlock(d.order[0])
	}
}

// toolUpdate reads a tool_call or tool_call_update: the call goes out
// once it is no longer pending (its input may still be coming while it
// is), the result once it is completed or failed.
func (d *Decoder) toolUpdate(u *wire.Update) {
	t, ok := d.tools[u.ToolCallID]
	if !ok {
		if len(d.tools) >= maxOpen {
			id := d.tOrder[0]
			d.finishTool(id, d.tools[id], false)
			d.tooMany(fmt.Sprintf("more than %d tool calls open at once; let go of the oldest, %q", maxOpen, id))
		}
		t = &tool{status: wire.StatusPending}
		d.tools[u.ToolCallID] = t
		d.tOrder = append(d.tOrder, u.ToolCallID)
	}
	if u.Title != nil {
		t.title = *u.Title
	}
	if u.Kind != nil {
		t.kind = *u.Kind
	}
	if u.Status != nil {
		t.status = *u.Status
	}
	if u.RawInput != nil {
		t.input = bytes.Clone(u.RawInput)
		t.inNote = d.note(t.input)
	}
	if u.RawOutput != nil {
		t.output = bytes.Clone(u.RawOutput)
		t.outNote = d.note(t.output)
	}
	if u.Content != nil {
		t.content = bytes.Clone(u.Content)
	}
	switch t.status {
	case wire.StatusPending:
	case wire.StatusCompleted, wire.StatusFailed:
		d.finishTool(u.ToolCallID, t, true)
	default:
		d.call(u.ToolCallID, t)
	}
}

func (d *Decoder) call(id string, t *tool) {
	if t.called {
		return
	}
	t.called = true
	input, note := t.input, t.inNote
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage("{}")
		note = event.CompactJSON(input)
	}
	d.emit(&event.ToolCall{Agent: d.cfg.Agent, ID: id, Name: t.title, Input: input, Checked: note})
}

// finishTool emits a tool call's call and, when done, its file changes
// and result, and forgets it.
func (d *Decoder) finishTool(id string, t *tool, done bool) {
	d.call(id, t)
	delete(d.tools, id)
	for i, k := range d.tOrder {
		if k == id {
			d.tOrder = append(d.tOrder[:i], d.tOrder[i+1:]...)
			break
		}
	}
	if !done {
		return
	}
	agent := d.cfg.Agent
	r := &event.ToolResult{Agent: agent, ID: id, Name: t.title, Status: t.status, IsError: t.status == wire.StatusFailed}
	var changes []event.Change
	var items []json.RawMessage
	_ = json.Unmarshal(t.content, &items) // content that is no list holds nothing to read
	for _, raw := range items {
		var c wire.ToolCallContent
		if jsontext.DecodeValid(&d.jr, raw, &c, wire.ReadToolCallContent) != nil {
			continue
		}
		switch c.Type {
		case wire.ContentContent:
			r.Content = append(r.Content, part(c.Content))
		case wire.ContentDiff:
			kind := "update"
			if c.OldText == nil {
				kind = "add"
			}
			changes = append(changes, event.Change{Path: c.Path, Kind: kind})
			r.Content = append(r.Content, event.Part{Type: wire.ContentDiff, Text: string(raw)})
		default:
			r.Content = append(r.Content, event.Part{Type: c.Type, Text: string(raw)})
		}
	}
	if len(t.output) > 0 && string(t.output) != "null" {
		r.Structured, r.Checked = t.output, t.outNote
	}
	if len(changes) > 0 {
		d.emit(&event.FileChange{Agent: agent, ID: id, Changes: changes, Status: t.status})
	}
	d.emit(r)
}

// ContentPart is the Type of a result part that holds a content block
// other than plain text or a data image (an annotated text, audio, a
// resource), its JSON as the part's Text.
const ContentPart = "content"

// part is a content block of a tool's result as an event part: text and
// images as such, any other block as a ContentPart.
func part(raw json.RawMessage) event.Part {
	var c wire.ContentBlock
	if json.Unmarshal(raw, &c) != nil {
		return event.Part{Type: ContentPart, Text: string(raw)}
	}
	switch {
	case c.Type == wire.BlockText:
		var t wire.TextBlock
		if json.Unmarshal(raw, &t) == nil && sameJSON(raw, t) {
			return event.Part{Type: "text", Text: c.Text}
		}
	case c.Type == wire.BlockImage && c.Data != "":
		var t wire.ImageBlock
		if json.Unmarshal(raw, &t) == nil && sameJSON(raw, t) {
			return event.Part{Type: "image", Source: "data:" + c.MimeType + ";base64," + c.Data, MediaType: c.MimeType}
		}
	}
	return event.Part{Type: ContentPart, Text: string(raw)}
}

// sameJSON reports whether raw holds no member beyond those of v (an
// annotated text block is kept whole).
func sameJSON(raw json.RawMessage, v any) bool {
	var a, b map[string]json.RawMessage
	out, _ := json.Marshal(v)
	return json.Unmarshal(raw, &a) == nil && json.Unmarshal(out, &b) == nil && len(a) == len(b)
}

// flushTools emits the calls of the tool calls still open at the turn's
// end: their results never come.
func (d *Decoder) flushTools() {
	for len(d.tOrder) > 0 {
		id := d.tOrder[0]
		d.finishTool(id, d.tools[id], false)
	}
}

func (d *Decoder) tooMany(what string) {
	if d.capped {
		return
	}
	d.capped = true
	d.st.Problem(d.errorf(event.ErrTooManyOpen, "%s (later ones are not reported)", what))
}

// finish reports what the end of the input leaves open: a prompt turn
// without its response is cut (its open blocks stay open, its open tool
// calls' calls are emitted); an input with no agent message at all is a
// client's side of a session, not agent output.
func (d *Decoder) finish() error {
	var open []string
	for _, id := range d.tOrder {
		open = append(open, fmt.Sprintf("tool call %q", id))
	}
	for _, id := range append([]string(nil), d.tOrder...) {
		d.finishTool(id, d.tools[id], false)
	}
	d.release()
	switch {
	case !d.agentSeen && d.clientSeen:
		return d.errorf(event.ErrSyntax, "no message from the agent: this is a client's side of an ACP session, not an agent's output")
	case d.active:
		what := "stream ended before the session/prompt response"
		if len(open) > 0 {
			what += " (inside " + strings.Join(open, ", ") + ")"
		}
		if d.cutLine != nil {
			what += ", inside its last line"
		}
		return d.errorf(event.ErrTruncated, "%s", what)
	case d.cutLine != nil:
		return d.cutLine
	}
	return nil
}
