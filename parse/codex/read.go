package codex

import (
	"bytes"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// unmarshalLine decodes a line as json.Unmarshal does, in one pass when
// jsontext.Reader can (the item decoded with it), else with
// encoding/json, which gives the errors.
func (d *Decoder) unmarshalLine(line []byte, l *Line) error {
	return jsontext.Decode(&d.jr, line, l, d.readLineFields)
}

func (d *Decoder) readLineFields(r *jsontext.Reader, l *Line) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			r.StringField(&l.Type)
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
			readUsage(r, l.Usage)
		case "error":
			if !r.Null() {
				r.Fail() // rare: encoding/json decodes it
			}
			l.Error = nil
		case "item":
			r.Peek()
			off, depth := r.Offset(), r.Depth()
			l.item, l.itemOK = Item{}, false
			if r.Peek() == '{' && readItem(r, &l.item) {
				l.Item, l.itemOK = r.Since(off), true
				continue
			}
			r.Rewind(off, depth)
			l.item = Item{}
			l.Item = r.Skip()
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

// readItem decodes the fields of the common items (messages, reasoning,
// commands); any other field fails, and the item is decoded by
// encoding/json. Raw fields are copied: an item is kept past its line.
func readItem(r *jsontext.Reader, it *Item) bool {
	r.Object()
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "id":
			r.StringField(&it.ID)
		case "type":
			r.StringField(&it.Type)
		case "item_type":
			r.StringField(&it.ItemType)
		case "text":
			r.StringField(&it.Text)
		case "aggregated_output":
			r.StringField(&it.AggregatedOutput)
		case "status":
			r.StringField(&it.Status)
		case "server":
			r.StringField(&it.Server)
		case "tool":
			r.StringField(&it.Tool)
		case "message":
			r.StringField(&it.Message)
		case "sender_thread_id":
			r.StringField(&it.SenderThreadID)
		case "command":
			it.Command = bytes.Clone(r.Skip())
		case "exit_code":
			if r.Null() {
				it.ExitCode = nil
				continue
			}
			n := r.Int()
			if int64(int(n)) != n {
				r.Fail()
			}
			if it.ExitCode == nil {
				it.ExitCode = new(int)
			}
			*it.ExitCode = int(n)
		default:
			r.Fail()
		}
	}
	return !r.Failed()
}

func readUsage(r *jsontext.Reader, u *Usage) {
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

// parsedItem returns the item unmarshalLine decoded, or nil.
func (l *Line) parsedItem() *Item {
	if !l.itemOK {
		return nil
	}
	return &l.item
}
