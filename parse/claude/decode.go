package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/textlist"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one line and one assembled tool input (event.DefaultMaxBytes if 0)
	Agent         string // agent id for lines before any session id is known
	// Foreign names the format of a line of another format
	// (format.Options.Foreign).
	Foreign format.Foreign
}

// Decoder reads Claude Code stream-json and yields canonical events. See
// the package documentation for the grammar and tolerance rules.
type Decoder struct {
	cfg    Config
	br     *bufio.Reader
	lines  *frame.Lines
	array  *json.Decoder // --output-format json: one top-level array
	capped *cappedReader // what array reads from
	base   int64         // input offset of the array's '['
	st     decoderstate.State
	ended  bool // the array cannot be read on: the input ends here
	inside bool // an element of the array was read: the next needs a comma

	line      int // position of the unit being decoded
	off       int64
	col       int
	wholeLine bool // decoding a whole line, not one of several fused objects

	b        *messages.Builder
	session  string               // the main agent's scope: the session id
	started  *openset.Set[string] // agent scopes whose SessionStart was emitted
	held     *event.SessionStart  // a subagent's, held back until its model is known
	heldFor  int                  // lines read since it was held
	behind   []event.Event        // the held start and the events after it
	last     event.Event          // the last event made and not yet handed to st or returned
	problem  bool                 // the unit being decoded has a problem
	toolOf   map[string]toolInfo  // client tool calls without a result yet
	pending  *openset.Set[string] // their ids, in the order called
	tooMuch  [2]bool              // the cap of started, of pending, was reported
	seen     bool                 // any line decoded
	finished bool                 // a result line was seen after the last content
	bad      badutf8.Once         // the invalid UTF-8 warning

	jr      jsontext.Reader       // decodes lines in one pass
	lastID  string                // the session id of the last delta line, as KeepString keeps it
	notice  wire.Notice           // the last status line's, whose status the next repeats
	userMsg wire.UserMessage      // a user line's message, its blocks' memory reused
	inits   wire.InitReader       // reads init lines, the lists of the last kept
	sl      wire.StreamLine       // the line read in one pass, reused
	se      anthropic.StreamEvent // the event of a content_block_delta line (readDeltaLine)
	// res is a result line's fields, read with the line in one pass (as
	// json.Unmarshal into a wire.Result decodes them), or nil
	res *wire.Result
}

type toolInfo struct{ agent, name string }

// maxOpen caps the agent scopes (the session's and its subagents') the
// decoder remembers, and apart from them the client tool calls waiting
// for their result. Beyond it the oldest is forgotten, reported once: a
// result that arrives after maxOpen newer calls still unanswered is
// given without its tool's name, under the agent of its line; a line of
// a forgotten subagent opens its scope again.
const maxOpen = openset.DefaultMax

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{
		br: bufio.NewReaderSize(r, 64<<10), started: openset.New[string](maxOpen), toolOf: map[string]toolInfo{},
		pending: openset.New[string](maxOpen),
	}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxEventBytes <= 0 {
		d.cfg.MaxEventBytes = event.DefaultMaxBytes
	}
	d.b = messages.NewBuilder(d.emit, d.cfg.MaxEventBytes)
	return d
}

// Detect reports whether an input whose first unit is h is Claude Code
// stream-json: a JSON object (not SSE) whose type is system, assistant,
// user, result or stream_event, or a top-level JSON array
// (--output-format json).
func Detect(h format.Head) bool {
	if h.SSE {
		return false
	}
	p := bytes.TrimSpace(h.Payload)
	if len(p) > 0 && p[0] == '[' {
		return true
	}
	// The first object only (two may be fused on one line, or the line
	// cut short).
	typ, _ := format.String(format.Head{Payload: p}.Fields(), "type")
	return wire.IsKnownType(typ)
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.st.Next(d.read, d.truncation) }

