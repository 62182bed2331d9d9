// Package foreign tells which JSON line format an object of a type its
// decoder does not know looks like, so that a line of another format inside
// a stream is reported as such instead of being kept as an unknown event of
// the format read. It looks at the object's shape only (which keys it has,
// how its type is spelt), never at another format's vocabulary, so format
// packages stay apart.
package foreign

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// The shapes Kind tells apart.
const (
	Envelope = "jsonenv"   // "type", "agent" and "final" keys
	Dotted   = "codex"     // a dotted type ("item.completed")
	Session  = "claude"    // a "session_id" or "uuid" key, an undotted type
	Messages = "anthropic" // a Messages API stream event: "index" with "delta" or "content_block", or a "message" whose type is "message"
)

// Kind returns the shape of JSON object raw, or "" when it has none of
// them. Decoders call it only for lines of a type they do not know.
func Kind(raw []byte) string {
	var r jsontext.Reader
	return KindReader(&r, raw)
}

// KindReader is Kind with a Reader the caller reuses: it reads raw in one
// pass when r can, else with encoding/json as kindSlow does.
func KindReader(r *jsontext.Reader, raw []byte) string {
	r.Reset(raw)
	if s, ok := readShape(r); ok && r.End() {
		return s.kind()
	}
	return kindSlow(raw)
}

// shape is what Kind looks at: which keys an object has, and whether the
// values of type and message (the last of each, as a map keeps them) are
// a dotted string and a message object.
type shape struct {
	agent, final, index, delta, block, session, uuid bool

	dotted, message bool
}

func (s *shape) kind() string {
	switch {
	case s.agent && s.final:
		return Envelope
	case s.dotted:
		return Dotted
	case s.index && (s.delta || s.block):
		return Messages
	case s.message && !s.session:
		return Messages
	case s.session || s.uuid:
		return Session
	}
	return ""
}

// readShape reads an object's shape as kindSlow sees it through
// map[string]json.RawMessage. A key with an escape or a byte that is not
// ASCII fails the reader (it may unescape to a key readShape knows), as
// does a message object that json.Unmarshal would refuse.
func readShape(r *jsontext.Reader) (s shape, ok bool) {
	if !r.Object() {
		return s, false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) { // map keys: exact, capitals included
		case "type":
			if r.Peek() == '"' {
				s.dotted = bytes.IndexByte(r.Str(), '.') >= 0
			} else {
				s.dotted = false // a value that is not a string leaves the type ""
				r.Skip()
			}
			continue
		case "message":
			s.message = messageObjectReader(r)
			continue
		case "agent":
			s.agent = true
		case "final":
			s.final = true
		case "index":
			s.index = true
		case "delta":
			s.delta = true
		case "content_block":
			s.block = true
		case "session_id":
			s.session = true
		case "uuid":
			s.uuid = true
		}
		r.Skip()
	}
	return s, !r.Failed()
}

// messageObjectReader reads a value and reports what messageObject does
// of it: whether it is an object whose type, matched case-insensitively
// as a struct field is, is "message". A value of type that is neither a
// string nor null fails the reader (json.Unmarshal returns an error).
func messageObjectReader(r *jsontext.Reader) bool {
	if r.Peek() != '{' {
		r.Skip()
		return false
	}
	r.Object()
	is := false
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		if !bytes.EqualFold(key, []byte("type")) { // key is ASCII: folded as encoding/json does
			r.Skip()
			continue
		}
		switch r.Peek() {
		case '"':
			is = string(r.Str()) == "message"
		case 'n':
			r.Null() // leaves the field as it is
		default:
			r.Fail()
		}
	}
	return is
}

// kindSlow is Kind with encoding/json, for any input.
func kindSlow(raw []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var typ string
	json.Unmarshal(m["type"], &typ)
	s := shape{dotted: strings.Contains(typ, "."), message: messageObject(m["message"])}
	_, s.agent = m["agent"]
	_, s.final = m["final"]
	_, s.index = m["index"]
	_, s.delta = m["delta"]
	_, s.block = m["content_block"]
	_, s.session = m["session_id"]
	_, s.uuid = m["uuid"]
	return s.kind()
}

// messageObject reports whether raw is a Messages API message object
// ({"type": "message", ...}): what message_start carries.
func messageObject(raw json.RawMessage) bool {
	var msg struct {
		Type string `json:"type"`
	}
	return len(raw) > 0 && json.Unmarshal(raw, &msg) == nil && msg.Type == "message"
}
