package codex

import (
	"bytes"
	"encoding/json"
	"slices"

	wire "github.com/agentstream/agentstream/internal/wire/codex"
)

// unmarshalLine decodes a line into l as json.Unmarshal does, in one pass
// with the generated reader when it can, else with encoding/json, which
// gives the errors. The line went through badutf8.Fix: it is valid UTF-8,
// whose strings the Reader need not check again. The item's text and its
// raw members point into line. It sets d.compact: the reader read the
// line whole and met no white space outside its strings. (It is
// jsontext.DecodeValid written out: the generic function is not inlined,
// and calls the reader through a func value.)
func (d *Decoder) unmarshalLine(line []byte, l *wire.Line) error {
	resetLine(l)
	r := &d.jr
	r.ResetValid(line)
	if wire.ReadLine(r, l) && r.End() {
		d.compact = !r.Spaced()
		return nil
	}
	d.compact = false // unknown: encoding/json reads it
	*l = wire.Line{}
	return json.Unmarshal(line, l)
}

// resetLine zeroes l for the next line, but for its item's Item, most of
// a Line's size: the reader zeroes it when the line has an item, and it
// is read only then (ItemText.OK). (A failed one-pass read zeroes all of
// l before encoding/json decodes the line.)
func resetLine(l *wire.Line) {
	l.Type, l.ThreadID, l.SessionID, l.Usage, l.Error, l.Message = "", "", "", nil, nil, nil
	l.Item.Raw, l.Item.OK = nil, false
}

// keep readies the state of an item that stays open past its line. What
// abandon reads later (strings, changes) is made the item's own; what is
// read only while the line is decoded (raw JSON pointing into the line,
// and what finish alone reads) is dropped, so that nothing kept points
// into memory the next line reuses.
func keep(it *wire.Item) {
	it.Changes = slices.Clone(it.Changes)
	it.Command, it.Arguments, it.Query, it.Action, it.AgentsStates = nil, nil, nil, nil, nil
	it.ExitCode, it.Result, it.Items, it.ReceiverThreadIDs, it.Error = nil, nil, nil, nil, nil
}

// firstID returns the value of the first id member of the item object raw
// (valid UTF-8, which json.Unmarshal decoded), of which json.Unmarshal
// took last, the value of the last one: a detail type may flatten another
// id after the item's own (web_search's search call id). Codex writes the
// item's own id first, as it is: then it is taken from the text.
func firstID(raw []byte, last string) string {
	const open = `{"id":"`
	if len(raw) > len(open) && string(raw[:len(open)]) == open {
		id := raw[len(open):]
		if end := bytes.IndexByte(id, '"'); end >= 0 && bytes.IndexByte(id[:end], '\\') < 0 {
			switch id = id[:end]; {
			case string(id) == last:
				return last
			case bytes.Count(raw, idKey) > 1:
				return string(id)
			}
			return last // the other key json.Unmarshal took differs in case
		}
	}
	if bytes.Count(raw, idKey) > 1 {
		return firstIDSlow(raw, last)
	}
	return last
}

var idKey = []byte(`"id"`)

// firstIDSlow is firstID with encoding/json, for any object.
func firstIDSlow(raw []byte, def string) string {
	fields, err := fields(raw)
	if err != nil {
		return def
	}
	for _, f := range fields {
		if f.Key == "id" {
			var id string
			if json.Unmarshal(f.Value, &id) == nil {
				return id
			}
			return def
		}
	}
	return def
}
