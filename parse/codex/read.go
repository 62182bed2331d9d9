package codex

import (
	"encoding/json"
	"slices"

	"github.com/agentstream/agentstream/internal/codexwire"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// unmarshalLine decodes a line as json.Unmarshal does, in one pass when
// jsontext.Reader can (the item decoded with it), else with
// encoding/json, which gives the errors. The line went through
// badutf8.Fix: it is valid UTF-8, whose strings the Reader need not check
// again.
func (d *Decoder) unmarshalLine(line []byte, l *wireLine) error {
	return jsontext.DecodeValid(&d.jr, line, l, d.readLineFields)
}

// lineBufs is what the one-pass reader decodes a line's arrays and
// objects into, reused from line to line instead of allocated for each:
// an item's state is read only while its line is decoded, but for what
// wireItem.keep copies.
type lineBufs struct {
	changes   []fileUpdateChange
	todos     []TodoItem
	ids       []string
	content   []json.RawMessage
	result    mcpResult
	usage     Usage
	message   string       // the line's message
	lineError errorMessage // the line's error
	itemError errorMessage // its item's error
	exitCode  int
	messages  []agentMessage // agentMessages' scratch
	remaining [][]byte       // agentMessages' scratch
}

func (d *Decoder) readLineFields(r *jsontext.Reader, l *wireLine) bool {
	if !r.Object() {
		return false
	}
	// Codex writes the type first and the member its type carries
	// second: asked for in that order, with the type's value compared
	// with the vocabulary's, they take no key scan, no string read and
	// no switch. Whatever follows, or comes in another order, the loop
	// reads, with the same code for each key.
	if r.KeyIs(`"type":`) {
		switch c := r.StringByte(); {
		case c == 'i' && r.StringIs(`"item.completed"`):
			l.Type = TypeItemCompleted
			if r.KeyIs(`"item":`) {
				d.lineItem(r, l)
			}
		case c == 'i' && r.StringIs(`"item.started"`):
			l.Type = TypeItemStarted
			if r.KeyIs(`"item":`) {
				d.lineItem(r, l)
			}
		case c == 't' && r.StringIs(`"turn.started"`):
			l.Type = typeTurnStarted
		case c == 't' && r.StringIs(`"thread.started"`):
			l.Type = typeThreadStarted
			if r.KeyIs(`"thread_id":`) {
				d.names.field(r, &l.ThreadID)
			}
		case c == 't' && r.StringIs(`"turn.completed"`):
			l.Type = typeTurnCompleted
			if r.KeyIs(`"usage":`) {
				d.lineUsage(r, l)
			}
		case c == 'e' && r.StringIs(`"error"`):
			l.Type = TypeError
			if r.KeyIs(`"message":`) {
				d.lineMessage(r, l)
			}
		case c == 't' && r.StringIs(`"turn.failed"`):
			l.Type = TypeTurnFailed
			if r.KeyIs(`"error":`) {
				d.readErrorMessage(r, &l.Error, &d.bufs.lineError)
			}
		default:
			d.names.vocab(r, &l.Type)
		}
	}
	if r.ObjectEnd() {
		return !r.Failed()
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			d.names.vocab(r, &l.Type)
		case "thread_id":
			d.names.field(r, &l.ThreadID)
		case "session_id":
			d.names.field(r, &l.SessionID)
		case "message":
			d.lineMessage(r, l)
		case "usage":
			d.lineUsage(r, l)
		case "error":
			d.readErrorMessage(r, &l.Error, &d.bufs.lineError)
		case "item":
			d.lineItem(r, l)
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

// lineMessage reads the line's message.
func (d *Decoder) lineMessage(r *jsontext.Reader, l *wireLine) {
	if r.Null() {
		l.Message = nil
		return
	}
	d.bufs.message = d.al.string(r.Str())
	l.Message = &d.bufs.message
}

// lineUsage reads the line's usage.
func (d *Decoder) lineUsage(r *jsontext.Reader, l *wireLine) {
	if r.Null() {
		l.Usage = nil
		return
	}
	if l.Usage == nil {
		d.bufs.usage = Usage{}
		l.Usage = &d.bufs.usage
	}
	codexwire.ReadUsage(r, (*codexwire.Usage)(l.Usage))
}

// lineItem reads the line's item into d.lit, or, when the one-pass
// reader does not take it, only its text (item then decodes it with
// encoding/json).
func (d *Decoder) lineItem(r *jsontext.Reader, l *wireLine) {
	r.Peek()
	off, depth := r.Offset(), r.Depth()
	d.lit, l.itemOK, l.itemIDs, l.itemFirstID = wireItem{}, false, 0, ""
	if r.Peek() == '{' {
		d.readItem(r, l)
		if !r.Failed() {
			l.Item, l.itemOK = r.Since(off), true
			return
		}
	}
	r.Rewind(off, depth)
	l.itemIDs, l.itemFirstID = 0, ""
	l.Item = r.Skip()
}

// keep readies the state of an item that stays open past its line. What
// abandon reads later (strings, changes) is made the item's own; what is
// read only while the line is decoded (raw JSON pointing into the line,
// arrays and objects in lineBufs) is dropped, so that nothing kept points
// into memory the next line reuses.
func (it *wireItem) keep() {
	it.Changes = slices.Clone(it.Changes)
	it.Command, it.Arguments, it.Query, it.Action, it.AgentsStates = nil, nil, nil, nil, nil
	it.ExitCode, it.Result, it.Items, it.ReceiverThreadIDs, it.Error = nil, nil, nil, nil, nil
}

// readItem decodes an item object into d.lit. Raw fields point into the
// line, and arrays into d.bufs: wireItem.keep copies what is kept past the
// line. It records the first id member in l (web_search flattens a second
// one after the item's own).
func (d *Decoder) readItem(r *jsontext.Reader, l *wireLine) {
	it, b, n := &d.lit, &d.bufs, &d.names
	r.Object()
	// Codex writes id, type and then the type's own members in an order
	// of its own: asked for in that order, as readLineFields does.
	if r.KeyIs(`"id":`) {
		d.itemID(r, l)
		if r.KeyIs(`"type":`) {
			switch c := r.StringByte(); {
			case c == 'a' && r.StringIs(`"agent_message"`):
				it.Type = ItemAgentMessage
				if r.KeyIs(`"text":`) {
					d.text(r, &it.Text)
				}
			case c == 'c' && r.StringIs(`"command_execution"`):
				it.Type = ItemCommandExecution
				if r.KeyIs(`"command":`) {
					it.Command = r.Skip()
					if r.KeyIs(`"aggregated_output":`) {
						d.text(r, &it.AggregatedOutput)
						if r.KeyIs(`"exit_code":`) {
							d.exitCode(r)
							if r.KeyIs(`"status":`) {
								d.status(r)
							}
						}
					}
				}
			case c == 'r' && r.StringIs(`"reasoning"`):
				it.Type = ItemReasoning
				if r.KeyIs(`"text":`) {
					d.text(r, &it.Text)
				}
			default:
				n.vocab(r, &it.Type)
			}
		}
	}
	if r.ObjectEnd() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "id":
			d.itemID(r, l)
		case "type":
			n.vocab(r, &it.Type)
		case "item_type":
			n.vocab(r, &it.ItemType)
		case "text":
			d.text(r, &it.Text)
		case "aggregated_output":
			d.text(r, &it.AggregatedOutput)
		case "status":
			n.vocab(r, &it.Status)
		case "server":
			n.field(r, &it.Server)
		case "tool":
			n.vocab(r, &it.Tool)
		case "message":
			d.text(r, &it.Message)
		case "sender_thread_id":
			n.field(r, &it.SenderThreadID)
		case "command":
			it.Command = r.Skip()
		case "arguments":
			it.Arguments = r.Skip()
		case "query":
			it.Query = r.Skip()
		case "action":
			it.Action = r.Skip()
		case "agents_states":
			it.AgentsStates = r.Skip()
		case "prompt":
			r.OptStringField(&it.Prompt)
		case "exit_code":
			d.exitCode(r)
		case "changes":
			readArray(r, &it.Changes, &b.changes, n.readChange)
		case "items":
			readArray(r, &it.Items, &b.todos, n.readTodo)
		case "receiver_thread_ids":
			readArray(r, &it.ReceiverThreadIDs, &b.ids, n.readString)
		case "result":
			readResult(r, &it.Result, b)
		case "error":
			d.readErrorMessage(r, &it.Error, &d.bufs.itemError)
		default:
			r.Skip()
		}
	}
}

// status reads the item's status, comparing it first with the ones
// Codex writes.
func (d *Decoder) status(r *jsontext.Reader) {
	switch c := r.StringByte(); {
	case c == 'c' && r.StringIs(`"completed"`):
		d.lit.Status = StatusCompleted
	case c == 'i' && r.StringIs(`"in_progress"`):
		d.lit.Status = StatusInProgress
	case c == 'f' && r.StringIs(`"failed"`):
		d.lit.Status = StatusFailed
	default:
		d.names.vocab(r, &d.lit.Status)
	}
}

// itemID reads an id member of the item, counting them in l.
func (d *Decoder) itemID(r *jsontext.Reader, l *wireLine) {
	d.names.field(r, &d.lit.ID)
	if l.itemIDs++; l.itemIDs == 1 {
		l.itemFirstID = d.lit.ID
	}
}

// exitCode reads the item's exit_code into lineBufs.
func (d *Decoder) exitCode(r *jsontext.Reader) {
	if r.Null() {
		d.lit.ExitCode = nil
		return
	}
	v := r.Int()
	if int64(int(v)) != v {
		r.Fail()
	}
	d.bufs.exitCode = int(v)
	d.lit.ExitCode = &d.bufs.exitCode
}

// vocab is StringField for the values of a closed vocabulary: a known
// one takes no allocation, another is interned.
func (n *names) vocab(r *jsontext.Reader, s *string) {
	if r.Peek() == 'n' {
		r.Null()
		return
	}
	b := r.Str()
	switch string(b) { // constant cases: no allocation, no loop
	case TypeItemCompleted:
		*s = TypeItemCompleted
	case TypeItemStarted:
		*s = TypeItemStarted
	case TypeItemUpdated:
		*s = TypeItemUpdated
	case typeTurnStarted:
		*s = typeTurnStarted
	case typeTurnCompleted:
		*s = typeTurnCompleted
	case typeThreadStarted:
		*s = typeThreadStarted
	case ItemAgentMessage:
		*s = ItemAgentMessage
	case ItemReasoning:
		*s = ItemReasoning
	case ItemCommandExecution:
		*s = ItemCommandExecution
	case ItemFileChange:
		*s = ItemFileChange
	case ItemMCPToolCall:
		*s = ItemMCPToolCall
	case ItemWebSearch:
		*s = ItemWebSearch
	case ItemTodoList:
		*s = ItemTodoList
	case ItemCollabToolCall:
		*s = ItemCollabToolCall
	case StatusInProgress:
		*s = StatusInProgress
	case StatusCompleted:
		*s = StatusCompleted
	case StatusFailed:
		*s = StatusFailed
	default:
		*s = n.intern(b)
	}
}

// names interns the short strings a stream repeats: item ids (on each
// line of an item, and again each turn), thread ids, tool and server
// names, paths. A Go string is immutable, so events may share one. It is
// a cache of 256 sets of 2, the one used last first; a string not in it
// is copied into a slab (see alloc), which the cache keeps alive for at
// most 512 strings. The zero value is ready to use.
type names struct {
	slot [512]string
	text slab // what the strings are copied into
}

// maxName is the longest string names interns: longer ones are text,
// which rarely repeats.
const maxName = 64

// intern returns b as a string, the one returned before for the same
// bytes if it is still in its slot.
func (n *names) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > maxName {
		return string(b)
	}
	h := uint32(2166136261) // FNV-1a
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	set := n.slot[(h*0x9E3779B1)>>24*2:][:2] // the top 8 bits, mixed (Fibonacci hashing)
	// string(b) == s compares without allocating (a switch would not).
	if string(b) == set[0] {
		return set[0]
	}
	if string(b) == set[1] {
		return set[1]
	}
	set[1], set[0] = set[0], n.text.string(b)
	return set[0]
}

