package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/emit/internal/lost"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/codex"
	parse "github.com/agentstream/agentstream/parse/codex"
)

// defaultThreadID is the thread id written when the stream names none and
// Config.Agent is empty.
const defaultThreadID = "agentstream"

// turnFailedErrorType is the event.Error Type under which formats without
// turn boundaries (jsonenv) carry a failed turn; such an error is written
// as turn.failed.
const turnFailedErrorType = "turn_failed"

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Agent is the thread id written when the stream's first session
	// names none.
	Agent string
	// Warn receives what codex exec --json cannot carry, once per kind.
	// Nil discards it.
	Warn func(error)
	// MaxBlockBytes caps the text of one text or thinking block, which
	// is held until the block ends (event.DefaultMaxBytes if 0). Text
	// beyond it is dropped and reported through Warn, once.
	MaxBlockBytes int
}

// Encoder writes canonical events as codex exec --json lines.
type Encoder struct {
	w   io.Writer
	cfg Config
	buf []byte
	err error

	main     string // agent scope written as the thread; set by the first event
	haveMain bool
	thread   bool   // thread.started written
	threadID string // the thread id written
	turn     bool   // turn.started written, turn.completed not yet
	turned   bool   // a turn.started was written (Cut: was the run cut before its first turn)
	content  bool   // an item was written in the open turn
	nextID   int

	blocks   []kindBlock          // open text and thinking blocks of the main agent (see blockOf)
	free     []*textBlock         // blocks to reuse
	in       input                // a tool call's input, reused
	fields   [6]field             // an item's members, reused
	num      []byte               // an exit code's digits, reused
	spare    *call                // a call answered, for reuse
	calls    map[string]*call     // tool calls written as item.started, by call id
	callIDs  *openset.Set[string] // the ids in calls, oldest first: at most maxOpen
	todo     *todoItem            // the open todo_list item of the turn
	fileIDs  map[string]string    // FileChange.ID -> item id, between item.started and item.completed
	fileKeys *openset.Set[string] // the ids in fileIDs, oldest first: at most maxOpen
	// emptyChild: the agent scope "" is a subagent's, not the main
	// thread's (the only scope other than the main one that matters).
	emptyChild bool

	pending  event.Usage // usage of the turns merged into the open one
	total    event.Usage // cumulative usage written so far
	anyUsage bool        // a TurnEnd carried usage
	// usageKnown: a TurnEnd or RunEnd carried usage. Until one does,
	// turn.completed has "usage":{} (the SDK reads the object; no count
	// is made up).
	usageKnown bool
	failure    string // message of a fatal Error, for the turn's end
	// retried: a model call began after the fatal Error (a retry): a cut
	// after it is no failure the run ended with.
	retried bool
	losses  event.Losses // what was warned about
}

// call is a tool call between its item.started and its item.completed.
type call struct {
	item      string // item id
	kind      string // item type, or "todo" for a todo tool whose result is dropped
	command   json.RawMessage
	server    string
	tool      string
	arguments json.RawMessage
	search    []field // web_search members after type
	collab    collab
}

type collab struct {
	sender    string
	receivers []string
	prompt    json.RawMessage
}

type todoItem struct {
	id    string
	key   string // the TodoList.ID it was made for, if any
	items []wire.TodoItem
}

// maxOpen caps the tool calls waiting for their result and the file
// changes waiting for their completion (openset.DefaultMax).
const maxOpen = openset.DefaultMax

// openLoss is the loss reported past maxOpen.
var openLoss = fmt.Sprintf("more than %d tool calls or file changes waiting for their end "+
	"(the oldest is forgotten: its item is never completed)", maxOpen)

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{
		w: w, calls: map[string]*call{}, callIDs: openset.New[string](maxOpen),
		fileIDs: map[string]string{}, fileKeys: openset.New[string](maxOpen),
	}
	if cfg != nil {
		e.cfg = *cfg
	}
	if e.cfg.MaxBlockBytes <= 0 {
		e.cfg.MaxBlockBytes = event.DefaultMaxBytes
	}
	return e
}

