package codex

import (
	"bytes"
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// unmarshalLine decodes a line as json.Unmarshal does, in one pass when
// jsontext.Reader can (the item decoded with it), else with
// encoding/json, which gives the errors.
func (d *Decoder) unmarshalLine(line []byte, l *wireLine) error {
	return jsontext.Decode(&d.jr, line, l, d.readLineFields)
}

func (d *Decoder) readLineFields(r *jsontext.Reader, l *wireLine) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			vocabField(r, &l.Type)
		case "thread_id":
			r.StringField(&l.ThreadID)
		case "session_id":
			r.StringField(&l.SessionID)
		case "message":
			if r.Null() {
				l.Message = nil
				continue
			}
			s := r.String()
			l.Message = &s
		case "usage":
			if r.Null() {
				l.Usage = nil
				continue
			}
			if l.Usage == nil {
				l.Usage = new(Usage)
			}
			l.Usage.DecodeFrom(r)
		case "error":
			readErrorMessage(r, &l.Error)
		case "item":
			r.Peek()
			off, depth := r.Offset(), r.Depth()
			l.item, l.itemOK, l.itemIDs, l.itemFirstID = wireItem{}, false, 0, ""
			if r.Peek() == '{' {
				readItem(r, l)
				if !r.Failed() {
					l.Item, l.itemOK = r.Since(off), true
					continue
				}
			}
			r.Rewind(off, depth)
			l.item, l.itemIDs, l.itemFirstID = wireItem{}, 0, ""
			l.Item = r.Skip()
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

// readItem decodes an item object. Raw fields are copied: an item is kept
// past its line. It records the first id member in l (web_search flattens
// a second one after the item's own).
func readItem(r *jsontext.Reader, l *wireLine) {
	it := &l.item
	r.Object()
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "id":
			r.StringField(&it.ID)
			if l.itemIDs++; l.itemIDs == 1 {
				l.itemFirstID = it.ID
			}
		case "type":
			vocabField(r, &it.Type)
		case "item_type":
			vocabField(r, &it.ItemType)
		case "text":
			r.StringField(&it.Text)
		case "aggregated_output":
			r.StringField(&it.AggregatedOutput)
		case "status":
			vocabField(r, &it.Status)
		case "server":
			r.StringField(&it.Server)
		case "tool":
			vocabField(r, &it.Tool)
		case "message":
			r.StringField(&it.Message)
		case "sender_thread_id":
			r.StringField(&it.SenderThreadID)
		case "command":
			it.Command = bytes.Clone(r.Skip())
		case "arguments":
			it.Arguments = bytes.Clone(r.Skip())
		case "query":
			it.Query = bytes.Clone(r.Skip())
		case "action":
			it.Action = bytes.Clone(r.Skip())
		case "agents_states":
			it.AgentsStates = bytes.Clone(r.Skip())
		case "prompt":
			r.OptStringField(&it.Prompt)
		case "exit_code":
			if r.Null() {
				it.ExitCode = nil
				continue
			}
			n := r.Int()
			if int64(int(n)) != n {
				r.Fail()
			}
			v := int(n)
			it.ExitCode = &v
		case "changes":
			readArray(r, &it.Changes, readChange)
		case "items":
			readArray(r, &it.Items, readTodo)
		case "receiver_thread_ids":
			readArray(r, &it.ReceiverThreadIDs, readString)
		case "result":
			readResult(r, &it.Result)
		case "error":
			readErrorMessage(r, &it.Error)
		default:
			r.Skip()
		}
	}
}

// vocabField is StringField for the values of a closed vocabulary: a
// known one takes no allocation.
func vocabField(r *jsontext.Reader, s *string) {
	if r.Null() {
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
		*s = string(b)
	}
}

// The slices and pointers below take one value: a second value of a key
// already set goes to encoding/json (which merges into it), as does null
// inside an array.

// readArray reads an array of values read by elem into s.
func readArray[T any](r *jsontext.Reader, s *[]T, elem func(*jsontext.Reader, *T)) {
	if *s != nil {
		r.Fail()
	} else if !r.Null() && r.Array() {
		*s = []T{}
		for r.More() {
			var v T
			elem(r, &v)
			*s = append(*s, v)
		}
	}
}

func readString(r *jsontext.Reader, s *string) { *s = r.String() }

// readObject reads an object into v, whose member method reads the value
// of a key it knows and reports false for one it does not (skipped).
func readObject[T interface {
	member(r *jsontext.Reader, key []byte) bool
}](r *jsontext.Reader, v T,
) {
	r.Object()
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		if !v.member(r, key) {
			r.Skip()
		}
	}
}

func readChange(r *jsontext.Reader, c *fileUpdateChange) { readObject(r, c) }

func (c *fileUpdateChange) member(r *jsontext.Reader, key []byte) bool {
	switch string(key) {
	case "path":
		r.StringField(&c.Path)
	case "kind":
		r.StringField(&c.Kind)
	default:
		return false
	}
	return true
}

func readTodo(r *jsontext.Reader, t *TodoItem) { readObject(r, t) }

func (t *TodoItem) member(r *jsontext.Reader, key []byte) bool {
	switch string(key) {
	case "text":
		r.StringField(&t.Text)
	case "completed":
		if !r.Null() { // null leaves it
			t.Completed = r.Bool()
		}
	default:
		return false
	}
	return true
}

func readResult(r *jsontext.Reader, res **mcpResult) {
	if *res != nil {
		r.Fail()
		return
	}
	if r.Null() || !r.Object() {
		return
	}
	m := new(mcpResult)
	*res = m
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "content":
			readArray(r, &m.Content, func(r *jsontext.Reader, c *json.RawMessage) { *c = bytes.Clone(r.Skip()) })
		case "structured_content":
			m.StructuredContent = bytes.Clone(r.Skip())
		default:
			r.Skip()
		}
	}
}

func readErrorMessage(r *jsontext.Reader, e **errorMessage) {
	if *e != nil {
		r.Fail()
		return
	}
	if r.Null() || !r.Object() {
		return
	}
	m := new(errorMessage)
	*e = m
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		if string(key) == "message" {
			r.StringField(&m.Message)
		} else {
			r.Skip()
		}
	}
}

// DecodeFrom reads a usage object in one pass, as json.Unmarshal would
// into u (codex-session's token counts are the same object).
func (u *Usage) DecodeFrom(r *jsontext.Reader) {
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		var f *int64
		switch string(key) {
		case "input_tokens":
			f = &u.InputTokens
		case "cached_input_tokens":
			f = &u.CachedInputTokens
		case "cache_write_input_tokens":
			f = &u.CacheWriteInputTokens
		case "output_tokens":
			f = &u.OutputTokens
		case "reasoning_output_tokens":
			f = &u.ReasoningOutputTokens
		default:
			r.Skip()
			continue
		}
		if !r.Null() {
			*f = r.Int()
		}
	}
}
