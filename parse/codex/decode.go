package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/textlist"
	wire "github.com/agentstream/agentstream/internal/wire/codex"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one line (event.DefaultMaxBytes if 0)
	Agent         string // agent id for events before thread.started, or when it has no thread_id
	// UsagePerTurn takes turn.completed usage as this turn's counts.
	// By default the counts are taken as cumulative per thread, as Codex
	// writes them, and each TurnEnd gets the difference from the last.
	UsagePerTurn bool
	// Foreign names the format of a line of another format
	// (format.Options.Foreign).
	Foreign format.Foreign
}

// Decoder reads codex exec --json output and yields canonical events. See
// the package documentation for the grammar and tolerance rules.
type Decoder struct {
	cfg Config
	in  decoderstate.Lines
	st  decoderstate.State // what Next returns

	agent   string                      // current thread
	turn    bool                        // inside a turn
	open    []openEntry                 // items seen but not completed, in order of arrival
	todos   map[string][]event.TodoItem // last list emitted per todo_list id
	threads threads                     // agent scopes opened, at most maxOpen, and their usage
	capped  bool                        // a cap was reported
	// compact: the line being decoded was read whole by the one-pass
	// reader, which met no white space outside its strings
	// (unmarshalLine); what the decoder copies of it is then compact JSON
	// (see event.Checked).
	compact bool

	jr   jsontext.Reader // decodes lines in one pass
	ln   wire.Line       // the line being decoded, reused
	bufs scratch         // agentMessages' scratch
	al   alloc           // its events and the strings they keep
	last string          // the string str made last
	// the message of the last error line and the turn.failed line that
	// would repeat it (noteError)
	failedMsg  string
	failedLine []byte
	spare      openItem    // an item completed in the line that started it
	free       []*openItem // open items completed since, for reuse
}

// maxOpen caps the items open at once and the threads the decoder
// keeps apart (their usage, whether their scope was opened).
const maxOpen = openset.DefaultMax

// openEntry is an open item and its id. Codex has an item or two open
// at a time: the decoder finds one by a scan of a few, where a map took
// a hash and an insert and a delete per item.
type openEntry struct {
	id string
	o  *openItem
}

// openItem is what the decoder remembers of an item between item.started
// and item.completed.
type openItem struct {
	kind   string
	called bool            // its ToolCall was emitted
	raw    json.RawMessage // its latest state, as written (for the kinds that use it)
	last   wire.Item       // its latest state, kept past its line (keep) if abandon reads it (lastRead)
	// compact is Decoder.compact of the line of its latest state: what
	// its events carry of raw or of the line is compact JSON.
	compact bool
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{todos: map[string][]event.TodoItem{}}
	if cfg != nil {
		d.cfg = *cfg
	}
	d.in = decoderstate.NewLines(r, d.cfg.Source, d.cfg.MaxEventBytes)
	d.jr.SetStrings(d.str)
	d.agent = d.cfg.Agent
	return d
}

// Detect reports whether an input whose first unit is h is codex exec
// --json output: a line (not SSE) holding a JSON object whose type is
// thread.started, session.created, turn.* or item.*, or whose item has
// item_type.
func Detect(h format.Head) bool {
	if h.SSE {
		return false
	}
	m := h.Fields()
	typ, _ := format.String(m, "type")
	switch {
	case typ == wire.TypeThreadStarted, typ == wire.TypeSessionCreated,
		strings.HasPrefix(typ, "turn."), strings.HasPrefix(typ, "item."):
		return true
	}
	item := format.Head{Payload: m["item"]}.Fields()
	_, old := format.String(item, "item_type")
	return old
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.st.Next(d.readLine, d.truncation) }

func (d *Decoder) readLine() { d.in.Read(&d.st, d.decode) }

// All returns an iterator over the events and problems of the stream, as
// Next yields them, ending before io.EOF.
func (d *Decoder) All() iter.Seq2[event.Event, error] {
	return func(yield func(event.Event, error) bool) {
		for {
			ev, err := d.Next()
			if err == io.EOF {
				return
			}
			if !yield(ev, err) {
				return
			}
			if err != nil {
				if _, ok := err.(*event.ParseError); !ok {
					return
				}
			}
		}
	}
}

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.in.Line, Column: 1, Offset: d.in.Offset,
		Err: event.Errorf(sentinel, format, args...),
	}
}