// text is StringField with the string in the decoder's slab (see alloc).
func (d *Decoder) text(r *jsontext.Reader, s *string) {
	if r.Peek() == 'n' {
		r.Null()
		return
	}
	*s = d.al.string(r.Str())
}

// field is StringField with the string interned.
func (n *names) field(r *jsontext.Reader, s *string) {
	if r.Peek() == 'n' { // saves calling Null for each string
		r.Null()
		return
	}
	*s = n.intern(r.Str())
}

// The slices and pointers below take one value: a second value of a key
// already set goes to encoding/json (which merges into it), as does null
// inside an array.

// readArray reads an array of values read by elem into s, in the array
// of buf, which it keeps for the next line (see lineBufs).
func readArray[T any](r *jsontext.Reader, s, buf *[]T, elem func(*jsontext.Reader, *T)) {
	if *s != nil {
		r.Fail()
		return
	}
	if r.Null() || !r.Array() {
		return
	}
	a := (*buf)[:0]
	if a == nil {
		a = []T{} // what encoding/json sets for []: not nil (no allocation)
	}
	for r.More() {
		var zero T
		a = append(a, zero)
		elem(r, &a[len(a)-1]) // not a local: it would escape to the heap
	}
	*s, *buf = a, a
}

func (n *names) readString(r *jsontext.Reader, s *string) { *s = n.intern(r.Str()) }

