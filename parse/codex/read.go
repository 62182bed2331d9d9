package codex

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/internal/wire/codex"
)

// unmarshalLine decodes a line into l as json.Unmarshal does, in one pass
// with the generated reader when it can, else with encoding/json, which
// gives the errors. The line went through badutf8.Fix: it is valid UTF-8,
// whose strings the Reader need not check again. The item's text and its
// raw members point into line.
func (d *Decoder) unmarshalLine(line []byte, l *wire.Line) error {
	*l = wire.Line{}
	return jsontext.DecodeValid(&d.jr, line, l, wire.ReadLine)
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
// (valid UTF-8), of which json.Unmarshal took last, the value of the last
// one: a detail type may flatten another id after the item's own
// (web_search's search call id). Codex writes the item's own id first:
// when that is last, it is taken at once.
func firstID(r *jsontext.Reader, raw []byte, last string) string {
	if n := len(`{"id":"`); len(raw) > n+len(last) && string(raw[:n]) == `{"id":"` &&
		string(raw[n:n+len(last)]) == last && raw[n+len(last)] == '"' && strings.IndexByte(last, '\\') < 0 {
		return last // written as it is, with no escape
	}
	r.ResetValid(raw)
	if r.Object() && r.KeyIs(`"id":`) && r.Peek() == '"' {
		if id := r.Str(); !r.Failed() && string(id) == last {
			return last
		}
	}
	if bytes.Count(raw, []byte(`"id"`)) > 1 {
		return firstIDSlow(raw, last)
	}
	return last
}

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