func (d *Decoder) emit(evs ...event.Event) { d.st.Emit(evs...) }

// unknown keeps a line verbatim: a line of valid JSON (encoding/json
// decoded it, or found it valid).
func (d *Decoder) unknown(typ string, line []byte) {
	raw, note := decoderstate.Payload(line, d.compact)
	d.emit(&event.Unknown{Agent: d.agent, Format: "codex", Type: typ, Raw: raw, Checked: note})
}

func (d *Decoder) decode(line []byte) error {
	if len(line) == 0 || line[0] != '{' {
		if line = bytes.TrimSpace(line); len(line) == 0 || line[0] != '{' {
			return d.errorf(event.ErrSyntax, "expected a JSON object")
		}
	}
	if string(line) == string(d.failedLine) {
		d.failed(d.failedMsg) // the error line's message again (noteError)
		return nil
	}
	if string(line) == turnStartedLine {
		d.turnStarted()
		return nil
	}
	// A thread.started or an error line as Codex writes it has its string
	// read alone (lineString); the other lines, most ending in "}}", are
	// told apart by their last two bytes, without a call.
	if stringEnd(line) {
		if id, ok := d.lineString(line, threadPrefix); ok {
			d.threadStarted(id)
			return nil
		}
		if msg, ok := d.lineString(line, errorPrefix); ok {
			d.errorLine(line, msg)
			return nil
		}
	}
	l := &d.ln
	if err := d.unmarshalLine(line, l); err != nil {
		if !json.Valid(line) {
			return d.errorf(event.ErrSyntax, "expected a JSON object: %s", jsontext.Problem(err))
		}
		// Valid JSON whose fields have unexpected types: keep it.
		d.unknown(l.Type, line)
		return d.errorf(event.ErrSyntax, "%s: %s", orNone(l.Type), jsontext.Problem(err))
	}
	switch l.Type {
	case wire.TypeThreadStarted, wire.TypeSessionCreated:
		id := l.ThreadID
		if id == "" {
			id = l.SessionID
		}
		d.threadStarted(id)
	case wire.TypeTurnStarted:
		d.turnStarted()
	case wire.TypeTurnCompleted:
		d.endTurn()
		u := l.Usage
		if u != nil && *u == (wire.Usage{}) && !bytes.Contains(line, []byte(`_tokens"`)) {
			u = nil // "usage":{}, no count at all: the usage is unknown
		}
		d.emit(d.turnEnd(u))
	case wire.TypeTurnFailed:
		msg := "turn failed"
		if l.Error != nil && l.Error.Message != "" {
			msg = l.Error.Message
		}
		d.failed(msg)
	case wire.TypeError:
		if l.Message == nil {
			d.unknown(l.Type, line)
			return nil
		}
		d.errorLine(line, *l.Message)
	case wire.TypeItemCompleted:
		return d.item(l, line, true)
	case wire.TypeItemStarted, wire.TypeItemUpdated:
		return d.item(l, line, false)
	default:
		if k := d.cfg.Foreign.Of(line); k != "" {
			// A line of another format, not an event of a newer Codex.
			what := "a line"
			if l.Type != "" {
				what = l.Type + " line"
			}
			return d.errorf(event.ErrSyntax, "%s of another format (it looks like %s); skipped", what, k)
		}
		d.unknown(l.Type, line)
	}
	return nil
}

// turnStartedLine is a turn.started line as Codex writes it, which decode
// takes as it is, without reading it: the line has nothing else to read.
const turnStartedLine = `{"type":"` + wire.TypeTurnStarted + `"}`

// threadPrefix and errorPrefix are how Codex starts a thread.started
// line and an error line: a string follows, the thread id or the
// message, and then the line's end.
const (
	threadPrefix = `{"type":"` + wire.TypeThreadStarted + `","thread_id":`
	errorPrefix  = `{"type":"` + wire.TypeError + `","message":`
)

// stringEnd reports whether line ends as one whose last member is a
// string: in a quote and "}".
func stringEnd(line []byte) bool {
	n := len(line)
	return n > 2 && line[n-1] == '}' && line[n-2] == '"'
}