// read decodes the next unit of input. A held subagent start goes, with
// the events behind it, once a unit has a problem or the input ends: its
// model is not coming.
func (d *Decoder) read() {
	if len(d.behind) == 0 {
		d.last = nil // all handed out
	}
	d.problem = false
	err := d.readUnit()
	switch {
	case err == nil:
	case err == io.EOF:
		d.ended = true
	case decoderstate.IsParseError(err):
		if list, ok := err.(problemList); ok {
			for _, e := range list {
				d.addProblem(e)
			}
		} else {
			d.addProblem(err)
		}
	default:
		d.st.Fail(err)
		d.problem = true
	}
	if d.ended {
		d.st.End()
	}
	if d.problem || d.ended {
		d.releaseHeld()
	}
}

// addProblem queues a problem of the unit being decoded, returned after
// its events.
func (d *Decoder) addProblem(err error) {
	d.st.Problem(err)
	d.problem = true
}

// hold holds start back, with the events after it, until releaseHeld.
func (d *Decoder) hold(start *event.SessionStart) {
	d.releaseHeld()
	d.held, d.heldFor = start, 0
}

// releaseHeld lets the held start go, and the events behind it.
func (d *Decoder) releaseHeld() {
	d.held = nil
	d.st.Emit(d.behind...)
	clear(d.behind)
	d.behind = d.behind[:0]
}

func (d *Decoder) emit(ev event.Event) {
	if c, ok := ev.(*event.ToolCall); ok && !c.Server {
		// A server tool's result comes in the assistant's message,
		// named by the builder.
		d.toolOf[c.ID] = toolInfo{agent: c.Agent, name: c.Name}
		if old, out := d.pending.Add(c.ID); out {
			delete(d.toolOf, old)
			d.tooMany(1, "tool calls waiting for their result", fmt.Sprintf("%s, whose result will not be named", old))
		}
	}
	d.last = ev
	if d.held != nil {
		d.behind = append(d.behind, ev)
		return
	}
	d.st.Emit(ev)
}

// open notes that agent's scope has its SessionStart, forgetting the
// scope opened longest ago beyond maxOpen.
func (d *Decoder) open(agent string) {
	if old, out := d.started.Add(agent); out {
		d.tooMany(0, "agent scopes", fmt.Sprintf("%q: a line of it after this opens it again", old))
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
	d.addProblem(d.errorf(event.ErrTooManyOpen, "more than %d %s; forgot the oldest, %s (later ones are not reported)", maxOpen, what, oldest))
}

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return d.here(event.Errorf(sentinel, format, args...))
}

// here returns cause as a ParseError at the unit being decoded.
func (d *Decoder) here(cause error) *event.ParseError {
	col := d.col
	if col == 0 {
		col = 1
	}
	return &event.ParseError{Source: d.cfg.Source, Line: d.line, Column: col, Offset: d.off, Err: cause}
}

// position turns an error from the message builder into a ParseError at
// the current line.
func (d *Decoder) position(err error) error {
	if err == nil {
		return nil
	}
	if p, ok := err.(messages.Problem); ok {
		return d.here(p) // wraps event.ErrSyntax, and says what errorf would
	}
	sentinel := event.ErrSyntax
	for _, e := range []error{event.ErrTooLarge, event.ErrTooManyOpen} {
		if errors.Is(err, e) {
			sentinel = e
		}
	}
	return d.errorf(sentinel, "%s", err.Error())
}

// readUnit reads and decodes the next line (or array element).
func (d *Decoder) readUnit() error {
	if d.lines == nil && d.array == nil {
		if err := d.chooseFraming(); err != nil {
			return err
		}
	}
	if d.array != nil {
		return d.readElement()
	}
	line, num, off, err := d.lines.Next()
	if err != nil {
		var perr *event.ParseError
		if errors.As(err, &perr) {
			d.line, d.off = perr.Line, perr.Offset
		}
		return err
	}
	d.line, d.off, d.col = num, off, 1
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	d.wholeLine = true
	err = d.decode(line)
	d.wholeLine = false
	if _, ok := err.(*event.ParseError); !ok && err != nil && isSyntaxError(err) {
		// Not one JSON value: several fused objects, or a bad line. (The
		// ParseErrors decode makes wrap no json.SyntaxError.)
		return d.fused(line)
	}
	return err
}