func (e *Encoder) warn(what string) {
	e.losses.Report(e.cfg.Warn, "codex", what)
}

// isMain reports whether ev belongs to the thread the encoder writes,
// fixing that thread at the first event.
func (e *Encoder) isMain(ev event.Event) bool {
	agent := ev.AgentID()
	if s, ok := ev.(*event.SessionStart); ok {
		// A session with no parent is a main thread, the first or the
		// next one (session decides).
		return s.ParentAgent == ""
	}
	if !e.haveMain {
		e.haveMain, e.main = true, agent
	}
	return agent == e.main || (agent == "" && !e.emptyChild)
}

// Encode writes the lines for ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	if s, ok := ev.(*event.SessionStart); ok && s.ParentAgent != "" {
		e.child(s)
		return e.err
	}
	if !e.isMain(ev) {
		if ev.AgentID() == "" {
			e.emptyChild = true
		}
		e.warn("events of subagents (codex exec --json writes its main thread only)")
		return e.err
	}
	if n, ok := ev.(*event.Notice); ok && n.Kind == event.NoticeAbandoned || isError(ev) {
		e.cutShort()
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		e.session(ev)
	case *event.TurnStart:
		if ev.MessageID != "" || ev.Model != "" {
			e.warn("message ids and models of turns")
		}
		e.retried = e.failure != ""
		e.openTurn()
	case *event.TurnEnd:
		e.turnEnd(ev)
	case *event.BlockStart:
		e.openBlock(ev.Kind)
	case *event.Delta:
		e.appendText(e.openBlock(ev.Kind), ev.Text)
	case *event.BlockEnd:
		if ev.Signature != "" {
			e.warn("thinking signatures")
		}
		e.block(ev.Kind)
	case *event.Citations:
		e.warn("citations")
	case *event.ToolCall:
		e.toolCall(ev)
	case *event.ToolResult:
		e.toolResult(ev)
	case *event.AwaitingTools:
		e.warn("awaiting-tools pauses")
	case *event.Files:
		e.warn("generated file lists")
	case *event.FileChange:
		e.fileChange(ev)
	case *event.TodoList:
		e.todoList(ev)
	case *event.Error:
		e.errorEvent(ev)
	case *event.RunEnd:
		e.runEnd(ev)
	case *event.Notice:
		if ev.Kind == parse.PlanNoticeKind {
			e.newItem(wire.TypeItemCompleted, wire.ItemPlan, str("text", ev.Message))
		} else {
			e.warn("notices (" + ev.Kind + ")")
		}
	case *event.Unknown:
		if ev.Format == "codex" {
			e.unknownItem(ev.Raw)
			e.line(ev.Raw)
		} else {
			e.warn("unknown " + ev.Format + " events")
		}
	default:
		e.warn(lost.Kind(ev))
	}
	return e.err
}

func isError(ev event.Event) bool {
	_, ok := ev.(*event.Error)
	return ok
}

// cutShort writes the blocks an error or an abandon cut short (they get
// no BlockEnd) as the items they were so far: Codex has no way to say an
// item was cut, and the next block of the kind is a new item, not their
// continuation.
func (e *Encoder) cutShort() {
	for _, kind := range []event.BlockKind{event.Thinking, event.Text} {
		if e.blockOf(kind) != nil {
			e.block(kind)
		}
	}
}

// child records a subagent scope; a collab tool call it was started by
// names it as a receiver.
func (e *Encoder) child(s *event.SessionStart) {
	if s.Agent == "" {
		e.emptyChild = true
	}
	c := e.calls[s.ParentToolID]
	switch {
	case c == nil || c.kind != wire.ItemCollabToolCall:
	case len(c.collab.receivers) >= maxOpen:
		// (Before the search of the receivers named, each of them.)
		e.warn(fmt.Sprintf("more than %d subagents of one collab tool call (the later ones are not named)", maxOpen))
	case !slices.Contains(c.collab.receivers, s.Agent):
		c.collab.receivers = append(c.collab.receivers, s.Agent)
	}
}