// lineString returns the string of line when line is prefix, a JSON
// string and "}", which decode takes without reading the line whole:
// every run of Codex starts a thread, and many fail with an error line.
// ok is false for any other line, which is read whole.
func (d *Decoder) lineString(line []byte, prefix string) (s string, ok bool) {
	n := len(line)
	if n < len(prefix)+3 || !stringEnd(line) || string(line[:len(prefix)]) != prefix {
		return "", false
	}
	r := &d.jr
	r.ResetValid(line[len(prefix) : n-1]) // a part of a line through badutf8.Fix
	s = r.String()
	if !r.End() {
		return "", false
	}
	d.compact = !r.Spaced() // (the prefix has no white space)
	return s, true
}

// threadStarted starts the thread id (the decoder's agent when id is "").
func (d *Decoder) threadStarted(id string) {
	d.agent = id
	if d.agent == "" {
		d.agent = d.cfg.Agent
	}
	d.thread(d.agent)
	ev := d.al.starts.New()
	ev.Agent, ev.SessionID = d.agent, id
	d.emit(ev)
}

// errorLine emits the error of an error line, whose message is msg.
func (d *Decoder) errorLine(line []byte, msg string) {
	ev := d.al.errors.New()
	ev.Agent, ev.Message, ev.Raw = d.agent, msg, d.al.raw.Copy(line)
	ev.Checked = decoderstate.Note(ev.Raw, d.compact)
	d.emit(ev)
	d.noteError(line, ev.Message)
}

// turnStarted starts a turn.
func (d *Decoder) turnStarted() {
	d.turn = true
	ev := d.al.turns.New()
	ev.Agent = d.agent
	d.emit(ev)
}

// failed ends the turn that failed with msg.
func (d *Decoder) failed(msg string) {
	d.endTurn()
	e := d.al.ends.New()
	e.Agent, e.Error = d.agent, msg
	d.emit(e)
}

// Codex writes the error of a failed turn twice: on an error line, then
// in the turn.failed line after it, whose message, escaped, is most of
// the line. When an error line with a message is errorShape, a text T and
// `"}`, and a turn.failed line is failedShape, T and `"}}`, T is read in
// the same place in both: after the start of a "message" string, among
// the members of an object. The message is the last "message" member, a
// string in both (a null last leaves the error line without one), so the
// turn.failed line is not read again. (Any other member in T is the error
// line's, whose type it left as it was, and one the turn.failed line's
// error object skips.)
const (
	errorShape  = errorPrefix + `"`
	failedShape = `{"type":"` + wire.TypeTurnFailed + `","error":{"message":"`
)

// noteError keeps msg, the message of the error line line, and the
// turn.failed line that would repeat it (none, "", if there is none: a
// blank line is not decoded).
func (d *Decoder) noteError(line []byte, msg string) {
	d.failedLine, d.failedMsg = d.failedLine[:0], ""
	text, ok := bytes.CutPrefix(line, []byte(errorShape))
	if text, ok2 := bytes.CutSuffix(text, []byte(`"}`)); ok && ok2 && msg != "" {
		d.failedLine = append(append(append(d.failedLine, failedShape...), text...), `"}}`...)
		d.failedMsg = msg
	}
}

func orNone(typ string) string {
	if typ == "" {
		return "line"
	}
	return typ
}

// endTurn lets go of the items left open by the turn that ends (Codex
// does not complete them after it): what each carries is emitted, as at
// the end of the input, before the turn's end.
func (d *Decoder) endTurn() {
	d.turn = false
	for _, e := range d.open {
		d.abandon(e.o)
		d.free = append(d.free, e.o)
		delete(d.todos, e.id)
	}
	clear(d.open)
	d.open = d.open[:0]
}

// turnEnd turns the cumulative counts of turn.completed into this
// turn's. Counts are cumulative per thread; one that goes down means the
// producer restarted counting (or counts per turn), and the counts are
// then taken as they are.
func (d *Decoder) turnEnd(u *wire.Usage) *event.TurnEnd {
	e := d.al.ends.New()
	e.Agent = d.agent
	if u == nil {
		return e
	}
	cur := u.Event()
	e.Usage = d.al.usages.New()
	*e.Usage = cur
	if !d.cfg.UsagePerTurn {
		prev := d.threads.swapUsage(d.agent, cur)
		if cur.InputTokens >= prev.InputTokens && cur.CacheReadTokens >= prev.CacheReadTokens &&
			cur.CacheWriteTokens >= prev.CacheWriteTokens && cur.OutputTokens >= prev.OutputTokens &&
			cur.ReasoningTokens >= prev.ReasoningTokens {
			e.Usage.Sub(&prev)
		}
	}
	return e
}