// chooseFraming picks lines, or the array of --output-format json when the
// first byte after a byte order mark and white space is '['. It only
// peeks, so line numbers count from the start of the input.
func (d *Decoder) chooseFraming() error {
	i := 0
	if b, _ := d.br.Peek(3); bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	for ; ; i++ {
		b, err := d.br.Peek(i + 1)
		if len(b) <= i {
			if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
				return err
			}
			break
		}
		if c := b[i]; c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if b[i] == '[' {
			d.capped = &cappedReader{r: d.br, line: 1, col: 1}
			d.capped.skipped(b[:i])
			d.br.Discard(i)
			d.base = int64(i)
			d.capped.allow(0, d.cfg.MaxEventBytes)
			d.array = json.NewDecoder(d.capped)
			d.array.Token() // the '['
			return nil
		}
		break
	}
	d.lines = frame.NewLines(d.br, d.cfg.Source, d.cfg.MaxEventBytes)
	return nil
}

// readElement reads the next element of the top-level array. The
// json.Decoder reads through a cappedReader that lets it read at most
// MaxEventBytes (and a little slack for the separator) past the end of the
// last element, so that an element over the cap is reported without
// being read whole. An element a little over the cap is skipped, and
// reading goes on; one that goes past the slack ends the input there: the
// array cannot be resynchronised.
func (d *Decoder) readElement() error {
	start := d.array.InputOffset()
	d.at(start)
	d.capped.allow(start, d.cfg.MaxEventBytes)
	if !d.array.More() {
		_, err := d.array.Token() // the ']'
		if errors.Is(err, errElementTooLarge) {
			d.ended = true
			return d.tooLarge()
		}
		return io.EOF
	}
	sep := d.array.InputOffset() // More skipped white space: the comma, after an element
	var raw json.RawMessage
	if err := d.array.Decode(&raw); err != nil {
		// The array cannot be resynchronised: report and stop.
		d.ended = true
		if errors.Is(err, errElementTooLarge) {
			return d.tooLarge()
		}
		if d.inside && d.capped.byteAt(sep) != ',' {
			// No comma: the decoder stopped at the byte in its place
			// (the error's offset is sep, read before the value).
			d.at(sep)
		} else {
			d.at(d.array.InputOffset() + syntaxOffset(d.array.Buffered(), err))
		}
		return d.errorf(event.ErrSyntax, "in the top-level JSON array: %s", jsontext.Problem(err))
	}
	d.inside = true
	d.at(d.array.InputOffset() - int64(len(raw))) // the element's first byte
	if len(raw) > d.cfg.MaxEventBytes {
		return d.tooLarge()
	}
	return d.decode(raw)
}

// syntaxOffset returns where in rest (what the array's decoder holds past
// its offset: the value it failed to scan) err, a syntax error in the
// value, is: the json.Decoder's own offset counts from where it began
// scanning, not from the value. 0 for other errors.
func syntaxOffset(rest io.Reader, err error) int64 {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return 0
	}
	b, _ := io.ReadAll(rest) // held in memory already
	var raw json.RawMessage
	if errors.As(json.NewDecoder(bytes.NewReader(b)).Decode(&raw), &se) && se.Offset > 0 {
		return se.Offset - 1 // the offending byte, which the scanner read
	}
	return 0
}

// at sets the position of the unit being decoded to offset off of the
// array (from its '['), at or after the last one set.
func (d *Decoder) at(off int64) {
	d.off = d.base + off
	d.line, d.col = d.capped.pos(off)
}

func (d *Decoder) tooLarge() error {
	return d.errorf(event.ErrTooLarge, "array element larger than %d bytes (raise the cap, MaxEventBytes)", d.cfg.MaxEventBytes)
}

// arraySlack is what the array's json.Decoder may read past an element
// of the largest size allowed: the separator, white space around it, and
// the byte of lookahead a number needs.
const arraySlack = 4 << 10

var errElementTooLarge = event.Errorf(event.ErrTooLarge, "array element too large")