func (n *names) readChange(r *jsontext.Reader, c *fileUpdateChange) {
	r.Object()
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "path":
			n.field(r, &c.Path)
		case "kind":
			n.field(r, &c.Kind)
		default:
			r.Skip()
		}
	}
}

// readTodo reads a todo item. Its text is interned: a todo_list's items
// come again on each of its updates.
func (n *names) readTodo(r *jsontext.Reader, t *TodoItem) {
	r.Object()
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "text":
			n.field(r, &t.Text)
		case "completed":
			if !r.Null() { // null leaves it
				t.Completed = r.Bool()
			}
		default:
			r.Skip()
		}
	}
}

func readResult(r *jsontext.Reader, res **mcpResult, b *lineBufs) {
	if *res != nil {
		r.Fail()
		return
	}
	if r.Null() || !r.Object() {
		return
	}
	m := &b.result
	*m = mcpResult{}
	*res = m
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "content":
			readArray(r, &m.Content, &b.content, func(r *jsontext.Reader, c *json.RawMessage) { *c = r.Skip() })
		case "structured_content":
			m.StructuredContent = r.Skip()
		default:
			r.Skip()
		}
	}
}

// readErrorMessage reads an error object into buf, pointed to by *e.
func (d *Decoder) readErrorMessage(r *jsontext.Reader, e **errorMessage, buf *errorMessage) {
	if *e != nil {
		r.Fail()
		return
	}
	if r.Null() || !r.Object() {
		return
	}
	m := buf
	*m = errorMessage{}
	*e = m
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		if string(key) == "message" {
			d.text(r, &m.Message)
		} else {
			r.Skip()
		}
	}
}
