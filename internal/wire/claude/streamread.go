package claude

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// IsLineField reports whether name is the key of a field of Line.
func IsLineField(name string) bool {
	switch name {
	case "type", "subtype", "uuid", "session_id", "subagent_type", "task_description",
		"parent_tool_use_id", "message", "error", "tool_use_result", "event":
		return true
	}
	return false
}

// LineType returns a line type as a string, without allocating for the
// hot ones.
func LineType(b []byte) string {
	switch string(b) {
	case TypeStreamEvent:
		return TypeStreamEvent
	case TypeAssistant:
		return TypeAssistant
	case TypeUser:
		return TypeUser
	case TypeSystem:
		return TypeSystem
	case TypeResult:
		return TypeResult
	}
	return string(b)
}

// LineSubtype returns a line subtype as a string, without allocating for
// those Claude Code writes most.
func LineSubtype(b []byte) string {
	switch string(b) {
	case SubtypeInit:
		return SubtypeInit
	case SubtypeSuccess:
		return SubtypeSuccess
	case "status":
		return "status"
	case "thinking_tokens":
		return "thinking_tokens"
	}
	return string(b)
}

// UnmarshalKind decodes a line's type and subtype as json.Unmarshal
// into a Line does, with its error (nil where it decodes the whole line
// without error), in one pass where it can, else with encoding/json.
func UnmarshalKind(raw []byte) (typ, subtype string, err error) {
	var r jsontext.Reader
	return unmarshalKind(&r, raw)
}

func unmarshalKind(r *jsontext.Reader, raw []byte) (typ, subtype string, err error) {
	r.Reset(raw)
	if readKind(r, &typ, &subtype) && r.End() {
		return typ, subtype, nil
	}
	var l Line
	err = json.Unmarshal(raw, &l)
	return l.Type, l.Subtype, err
}

// readKind reads the type and subtype of a line, checking the types of
// the other fields of Line as encoding/json does.
func readKind(r *jsontext.Reader, typ, subtype *string) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "type":
			if !r.Null() {
				*typ = LineType(r.Str())
			}
		case "subtype":
			r.StringField(subtype)
		case "uuid", "session_id", "subagent_type", "task_description", "parent_tool_use_id":
			if !r.Null() {
				r.Str() // a string, not kept
			}
		case "message", "error", "tool_use_result", "event":
			r.Skip() // any value
		default:
			r.SkipUnknown(key, IsLineField)
		}
	}
	return !r.Failed()
}