// cappedReader fails with errElementTooLarge once its reader has given
// more than limit bytes in all. It keeps the line and column of the
// array's bytes: the bytes read past the last position asked for are
// held (the element being decoded, which the json.Decoder holds too, and
// its read-ahead) and counted when a later position is asked for.
type cappedReader struct {
	r     io.Reader
	n     int64 // bytes read
	limit int64

	win       []byte // bytes read from offset at on
	at        int64
	line, col int // position of offset at
}

// skipped counts the bytes before the array's '[' (a byte order mark,
// white space), which the reader does not read.
func (c *cappedReader) skipped(b []byte) {
	c.count(b)
}

func (c *cappedReader) count(b []byte) {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		c.line += bytes.Count(b, []byte{'\n'})
		c.col = len(b) - i
	} else {
		c.col += len(b)
	}
}

// pos returns the 1-based line and byte column of offset off, at or after
// the last one asked for and at most the bytes read.
func (c *cappedReader) pos(off int64) (line, col int) {
	k := min(max(int(off-c.at), 0), len(c.win))
	c.count(c.win[:k])
	c.win, c.at = c.win[k:], c.at+int64(k)
	return c.line, c.col
}

// byteAt returns the byte at offset off, read and at or after the last
// position asked for, or 0.
func (c *cappedReader) byteAt(off int64) byte {
	if k := off - c.at; k >= 0 && k < int64(len(c.win)) {
		return c.win[k]
	}
	return 0
}

// allow lets the reader read up to max bytes, and the slack, past offset.
func (c *cappedReader) allow(offset int64, max int) {
	c.limit = offset + int64(max) + arraySlack
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.n >= c.limit {
		return 0, errElementTooLarge
	}
	if int64(len(p)) > c.limit-c.n {
		p = p[:c.limit-c.n]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	c.win = append(c.win, p[:n]...)
	return n, err
}

// fused decodes a line that is not one JSON value: several objects
// written without a newline between them, or a bad line. Every object's
// problem is reported, at its column. After a syntax error the rest of
// the line is resynchronised at the next "}{", if any.
func (d *Decoder) fused(line []byte) error {
	var problems problemList
	for base := 0; base < len(line); {
		dec := json.NewDecoder(bytes.NewReader(line[base:]))
		next := len(line)
		for {
			start := base + int(dec.InputOffset())
			var raw json.RawMessage
			err := dec.Decode(&raw)
			if err == io.EOF {
				break
			}
			d.col = start + 1
			if err != nil {
				problems = append(problems, d.errorf(event.ErrSyntax, "not a JSON object: %s", jsontext.Problem(err)))
				if i := bytes.Index(line[start+1:], []byte("}{")); i >= 0 {
					next = start + 1 + i + 1
				}
				break
			}
			if err := d.decode(raw); err != nil {
				problems = append(problems, err)
			}
		}
		base = next
	}
	switch len(problems) {
	case 0:
		return nil
	case 1:
		return problems[0]
	}
	return problems
}

// problemList is the ParseErrors of one line, each returned by Next in
// turn.
type problemList []error

func (l problemList) Error() string   { return errors.Join(l...).Error() }
func (l problemList) Unwrap() []error { return l }

// decode handles one line's JSON value.
func (d *Decoder) decode(raw []byte) error {
	raw, i, warn := d.bad.Fix(raw)
	if warn {
		d.addProblem(badutf8.Warning(d.cfg.Source, d.line, i+1, d.off+int64(i)))
	}
	var l line
	if err := d.unmarshalLine(raw, &l); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		if errors.As(err, &se) && d.wholeLine {
			return err // a whole line: readUnit tries it as fused objects
		}
		if !errors.As(err, &te) || !isObject(raw) {
			return d.errorf(event.ErrSyntax, "not a JSON object: %s", jsontext.Problem(err))
		}
		// A field of an unexpected type: keep the line. In a line type
		// this package does not decode that is no problem.
		var head struct {
			Type any `json:"type"`
		}
		json.Unmarshal(raw, &head)
		typ, _ := head.Type.(string)
		d.releaseHeld()
		d.emit(&event.Unknown{Agent: d.main(), Format: MetaKind, Type: typ, Raw: bytes.Clone(raw)})
		if typ != "" && !wire.IsKnownType(typ) {
			return nil
		}
		return d.errorf(event.ErrSyntax, "%s line: %s", typ, jsontext.Problem(err))
	}
	if l.Type == wire.TypeKeepAlive {
		return nil
	}
	d.release(&l)
	d.seen = true
	if l.SessionID != "" && d.session == "" {
		d.session = l.SessionID
	}
	agent := d.main()
	if l.ParentToolUseID != nil && *l.ParentToolUseID != "" {
		agent = d.subagent(&l, raw)
	}
	if l.Type == wire.TypeAssistant || l.Type == wire.TypeUser || l.Type == wire.TypeStreamEvent {
		d.finished = false
	}
	switch l.Type {
	case wire.TypeSystem:
		if l.Subtype == wire.SubtypeInit {
			return d.init(raw, &l)
		}
		d.emitNotice(agent, l.Subtype, &l, raw)
	case wire.TypeStreamEvent:
		return d.streamEvent(agent, l.Event, l.ev)
	case wire.TypeAssistant:
		return d.assistant(agent, &l, raw)
	case wire.TypeUser:
		return d.user(agent, &l, raw)
	case wire.TypeResult:
		return d.result(raw, l.compact)
	case "tool_progress", "tool_use_summary", "auth_status", "rate_limit_event", "prompt_suggestion",
		"conversation_reset", "active_goal", "control_request", "control_response", "control_cancel_request":
		d.emitNotice(agent, l.Type, &l, raw)
	default:
		if k := d.cfg.Foreign.Of(raw); k != "" {
			// A line of another format, not a type of a newer CLI.
			return d.errorf(event.ErrSyntax, "%s line of another format (it looks like %s); skipped", orLine(l.Type), k)
		}
		u := &event.Unknown{Agent: agent, Format: MetaKind, Type: l.Type}
		u.Raw, u.Checked = decoderstate.Payload(raw, l.compact)
		d.emit(u)
	}
	return nil
}