// item decodes an item line, whose item is complete when its type is
// item.completed.
func (d *Decoder) item(l *wire.Line, line []byte, complete bool) error {
	phase, raw := l.Type, l.Item.Raw
	if len(raw) == 0 || raw[0] != '{' {
		d.unknown(phase, line)
		return d.errorf(event.ErrSyntax, "%s has no item object", phase)
	}
	it := &l.Item.Item
	if !l.Item.OK {
		d.unknown(phase, line)
		return d.errorf(event.ErrSyntax, "%s: %s", phase, jsontext.Problem(json.Unmarshal(raw, new(wire.Item))))
	}
	it.ID = firstID(raw, it.ID)
	kind := it.Kind()
	id := it.ID
	var found *openItem
	at := slices.IndexFunc(d.open, func(e openEntry) bool { return e.id == id })
	if at >= 0 {
		found = d.open[at].o
	}
	o := found
	if o != nil && o.kind != kind {
		o = nil // the id was reused by an item of another type: a new item
	}
	switch {
	case o == nil && complete:
		// Completed at once (most messages): done with before the next
		// line, in the decoder's own (its last is not used).
		d.spare.kind, d.spare.called, d.spare.raw = kind, false, nil
		o = &d.spare
	case o == nil:
		o = d.newOpen(kind)
	}
	o.compact = d.compact
	switch kind {
	case wire.ItemPlan, wire.ItemError, wire.ItemWebSearch, wire.ItemCollabToolCall:
		o.raw = bytes.Clone(raw) // events carry it, or their input is made of it
	}
	switch kind {
	case wire.ItemAgentMessage, wire.ItemReasoning, wire.ItemPlan, wire.ItemError:
		if complete {
			d.finish(o, it)
		}
	case wire.ItemFileChange:
		if !complete && !o.called {
			// Its start is an event of its own (status in_progress), as
			// Codex writes it: a round trip keeps the item.started line.
			o.called = true
			d.emit(fileChange(d.agent, it))
		}
		if complete {
			d.finish(o, it)
		}
	case wire.ItemCommandExecution, wire.ItemMCPToolCall:
		d.call(o, it)
		if complete {
			d.finish(o, it)
		}
	case wire.ItemWebSearch:
		// The query is known only at completion in recent versions.
		if complete {
			d.call(o, it)
			d.finish(o, it)
		}
	case wire.ItemCollabToolCall:
		d.call(o, it)
		d.receivers(it)
		if complete {
			d.finish(o, it)
		}
	case wire.ItemTodoList:
		d.todo(it)
	default:
		d.unknown(kind, line)
		return nil
	}
	if complete {
		if found != nil {
			d.open = slices.Delete(d.open, at, at+1)
			d.free = append(d.free, found)
		}
		if kind == wire.ItemTodoList {
			delete(d.todos, id)
		}
		return nil
	}
	if lastRead(kind) {
		o.last = *it // kept past the line: copied only then, a big struct
		keep(&o.last)
	}
	if found == nil {
		d.open = append(d.open, openEntry{id, o})
		if len(d.open) > maxOpen {
			d.letGo()
		}
	} else if found != o {
		d.free = append(d.free, found) // the id was reused by an item of another type
		d.open[at].o = o
	}
	return nil
}

// newOpen returns an openItem for a new item of kind, one completed
// before if there is one: an item started and completed on two lines
// takes no allocation for what the decoder keeps of it between them.
// Nothing an event holds points into an openItem: raw is handed out,
// never written into, and set anew.
func (d *Decoder) newOpen(kind string) *openItem {
	if n := len(d.free); n > 0 {
		o := d.free[n-1]
		d.free = d.free[:n-1]
		o.kind, o.called, o.raw = kind, false, nil // last is set when it is kept
		return o
	}
	return &openItem{kind: kind}
}

func fileChange(agent string, it *wire.Item) *event.FileChange {
	ev := &event.FileChange{Agent: agent, ID: it.ID, Status: it.Status}
	for _, c := range it.Changes {
		ev.Changes = append(ev.Changes, event.Change{Path: c.Path, Kind: c.Kind})
	}
	return ev
}

