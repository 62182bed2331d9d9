// Package foreign tells which JSON line format an object of a type its
// decoder does not know looks like, so that a line of another format inside
// a stream is reported as such instead of being kept as an unknown event of
// the format read. It looks at the object's shape only (which keys it has,
// how its type is spelt), never at another format's vocabulary, so format
// packages stay apart.
package foreign

import (
	"encoding/json"
	"strings"
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
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var typ string
	json.Unmarshal(m["type"], &typ)
	_, agent := m["agent"]
	_, final := m["final"]
	_, index := m["index"]
	_, delta := m["delta"]
	_, block := m["content_block"]
	_, session := m["session_id"]
	_, uuid := m["uuid"]
	switch {
	case agent && final:
		return Envelope
	case strings.Contains(typ, "."):
		return Dotted
	case index && (delta || block):
		return Messages
	case messageObject(m["message"]) && !session:
		return Messages
	case session || uuid:
		return Session
	}
	return ""
}

// messageObject reports whether raw is a Messages API message object
// ({"type": "message", ...}): what message_start carries.
func messageObject(raw json.RawMessage) bool {
	var msg struct {
		Type string `json:"type"`
	}
	return len(raw) > 0 && json.Unmarshal(raw, &msg) == nil && msg.Type == "message"
}