// emitNotice emits a status line of kind, l, whose text raw is valid JSON
// (decoded), as a Notice.
func (d *Decoder) emitNotice(agent, kind string, l *line, raw []byte) {
	n := &event.Notice{Agent: agent, Kind: kind, Message: d.summary(l, raw)}
	n.Raw, n.Checked = decoderstate.Payload(raw, l.compact)
	d.emit(n)
}

func orLine(typ string) string {
	if typ == "" {
		return "a"
	}
	return "a " + typ
}

// main returns the main agent's scope.
func (d *Decoder) main() string {
	if d.session != "" {
		return d.session
	}
	return d.cfg.Agent
}

// subagent returns the scope of a line of a subagent, and opens it the
// first time it appears.
func (d *Decoder) subagent(l *line, raw []byte) string {
	id := *l.ParentToolUseID
	if d.started.Has(id) {
		return id
	}
	d.open(id)
	parent := d.main()
	if t, ok := d.toolOf[id]; ok {
		parent = t.agent
	}
	ev := &event.SessionStart{
		Agent: id, ParentAgent: parent, ParentToolID: id, SessionID: l.SessionID,
		Name: l.SubagentType, Description: l.TaskDescription,
	}
	if l.Type == wire.TypeUser {
		var m wire.UserMessage
		_, ok := d.readUser(l.Message, &m)
		if !ok {
			m = wire.UserMessage{} // what the reader set is not kept
			ok = json.Unmarshal(l.Message, &m) == nil
		}
		if ok {
			ev.Prompt = userText(m.Content)
		}
	}
	ev.Model = d.lineModel(l)
	if l.Type == wire.TypeUser {
		// Opened by its prompt: its model is on its first message.
		d.hold(ev)
	}
	d.emit(ev)
	return id
}

// maxHeldLines bounds how many lines a subagent's SessionStart, and the
// events after it, wait for the model of the subagent's first message.
const maxHeldLines = 8