// call emits the ToolCall of a tool item, once, from it, its state now.
func (d *Decoder) call(o *openItem, it *wire.Item) {
	if o.called {
		return
	}
	o.called = true
	ev := d.al.calls.New()
	ev.Agent, ev.ID, ev.Name = d.agent, it.ID, o.kind
	switch o.kind {
	case wire.ItemCommandExecution:
		cmd := it.Command
		if len(cmd) == 0 {
			cmd = json.RawMessage(`""`)
		}
		ev.Input = d.al.raw.Copy([]byte(`{"command":`), cmd, []byte(`}`))
	case wire.ItemMCPToolCall:
		ev.Name, ev.MCPServer = it.Tool, it.Server
		ev.Input = json.RawMessage("{}")
		if len(it.Arguments) > 0 {
			ev.Input = d.al.raw.Copy(it.Arguments)
		}
	case wire.ItemWebSearch:
		ev.Input = object(&d.jr, o.raw, "id", "type", "item_type", "status")
	case wire.ItemCollabToolCall:
		ev.Name = it.Tool
		ev.Input = object(&d.jr, o.raw, "id", "type", "item_type", "status", "tool", "agents_states")
	}
	// Each Input is valid JSON made of the item's values as read: one
	// of them, or some in an object.
	ev.Checked = decoderstate.Note(ev.Input, o.compact)
	d.emit(ev)
}

// object writes the members of the item object raw back as a JSON
// object, leaving out the first member of each of the keys in drop (at
// most 64), in one pass when r can read raw, else as objectSlow does.
func object(r *jsontext.Reader, raw []byte, drop ...string) json.RawMessage {
	r.ResetValid(raw) // a part of a line through badutf8.Fix
	if !r.Object() {
		return objectSlow(raw, drop...)
	}
	var dropped uint64
	b := make([]byte, 1, len(raw))
	b[0] = '{'
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		v := r.Skip()
		if i := slices.Index(drop, string(key)); i >= 0 && dropped&(1<<i) == 0 {
			dropped |= 1 << i
			continue
		}
		if bytes.IndexByte(key, '<') >= 0 || bytes.IndexByte(key, '>') >= 0 || bytes.IndexByte(key, '&') >= 0 {
			r.Fail() // encoding/json escapes them (ContainsAny builds a set per call)
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = append(b, v...)
	}
	if !r.End() {
		return objectSlow(raw, drop...)
	}
	return append(b, '}')
}