func (e *Encoder) session(s *event.SessionStart) {
	if s.Model != "" || len(s.Tools) > 0 || s.Cwd != "" || s.Prompt != "" || s.Name != "" || s.Description != "" {
		e.warn("session metadata (model, tools, cwd, prompt)")
	}
	id := s.SessionID
	if id == "" {
		id = s.Agent
	}
	if e.thread {
		if id == "" || s.Agent == e.main {
			return
		}
		e.closeTurn() // a second thread in one stream: end the first one's turn
	}
	e.main, e.haveMain = s.Agent, true
	e.writeThread(id)
}

func (e *Encoder) writeThread(id string) {
	if id == "" {
		id = e.cfg.Agent
	}
	if id == "" {
		id = defaultThreadID
	}
	e.thread, e.threadID = true, id
	e.buf = append(e.buf[:0], `{"type":"thread.started","thread_id":`...)
	e.buf = jsontext.AppendString(e.buf, id)
	e.buf = append(e.buf, '}')
	e.writeBuf()
}

func (e *Encoder) openTurn() {
	if !e.thread {
		e.writeThread(e.main)
	}
	if e.turn {
		return
	}
	e.turn, e.turned, e.content = true, true, false
	e.line([]byte(`{"type":"turn.started"}`))
}

// turnEnd ends the open turn, unless the turn that ended is one model
// call: a Codex turn spans every model call made for one prompt, so the
// turns of formats that count model calls (a MessageID, a tool_use stop,
// a stop reason with tool calls still waiting for results) merge into one,
// which RunEnd or Close ends. A turn with neither message id nor stop
// reason is a Codex turn (codex, codex sessions): it ends where it ended,
// even with a call never answered (an interrupted item).
func (e *Encoder) turnEnd(ev *event.TurnEnd) {
	if ev.MessageID != "" {
		e.warn("message ids and models of turns")
	}
	if u := ev.Usage; u != nil {
		e.anyUsage, e.usageKnown = true, true
		e.pending.Add(u)
	}
	if ev.Error != "" {
		e.openTurn()
		e.failure = ev.Error
		e.closeTurn()
		return
	}
	if ev.MessageID != "" || ev.StopReason == "tool_use" || ev.StopReason != "" && e.openCalls() {
		// One model call of many (Claude, Anthropic): the Codex turn
		// goes on until the run ends.
		e.openTurn()
		return
	}
	e.openTurn()
	e.closeTurn()
}

func (e *Encoder) openCalls() bool {
	for _, c := range e.calls {
		if c.kind != "todo" {
			return true
		}
	}
	return false
}

// closeTurn writes the open turn's end: turn.failed after a fatal error,
// turn.completed with the thread's cumulative usage otherwise.
func (e *Encoder) closeTurn() {
	if !e.turn {
		return
	}
	e.completeTodo()
	e.turn = false
	if e.failure != "" {
		e.buf = append(e.buf[:0], `{"type":"turn.failed","error":{"message":`...)
		e.buf = jsontext.AppendString(e.buf, e.failure)
		e.buf = append(e.buf, `}}`...)
		e.failure, e.retried = "", false
		if e.pending != (event.Usage{}) {
			e.warn("the usage of a failed turn")
		}
		e.pending = event.Usage{}
		e.writeBuf()
		return
	}
	e.total.Add(&e.pending)
	e.pending = event.Usage{}
	u := e.total
	if !e.usageKnown {
		e.buf = append(e.buf[:0], `{"type":"turn.completed","usage":{}}`...)
		e.writeBuf()
		return
	}
	// The counts the source gave; one it did not is left out, as Codex
	// before 0.16x leaves out those it does not count (the input and
	// output counts too, rather than a made-up 0).
	e.buf = append(e.buf[:0], `{"type":"turn.completed","usage":{`...)
	e.buf = e.count(e.buf, `,"input_tokens":`, u.InputTokens, u.Has&event.HasInput)
	e.buf = e.count(e.buf, `,"cached_input_tokens":`, u.CacheReadTokens, u.Has&event.HasCacheRead)
	e.buf = e.count(e.buf, `,"cache_write_input_tokens":`, u.CacheWriteTokens, u.Has&event.HasCacheWrite)
	e.buf = e.count(e.buf, `,"output_tokens":`, u.OutputTokens, u.Has&event.HasOutput)
	e.buf = e.count(e.buf, `,"reasoning_output_tokens":`, u.ReasoningTokens, u.Has&event.HasReasoning)
	e.buf = append(e.buf, `}}`...)
	e.writeBuf()
}