// release lets the held SessionStart of a subagent go, with the model of
// l when l is the subagent's assistant message or message_start, once l
// is a line of the subagent, or after maxHeldLines lines: Claude Code's
// status lines (task_progress, ...) and the end of the parent's message
// come between a subagent's prompt and its first message.
func (d *Decoder) release(l *line) {
	h := d.held
	if h == nil {
		return
	}
	d.heldFor++
	if l.ParentToolUseID != nil && *l.ParentToolUseID == h.Agent {
		h.Model = d.lineModel(l)
	} else if d.heldFor <= maxHeldLines {
		return
	}
	d.releaseHeld()
}

// lineModel returns the model of an assistant line's message, or of a
// message_start stream event; "" for Claude Code's synthetic messages.
// What the line's one-pass read decoded is taken as it is (it decoded
// what json.Unmarshal does); else the model is decoded from the line.
func (d *Decoder) lineModel(l *line) string {
	var m struct {
		Model string `json:"model"`
	}
	switch {
	case l.Type == wire.TypeAssistant && l.msg != nil:
		m.Model = l.msg.Model
	case l.Type == wire.TypeStreamEvent && l.ev != nil:
		if l.ev.Type == anthropic.EventMessageStart && l.ev.Message != nil {
			m.Model = l.ev.Message.Model
		}
	case l.Type == wire.TypeAssistant:
		json.Unmarshal(l.Message, &m)
	case l.Type == wire.TypeStreamEvent:
		var se struct {
			Type    string          `json:"type"`
			Message json.RawMessage `json:"message"`
		}
		if json.Unmarshal(l.Event, &se) == nil && se.Type == anthropic.EventMessageStart {
			json.Unmarshal(se.Message, &m)
		}
	}
	if m.Model == wire.SyntheticModel {
		return ""
	}
	return m.Model
}

// init decodes l, an init line, raw: as readLine read it, else with
// wire.InitReader.
func (d *Decoder) init(raw []byte, l *line) error {
	var in wire.Init
	if l.init != nil {
		in = *l.init
	} else if err := d.unmarshalInit(raw, &in); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return d.errorf(event.ErrSyntax, "system/init: %s", jsontext.Problem(err))
		}
	}
	if in.SessionID != "" && d.session != in.SessionID && d.started.Has(d.session) {
		// A new session (after a reset, or the next run of a log of many
		// runs): its own scope. The scopes of the one before, its own and
		// its subagents', are over: a log of more runs than maxOpen is not
		// too many scopes at once.
		d.session = in.SessionID
		d.started = openset.New[string](maxOpen)
	}
	agent := d.main()
	if d.started.Has(agent) {
		// Claude Code repeats init at the start of every query.
		n := &event.Notice{Agent: agent, Kind: wire.SubtypeInit, Message: "session " + in.SessionID + ", model " + in.Model}
		n.Raw, n.Checked = decoderstate.Payload(raw, l.compact)
		d.emit(n)
		return nil
	}
	d.open(agent)
	s := &event.SessionStart{
		Agent: agent, SessionID: in.SessionID, Model: in.Model, Tools: slices.Clone(in.Tools), // shared with the next init's
		Cwd: in.Cwd, MetaKind: MetaKind,
	}
	s.Meta, s.Checked = decoderstate.Payload(raw, l.compact)
	d.emit(s)
	return nil
}

func (d *Decoder) streamEvent(agent string, raw json.RawMessage, pre *anthropic.StreamEvent) error {
	if pre == nil {
		pre = new(anthropic.StreamEvent)
		if err := json.Unmarshal(raw, pre); err != nil {
			return d.errorf(event.ErrSyntax, "stream_event: %s", jsontext.Problem(err))
		}
	}
	return d.position(d.b.StreamEvent(agent, pre, raw))
}