// objectSlow is object with encoding/json, for any object.
func objectSlow(raw []byte, drop ...string) json.RawMessage {
	fields, _ := fields(raw)
	var dropped []string
	b := []byte{'{'}
	for _, f := range fields {
		if slices.Contains(drop, f.Key) && !slices.Contains(dropped, f.Key) {
			dropped = append(dropped, f.Key)
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(f.Key)
		b = append(b, k...)
		b = append(b, ':')
		b = append(b, f.Value...)
	}
	return append(b, '}')
}

// receivers opens an agent scope for each thread a collab tool call names
// for the first time. A call whose sender is unknown (no sender_thread_id,
// thread.started or Config.Agent) opens none: a scope without a parent is
// a main agent, which the receivers are not; the call's input keeps their
// ids.
func (d *Decoder) receivers(it *wire.Item) {
	parent := it.SenderThreadID
	if parent == "" {
		parent = d.agent
	}
	if parent == "" {
		return
	}
	for _, r := range it.ReceiverThreadIDs {
		if !d.thread(r) {
			continue
		}
		ev := &event.SessionStart{Agent: r, ParentAgent: parent, ParentToolID: it.ID, SessionID: r}
		if it.Tool == "spawn_agent" && it.Prompt != nil {
			ev.Prompt = *it.Prompt
		}
		d.emit(ev)
	}
}

// todo emits a todo_list's items when they changed.
func (d *Decoder) todo(it *wire.Item) {
	items := make([]event.TodoItem, 0, len(it.Items))
	for _, t := range it.Items {
		status := "pending"
		if t.Completed {
			status = "completed"
		}
		items = append(items, event.TodoItem{Text: t.Text, Status: status})
	}
	if last, ok := d.todos[it.ID]; ok && slices.Equal(last, items) {
		return
	}
	d.todos[it.ID] = items
	d.emit(&event.TodoList{Agent: d.agent, ID: it.ID, Items: items})
}

// finish emits what a completed item carries, from it, its last state
// (of one cut off, o.last).
func (d *Decoder) finish(o *openItem, it *wire.Item) {
	switch o.kind {
	case wire.ItemAgentMessage, wire.ItemReasoning:
		kind := event.Text
		if o.kind == wire.ItemReasoning {
			kind = event.Thinking
		}
		// The three events from one struct: each is a field of its
		// own, which no other event shares.
		b := d.al.blocks.New()
		b.start.Agent, b.start.Kind = d.agent, kind
		b.delta.Agent, b.delta.Kind, b.delta.Text = d.agent, kind, it.Text
		b.end.Agent, b.end.Kind = d.agent, kind
		if it.Text != "" {
			d.emit(&b.start, &b.delta, &b.end)
		} else {
			d.emit(&b.start, &b.end)
		}
	case wire.ItemPlan:
		d.emit(&event.Notice{
			Agent: d.agent, Kind: PlanNoticeKind, Message: it.Text,
			Raw: o.raw, Checked: decoderstate.Note(o.raw, o.compact),
		})
	case wire.ItemError:
		d.emit(&event.Error{
			Agent: d.agent, Message: it.Message, Type: ErrorItemType,
			Raw: o.raw, Checked: decoderstate.Note(o.raw, o.compact),
		})
	case wire.ItemFileChange:
		d.emit(fileChange(d.agent, it))
	case wire.ItemCommandExecution:
		// The event, its exit code and its output from one struct; the
		// exit code is read into lineBufs.
		r := d.al.results.New()
		r.ev.Agent, r.ev.ID, r.ev.Name = d.agent, it.ID, o.kind
		r.ev.Status, r.ev.IsError = it.Status, it.Status == wire.StatusFailed || it.Status == wire.StatusDeclined
		if it.ExitCode != nil {
			r.code = *it.ExitCode
			r.ev.ExitCode = &r.code
		}
		if it.AggregatedOutput != "" {
			r.part[0] = event.Part{Type: "text", Text: it.AggregatedOutput}
			r.ev.Content = r.part[:1:1]
		}
		d.emit(&r.ev)
	case wire.ItemMCPToolCall:
		ev := &event.ToolResult{
			Agent: d.agent, ID: it.ID, Name: it.Tool, Status: it.Status,
			IsError: it.Status == wire.StatusFailed || it.Error != nil,
		}
		if r := it.Result; r != nil {
			n := len(r.Content)
			if it.Error != nil {
				n++
			}
			if n > 0 {
				ev.Content = make([]event.Part, 0, n)
			}
			for _, c := range r.Content {
				ev.Content = append(ev.Content, mcpPart(&d.jr, c))
			}
			if len(r.StructuredContent) > 0 && string(r.StructuredContent) != "null" {
				ev.Structured, ev.Checked = decoderstate.Payload(r.StructuredContent, o.compact)
			}
		}
		if it.Error != nil {
			ev.Content = append(ev.Content, event.Part{Type: "text", Text: it.Error.Message})
		}
		d.emit(ev)
	case wire.ItemWebSearch:
		d.emit(&event.ToolResult{Agent: d.agent, ID: it.ID, Name: o.kind, Status: it.Status})
	case wire.ItemCollabToolCall:
		ev := &event.ToolResult{
			Agent: d.agent, ID: it.ID, Name: it.Tool, Status: it.Status,
			IsError: it.Status == wire.StatusFailed,
		}
		if len(it.AgentsStates) > 0 && string(it.AgentsStates) != "null" {
			ev.Structured, ev.Checked = decoderstate.Payload(it.AgentsStates, o.compact)
			ev.Content = d.agentMessages(it)
		}
		d.emit(ev)
	}
}

// scratch is what agentMessages reads into, reused from line to line.
type scratch struct {
	messages  []agentMessage
	remaining [][]byte
}

// agentMessage is what agentMessages reads of one agent of agents_states.
type agentMessage struct {
	id      []byte // in the line
	message string
}

// agentMessages returns the messages of a collab call's agents_states, one
// text part per receiver that has one, in receiver order (then the rest,
// sorted). It reads agents_states in one pass when d.jr can, else as
// agentMessagesSlow does.
func (d *Decoder) agentMessages(it *wire.Item) []event.Part {
	r, b := &d.jr, &d.bufs
	r.ResetValid(it.AgentsStates) // a part of a line through badutf8.Fix
	if !r.Object() {
		return agentMessagesSlow(it)
	}
	// As encoding/json reads map[string]AgentState: the last of
	// duplicate ids wins, a null state has no message; a key that could
	// match a field only case-insensitively, or a value of another type,
	// fails the reader and goes to agentMessagesSlow.
	msgs := b.messages[:0]
	for id, ok := r.Key(); ok; id, ok = r.Key() {
		var msg string // "" when null, absent or empty: no part
		if !r.Null() {
			r.Object()
			for key, ok := r.Key(); ok; key, ok = r.Key() {
				switch string(key) {
				case "status": // a string or null, not kept
					if !r.Null() {
						if r.Peek() != '"' {
							r.Fail()
						}
						r.Skip()
					}
				case "message":
					if r.Null() {
						msg = ""
					} else {
						msg = r.String()
					}
				default:
					r.Skip()
				}
			}
		}
		i := slices.IndexFunc(msgs, func(m agentMessage) bool { return string(m.id) == string(id) })
		if i < 0 {
			msgs = append(msgs, agentMessage{id: id})
			i = len(msgs) - 1
		}
		msgs[i].message = msg
	}
	b.messages = msgs
	if !r.End() {
		return agentMessagesSlow(it)
	}
	var parts []event.Part
	add := func(id []byte) {
		for _, m := range msgs {
			if string(m.id) == string(id) && m.message != "" {
				parts = append(parts, event.Part{Type: "text", Text: m.message})
			}
		}
	}
	rest := b.remaining[:0]
	for _, m := range msgs {
		if !receiver(it, m.id) {
			rest = append(rest, m.id)
		}
	}
	slices.SortFunc(rest, bytes.Compare)
	b.remaining = rest
	for _, id := range it.ReceiverThreadIDs {
		add([]byte(id))
	}
	for _, id := range rest {
		add(id)
	}
	return parts
}

// receiver reports whether id is one of it's receivers.
func receiver(it *wire.Item, id []byte) bool {
	for _, r := range it.ReceiverThreadIDs {
		if r == string(id) {
			return true
		}
	}
	return false
}

// agentMessagesSlow is agentMessages with encoding/json, for any input.
func agentMessagesSlow(it *wire.Item) []event.Part {
	var states map[string]wire.AgentState
	if json.Unmarshal(it.AgentsStates, &states) != nil {
		return nil
	}
	ids := slices.Clone(it.ReceiverThreadIDs)
	for _, id := range slices.Sorted(maps.Keys(states)) {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	var parts []event.Part
	for _, id := range ids {
		if s, ok := states[id]; ok && s.Message != nil && *s.Message != "" {
			parts = append(parts, event.Part{Type: "text", Text: *s.Message})
		}
	}
	return parts
}

// mcpPart turns an MCP content block into a Part. Text and image blocks
// with no other fields map onto Part's own; any other block is kept as
// its JSON text in a Part whose Type is the block's type. It reads the
// block in one pass when r can, else as mcpPartSlow does.
func mcpPart(r *jsontext.Reader, raw json.RawMessage) event.Part {
	r.ResetValid(raw) // a part of a line through badutf8.Fix
	if !r.Object() {
		return mcpPartSlow(raw)
	}
	// The block is read as a map would be: exact keys, the last of
	// duplicates wins, a value of another type reads as "".
	var typ, text, data, mime string
	var hasText, hasData, hasMime, other bool
	str := func(s *string, ok *bool) { // ok: it unmarshals into a string
		switch r.Peek() {
		case '"':
			*s, *ok = r.String(), true
		case 'n':
			*s, *ok = "", r.Null()
		default:
			*s, *ok = "", false
			r.Skip()
		}
	}
	var isStr bool
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "type":
			str(&typ, &isStr)
		case "text":
			str(&text, &hasText)
		case "data":
			str(&data, &hasData)
		case "mimeType":
			str(&mime, &hasMime)
		default:
			other = true
			r.Skip()
		}
	}
	if !r.End() {
		return mcpPartSlow(raw)
	}
	switch {
	case typ == "text" && !other && !hasData && !hasMime && hasText:
		return event.Part{Type: "text", Text: text}
	case typ == "image" && !other && !hasText && hasData && hasMime:
		return event.Part{Type: "image", Source: "data:" + mime + ";base64," + data, MediaType: mime}
	}
	return otherPart(typ, raw)
}