// count appends key and n when has is set; key starts with a comma,
// left out when b ends an object's opening brace.
func (e *Encoder) count(b []byte, key string, n int64, has event.Counts) []byte {
	if has == 0 {
		return b
	}
	if b[len(b)-1] == '{' {
		key = key[1:]
	}
	return strconv.AppendInt(append(b, key...), n, 10)
}

func (e *Encoder) runEnd(ev *event.RunEnd) {
	if ev.CostUSD != nil || ev.DurationMS != 0 || ev.Result != "" || ev.Turns != 0 || ev.StopReason != "" {
		e.warn("run summaries (cost, duration, turns, result)")
	}
	if !e.anyUsage && ev.Usage != nil {
		// The run's total is all the usage there is: give it to the
		// open turn.
		e.pending = *ev.Usage
		e.usageKnown = true
	}
	if ev.IsError && e.failure == "" {
		e.failure = strings.Join(ev.Errors, "; ")
		if e.failure == "" {
			e.failure = "run failed"
		}
	}
	if !e.turn && (ev.IsError || !e.content) {
		if !ev.IsError {
			return
		}
		e.openTurn()
	}
	e.closeTurn()
}

func (e *Encoder) errorEvent(ev *event.Error) {
	if ev.Type == parse.ErrorItemType {
		e.openTurn()
		e.newItem(wire.TypeItemCompleted, wire.ItemError, str("message", ev.Message))
		return
	}
	if ev.Type == turnFailedErrorType {
		// A failed turn flattened into an error event (jsonenv): the
		// turn's end.
		e.openTurn()
		e.failure = ev.Message
		e.closeTurn()
		return
	}
	if ev.Fatal {
		e.failure = ev.Message
	}
	e.openTurn()
	e.buf = append(e.buf[:0], `{"type":"error","message":`...)
	e.buf = jsontext.AppendString(e.buf, ev.Message)
	e.buf = append(e.buf, '}')
	e.writeBuf()
}

// textBlock is the text of an open text or thinking block: the text of
// its first delta as it came, not copied (a block of Codex's own is one
// delta), then a buffer once a second delta comes.
type textBlock struct {
	one string // the text while it is one delta's; buf is empty then
	buf []byte
}

func (t *textBlock) len() int { return len(t.one) + len(t.buf) }

func (t *textBlock) add(s string) {
	if t.one == "" && len(t.buf) == 0 {
		t.one = s
		return
	}
	if t.one != "" {
		t.buf = append(t.buf, t.one...)
		t.one = ""
	}
	t.buf = append(t.buf, s...)
}

func (t *textBlock) text() string {
	if len(t.buf) == 0 {
		return t.one
	}
	return string(t.buf)
}

// openBlock returns the open block of kind, opening it (with the buffer
// of an ended block, reused) if it is not.
func (e *Encoder) openBlock(kind event.BlockKind) *textBlock {
	b := e.blockOf(kind)
	if b == nil {
		if n := len(e.free); n > 0 {
			b, e.free = e.free[n-1], e.free[:n-1]
		} else {
			b = new(textBlock)
		}
		e.blocks = append(e.blocks, kindBlock{kind, b})
	}
	return b
}