func (d *Decoder) assistant(agent string, l *line, raw []byte) error {
	// The builder keeps m: the reader's, a new one for each line.
	m := l.msg
	if m == nil {
		m = new(anthropic.Message)
		if err := d.unmarshalMessage(l.Message, m); err != nil {
			d.emit(&event.Unknown{Agent: agent, Format: MetaKind, Type: l.Type, Raw: bytes.Clone(raw)})
			return d.errorf(event.ErrSyntax, "assistant message: %s", jsontext.Problem(err))
		}
	}
	var errType string
	if len(l.Error) > 0 { // (Unmarshal of nothing allocates its error)
		json.Unmarshal(l.Error, &errType)
	}
	if m.Model == wire.SyntheticModel || errType != "" {
		// Claude Code's report of an API error, dressed as a message.
		var text []string
		for _, c := range m.Content {
			if t, ok := blockText(c); ok {
				text = append(text, t)
			}
		}
		if errType == "" {
			errType = "unknown"
		}
		msg := strings.Join(text, "\n")
		// Raw is the error as an error object, as other formats carry
		// it; the line itself is no error payload.
		obj, _ := messages.Marshal(anthropic.APIError{Type: errType, Message: msg}) // strings always marshal
		d.emit(&event.Error{Agent: agent, Message: msg, Type: errType, Fatal: true, Raw: obj})
		return nil
	}
	if l.aborted {
		return d.position(d.b.SnapshotAborted(agent, m))
	}
	return d.position(d.b.Snapshot(agent, m))
}

// blockText returns the text of a content block, as json.Unmarshal into
// an anthropic.Block gives it, and whether it has one (the block decodes
// and its text is set). A text block is read in one pass; a block of
// another type goes to encoding/json: anthropic.UnmarshalBlock reads only
// the type of some, where json.Unmarshal also decodes their text, or fails.
func blockText(raw []byte) (string, bool) {
	var cb anthropic.Block
	err := anthropic.UnmarshalBlock(raw, &cb)
	if err == nil && cb.Type != anthropic.BlockText {
		cb = anthropic.Block{}
		err = json.Unmarshal(raw, &cb)
	}
	if err != nil || cb.Text == nil {
		return "", false
	}
	return *cb.Text, true
}

// abortedLine reports whether raw, a line not read in one pass, is
// marked "aborted": true (line.aborted).
func abortedLine(raw []byte) bool {
	if !bytes.Contains(raw, []byte(`"aborted"`)) {
		return false
	}
	var m wire.Mark
	return json.Unmarshal(raw, &m) == nil && m.Aborted
}

func (d *Decoder) user(agent string, l *line, raw []byte) error {
	m := &d.userMsg
	var blocks []json.RawMessage
	ok := l.msg != nil
	if ok {
		// Read with the line as a Messages API message, whose content
		// is the array of blocks: not read again.
		blocks = l.msg.Content
	} else {
		blocks, ok = d.readUser(l.Message, m)
	}
	if !ok {
		*m = wire.UserMessage{}
		if err := json.Unmarshal(l.Message, m); err != nil {
			d.emit(&event.Unknown{Agent: agent, Format: MetaKind, Type: l.Type, Raw: bytes.Clone(raw)})
			return d.errorf(event.ErrSyntax, "user message: %s", jsontext.Problem(err))
		}
		blocks = nil
		if len(m.Content) > 0 && m.Content[0] == '[' {
			if err := json.Unmarshal(m.Content, &blocks); err != nil {
				return d.errorf(event.ErrSyntax, "user message content: %s", jsontext.Problem(err))
			}
		}
	}
	results := 0
	var problem error
	for _, c := range blocks {
		var cb anthropic.Block
		if anthropic.UnmarshalBlock(c, &cb) != nil || cb.Type != anthropic.BlockToolResult {
			continue
		}
		ev := &event.ToolResult{Agent: agent, ID: cb.ToolUseID, IsError: cb.IsError != nil && *cb.IsError}
		if t, ok := d.toolOf[cb.ToolUseID]; ok {
			ev.Name = t.name
			ev.Agent = t.agent
			delete(d.toolOf, cb.ToolUseID)
			d.pending.Remove(cb.ToolUseID)
		}
		d.b.ToolAnswered(cb.ToolUseID)
		var err error
		ev.Content, err = messages.ResultParts(cb.Content)
		if err != nil && problem == nil {
			problem = d.errorf(event.ErrSyntax, "content of tool result %s: %s", cb.ToolUseID, jsontext.Problem(err))
		}
		if results == 0 && len(l.ToolUseResult) > 0 && string(l.ToolUseResult) != "null" {
			ev.Structured, ev.Checked = decoderstate.Payload(l.ToolUseResult, l.compact)
		}
		results++
		d.emit(ev)
		if d.started.Has(cb.ToolUseID) && !d.b.Streamed(cb.ToolUseID) {
			// The subagent started by this call is done.
			d.b.EndTurn(cb.ToolUseID, "", "")
		}
	}
	if results == 0 {
		if l.ParentToolUseID != nil && *l.ParentToolUseID == agent && d.isPrompt(agent) {
			return nil // the subagent's prompt, in its SessionStart
		}
		if l.msg != nil {
			// The content's text: a message read as a Messages API
			// message reads as a UserMessage too.
			if _, ok := d.readUser(l.Message, m); !ok {
				*m = wire.UserMessage{}
				_ = json.Unmarshal(l.Message, m)
			}
		}
		text := userText(m.Content)
		n := &event.Notice{Agent: agent, Kind: "user", Message: firstLine(text)}
		n.Raw, n.Checked = decoderstate.Payload(raw, l.compact)
		d.emit(n)
	}
	return problem
}