// otherPart keeps an MCP block as its JSON text.
func otherPart(typ string, raw json.RawMessage) event.Part {
	if typ == "" || typ == "text" || typ == "image" {
		typ = "mcp"
	}
	var buf bytes.Buffer
	json.Compact(&buf, raw)
	return event.Part{Type: typ, Text: buf.String()}
}

// mcpPartSlow is mcpPart with encoding/json, for any block.
func mcpPartSlow(raw json.RawMessage) event.Part {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return event.Part{Type: "text", Text: string(raw)}
	}
	var typ, text, data, mime string
	json.Unmarshal(m["type"], &typ)
	only := func(keys ...string) bool {
		for k := range m {
			if !slices.Contains(keys, k) {
				return false
			}
		}
		return true
	}
	switch {
	case typ == "text" && only("type", "text") && json.Unmarshal(m["text"], &text) == nil:
		return event.Part{Type: "text", Text: text}
	case typ == "image" && only("type", "data", "mimeType") &&
		json.Unmarshal(m["data"], &data) == nil && json.Unmarshal(m["mimeType"], &mime) == nil:
		return event.Part{Type: "image", Source: "data:" + mime + ";base64," + data, MediaType: mime}
	}
	return otherPart(typ, raw)
}

// abandon emits what an item that will not complete (cut off, or let
// go) carries: the last state of a message, reasoning, plan, error or
// file change as if complete, a web search's call; a tool call was
// emitted, its result never comes.
func (d *Decoder) abandon(o *openItem) {
	switch {
	case !lastRead(o.kind):
	case o.kind == wire.ItemWebSearch:
		d.call(o, &o.last)
	default:
		d.finish(o, &o.last)
	}
}