// kindBlock is an open block and its kind.
type kindBlock struct {
	kind event.BlockKind
	b    *textBlock
}

// blockOf returns the open block of kind, or nil. A turn has a block
// or two open at once: they are looked at one by one.
func (e *Encoder) blockOf(kind event.BlockKind) *textBlock {
	for _, k := range e.blocks {
		if k.kind == kind {
			return k.b
		}
	}
	return nil
}

// appendText adds s to a block's text, up to Config.MaxBlockBytes; what
// is beyond is dropped (never splitting a UTF-8 sequence) and reported.
func (e *Encoder) appendText(b *textBlock, s string) {
	room := e.cfg.MaxBlockBytes - b.len()
	if len(s) > room {
		n := max(room, 0)
		for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
		e.warn("text beyond MaxEventBytes in one block")
	}
	b.add(s)
}

// block writes a text or thinking block as a completed item.
func (e *Encoder) block(kind event.BlockKind) {
	b := e.blockOf(kind)
	e.blocks = slices.DeleteFunc(e.blocks, func(k kindBlock) bool { return k.kind == kind })
	text := ""
	if b != nil {
		text = b.text()
		b.one, b.buf = "", b.buf[:0]
		e.free = append(e.free, b)
	}
	typ := wire.ItemAgentMessage
	if kind == event.Thinking {
		typ = wire.ItemReasoning
	} else if kind != event.Text {
		e.warn("blocks of kind " + string(kind))
	}
	e.openTurn()
	e.newItem(wire.TypeItemCompleted, typ, str("text", text))
}

func (e *Encoder) fileChange(ev *event.FileChange) {
	e.openTurn()
	b := []byte{'['}
	for i, c := range ev.Changes {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = jsontext.AppendString(b, c.Path)
		b = append(b, `,"kind":`...)
		b = jsontext.AppendString(b, c.Kind)
		b = append(b, '}')
	}
	b = append(b, ']')
	status := ev.Status
	if status == "" {
		status = wire.StatusCompleted
	}
	// A change still in progress is the item's start, as Codex writes it;
	// the later FileChange of the same ID completes that item.
	if status == wire.StatusInProgress {
		id := e.newID()
		if ev.ID != "" {
			e.fileIDs[ev.ID] = id
			if old, out := e.fileKeys.Add(ev.ID); out {
				e.warn(openLoss)
				delete(e.fileIDs, old)
			}
		}
		e.item(wire.TypeItemStarted, id, wire.ItemFileChange, raw("changes", b), str("status", status))
		return
	}
	id, ok := e.fileIDs[ev.ID]
	if ok {
		delete(e.fileIDs, ev.ID)
		e.fileKeys.Remove(ev.ID)
	} else {
		id = e.newID()
	}
	e.item(wire.TypeItemCompleted, id, wire.ItemFileChange, raw("changes", b), str("status", status))
}

func (e *Encoder) todoList(ev *event.TodoList) {
	items := make([]wire.TodoItem, 0, len(ev.Items))
	for _, t := range ev.Items {
		if t.Status == "in_progress" {
			e.warn("the in_progress state of todo items")
		}
		items = append(items, wire.TodoItem{Text: t.Text, Completed: t.Status == "completed"})
	}
	e.writeTodo(ev.ID, items)
}

// writeTodo writes a todo list: item.started for a new one, item.updated
// for the next states of the turn's list. Codex keeps one list per turn
// and completes it when the turn ends.
func (e *Encoder) writeTodo(key string, items []wire.TodoItem) {
	e.openTurn()
	if e.todo != nil && (key == "" || key == e.todo.key) {
		e.todo.items = items
		e.item(wire.TypeItemUpdated, e.todo.id, wire.ItemTodoList, raw("items", todoJSON(items)))
		return
	}
	e.completeTodo()
	e.todo = &todoItem{id: e.newID(), key: key, items: items}
	e.item(wire.TypeItemStarted, e.todo.id, wire.ItemTodoList, raw("items", todoJSON(items)))
}