// isPrompt reports whether the user line just decoded opened agent's
// scope (its text is then the SessionStart's prompt).
func (d *Decoder) isPrompt(agent string) bool {
	s, ok := d.last.(*event.SessionStart)
	return ok && s.Agent == agent
}

// result decodes a result line, raw; compact: raw is compact JSON
// (line.compact).
func (d *Decoder) result(raw []byte, compact bool) error {
	r := d.res // read with the line
	var err error
	if r == nil {
		// A line the one-pass read did not take (a field of another
		// type, white space, a key matched only case-insensitively):
		// what encoding/json decodes of it.
		r = new(wire.Result)
		if err = json.Unmarshal(raw, r); err != nil {
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				return d.errorf(event.ErrSyntax, "result: %s", jsontext.Problem(err))
			}
		}
	}
	main := d.main()
	stop := ""
	if r.StopReason != nil {
		stop = *r.StopReason
	}
	for _, agent := range d.b.Agents() {
		if agent == main {
			d.b.EndTurn(agent, stop, "")
		} else {
			d.b.EndTurn(agent, "", "")
		}
	}
	ev := &event.RunEnd{
		Agent: main, StopReason: stop, Turns: r.NumTurns, DurationMS: r.DurationMS,
		CostUSD: r.TotalCostUSD, Usage: r.Usage.Event(), IsError: r.IsError, Errors: r.Errors,
		MetaKind: MetaKind,
	}
	ev.Meta, ev.Checked = decoderstate.Payload(raw, compact)
	if err == nil {
		// A line with a field of another type gives no models.
		ev.Models = modelsOf(r.ModelUsage)
	}
	if r.Result != nil {
		ev.Result = *r.Result
	}
	d.emit(ev)
	d.finished = true
	return nil
}

// truncation reports what the end of the input cut off: open messages,
// or a run with no result line.
func (d *Decoder) truncation() error {
	open := d.b.Truncate()
	if len(open) == 0 && (d.finished || !d.seen) {
		return nil
	}
	what := "stream ended before the result line"
	if len(open) > 0 {
		what = "stream ended inside " + textlist.Join(open, ", ")
	}
	col := 1 // the line's start, or the array element's
	if d.array != nil {
		col = d.col
	}
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.line, Column: col, Offset: d.off,
		Err: event.Errorf(event.ErrTruncated, "%s", what),
	}
}

// userText returns the text of user content: a string, or the text
// blocks joined.
func userText(content json.RawMessage) string {
	if len(content) == 0 || content[0] != '[' { // (an array is no string: spare its error)
		var s string
		if json.Unmarshal(content, &s) == nil {
			return s
		}
	}
	parts, _ := messages.ResultParts(content)
	var text []string
	for _, p := range parts {
		if p.Type == "text" {
			text = append(text, p.Text)
		}
	}
	return strings.Join(text, "\n")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func isObject(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}