// lastRead reports whether abandon reads the last state of an open item
// of kind (openItem.last): not a tool's, whose call was emitted already,
// nor a todo list's, emitted as it changed.
func lastRead(kind string) bool {
	switch kind {
	case wire.ItemCommandExecution, wire.ItemMCPToolCall, wire.ItemCollabToolCall, wire.ItemTodoList:
		return false
	}
	return true
}

// letGo keeps the open items within maxOpen: the one open longest is
// abandoned, reported once.
func (d *Decoder) letGo() {
	id, o := d.open[0].id, d.open[0].o
	d.open[0] = openEntry{}
	d.open = d.open[1:]
	delete(d.todos, id)
	d.abandon(o)
	if !d.capped { // formatted only for the one report
		d.tooMany(fmt.Sprintf("more than %d items open at once; let go of the oldest, %s %q", maxOpen, o.kind, id))
	}
	d.free = append(d.free, o)
}

// tooMany reports, the first time only, a cap the decoder kept to.
func (d *Decoder) tooMany(what string) {
	if d.capped {
		return
	}
	d.capped = true
	d.st.Problem(d.errorf(event.ErrTooManyOpen, "%s (later ones are not reported)", what))
}

// thread counts agent as a thread seen, reporting whether it was new;
// beyond maxOpen threads the one seen longest ago is forgotten (a later
// collab call naming it opens its scope again).
func (d *Decoder) thread(agent string) bool {
	added, forgot, old := d.threads.add(agent)
	if forgot && !d.capped { // formatted only for the one report
		d.tooMany(fmt.Sprintf("more than %d threads; forgot the oldest, %q", maxOpen, old))
	}
	return added
}

// truncation reports what is still open at the end of the input: the
// last state of open items is emitted as if complete, and the error
// names the turn or the items.
func (d *Decoder) truncation() error {
	var open []string
	for _, e := range d.open {
		open = append(open, fmt.Sprintf("%s %q", e.o.kind, e.id))
		d.abandon(e.o)
	}
	d.open = nil
	if d.turn {
		open = append([]string{fmt.Sprintf("a turn of thread %q", d.agent)}, open...)
	}
	if len(open) == 0 {
		return nil
	}
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.in.Line, Column: 1, Offset: d.in.Offset,
		Err: event.Errorf(event.ErrTruncated, "stream ended inside %s", textlist.Join(open, ", ")),
	}
}