func (e *Encoder) completeTodo() {
	if e.todo == nil {
		return
	}
	e.item(wire.TypeItemCompleted, e.todo.id, wire.ItemTodoList, raw("items", todoJSON(e.todo.items)))
	e.todo = nil
}

func todoJSON(items []wire.TodoItem) []byte {
	b := []byte{'['}
	for i, t := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"text":`...)
		b = jsontext.AppendString(b, t.Text)
		b = append(b, `,"completed":`...)
		b = strconv.AppendBool(b, t.Completed)
		b = append(b, '}')
	}
	return append(b, ']')
}

// unknownItem keeps item ids in step with an item of unknown type that is
// written back verbatim: the next item id follows its own.
func (e *Encoder) unknownItem(line []byte) {
	var l struct {
		Item struct {
			ID string `json:"id"`
		} `json:"item"`
	}
	if json.Unmarshal(line, &l) != nil {
		return
	}
	if n, ok := itemNumber(l.Item.ID); ok && n >= e.nextID {
		e.nextID = n + 1
	}
}

// itemNumber returns N of an id item_N, as strconv.Atoi reads N. Ids of
// other shapes are turned down before Atoi, whose error allocates.
func itemNumber(id string) (int, bool) {
	s, ok := strings.CutPrefix(id, "item_")
	if !ok {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && c != '+' && c != '-' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// callID returns the item id of a tool call: the call's own id, which
// the decoder reads back as the call's (a Claude toolu_ id survives a
// trip through Codex), or a new one when it has none or it is taken. An
// item_N id moves the numbering of later items past it.
func (e *Encoder) callID(id string) string {
	if _, taken := e.calls[id]; id == "" || taken {
		return e.newID()
	}
	if n, ok := itemNumber(id); ok {
		if n < e.nextID {
			return e.newID() // perhaps an id this encoder made
		}
		e.nextID = n + 1
	}
	return id
}

func (e *Encoder) newID() string {
	id := "item_" + strconv.Itoa(e.nextID)
	e.nextID++
	return id
}

// field is one member of an item after id and type: its value as JSON,
// or a string item writes as JSON (with no buffer of its own: the text of
// a block is escaped once, into the line).
type field struct {
	key   string
	value []byte
	text  string
	isStr bool
}

func str(key, v string) field { return field{key: key, text: v, isStr: true} }

func raw(key string, v []byte) field { return field{key: key, value: v} }

// item writes one item event.
func (e *Encoder) item(phase, id, typ string, fields ...field) {
	e.writeItem(phase, id, false, typ, fields)
}

// newItem writes an item event of an item of its own: the next new id
// (see newID), written without making it a string.
func (e *Encoder) newItem(phase, typ string, fields ...field) {
	e.writeItem(phase, "", true, typ, fields)
}

func (e *Encoder) writeItem(phase, id string, newID bool, typ string, fields []field) {
	e.content = true
	e.buf = append(e.buf[:0], `{"type":`...)
	e.buf = appendName(e.buf, phase)
	e.buf = append(e.buf, `,"item":{"id":`...)
	if newID {
		e.buf = strconv.AppendInt(append(e.buf, `"item_`...), int64(e.nextID), 10)
		e.buf = append(e.buf, '"')
		e.nextID++
	} else {
		e.buf = jsontext.AppendString(e.buf, id)
	}
	e.buf = append(e.buf, `,"type":`...)
	e.buf = appendName(e.buf, typ)
	for _, f := range fields {
		e.buf = append(e.buf, ',')
		e.buf = appendName(e.buf, f.key)
		e.buf = append(e.buf, ':')
		if f.isStr {
			e.buf = jsontext.AppendString(e.buf, f.text)
		} else {
			e.buf = append(e.buf, f.value...)
		}
	}
	e.buf = append(e.buf, `}}`...)
	e.writeBuf()
}

// appendName appends s, a name of the format's own (an event or item
// type, a member's key; lower-case letters, digits, '_' and '.'), as a
// JSON string: it has nothing to escape and is copied as it is.
func appendName(b []byte, s string) []byte {
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// writeBuf writes e.buf as one line.
func (e *Encoder) writeBuf() {
	if e.err != nil {
		return
	}
	e.buf = append(e.buf, '\n')
	_, e.err = e.w.Write(e.buf)
}

// line writes b as one line.
func (e *Encoder) line(b []byte) {
	e.buf = append(e.buf[:0], b...)
	e.writeBuf()
}

// Close ends the stream: it completes the open todo list and turn. Text
// or thinking blocks left open (the input was cut off) are written as
// they are and reported as truncation, and the turn is left open, as
// Codex leaves it when it is killed. Tool calls still waiting for their
// result keep their item.started alone and the turn is completed: a call
// without a result is not a cut-off stream (an agent that waits for the
// client to run its tools ends that way). A RunEnd closes the turn
// whatever is open, and so does Close after a fatal Error: turn.failed.
// Cut ends a stream whose input was cut off (event.Cutter): what arrived
// of open blocks is written, and the turn gets no turn.completed.
func (e *Encoder) Cut() error {
	if e.err != nil {
		return e.err
	}
	for _, kind := range []event.BlockKind{event.Thinking, event.Text} {
		if e.blockOf(kind) != nil {
			e.block(kind)
		}
	}
	switch {
	case e.failure != "" && !e.retried:
		// The run failed (the envelope's fatal error line): the failure,
		// not the cut, ends the turn, as Close has it. A model call
		// begun after it (a retry) was cut: no end is written.
		e.closeTurn()
	case !e.turn && e.thread && !e.turned:
		// Cut before the run's first turn (right after its start): a
		// thread.started alone reads as a run that ended with nothing
		// to say, which is what Close writes for one. Codex begins a
		// turn after thread.started, and a turn with no end is how its
		// reader tells a cut.
		e.openTurn()
	}
	if e.err != nil {
		return e.err
	}
	return fmt.Errorf("codex: %w: the input was cut off, no turn.completed written", event.ErrTruncated)
}

func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	var open []string
	for _, kind := range []event.BlockKind{event.Thinking, event.Text} {
		if e.blockOf(kind) != nil {
			open = append(open, string(kind))
			e.block(kind)
		}
	}
	if e.err != nil {
		return e.err
	}
	if len(open) > 0 && e.failure != "" {
		// The run failed inside the block (the envelope's fatal error
		// line, no meta_final): the failure, not the cut, ends the turn,
		// so that the SDK's run() fails as the run did.
		e.closeTurn()
		return e.err
	}
	if len(open) > 0 {
		return fmt.Errorf("codex: %w: %s block(s) left open, no turn.completed written", event.ErrTruncated, strings.Join(open, " and "))
	}
	e.closeTurn()
	return e.err
}

// compact returns v as compact JSON text for one line: v without
// insignificant space when it is valid JSON, v as a JSON string otherwise.
// jsontext.Compacted checks and compacts it in one pass where it can
// (json.Compact's scanner costs some 5 times as much per byte); what is
// not valid JSON goes to compactSlow, which quotes it.
func (e *Encoder) compact(v []byte) []byte {
	if len(v) == 0 {
		return []byte("null")
	}
	if c, ok := jsontext.Compacted(&e.in.r, v); ok {
		return c
	}
	return compactSlow(v)
}

// compactSlow is compact with encoding/json, for any input.
func compactSlow(v []byte) []byte {
	if len(v) == 0 {
		return []byte("null")
	}
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return jsontext.AppendString(nil, string(v))
	}
	return buf.Bytes()
}
