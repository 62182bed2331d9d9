package claude

import (
	"bytes"
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

// UnmarshalInit decodes a system/init line into in as json.Unmarshal
// does, with its error, in one pass where it can: then only the fields
// this module reads (cwd, session_id, model, tools) are set, the others'
// types checked (a value of the wrong type goes to encoding/json, which
// sets them all and gives the error).
func UnmarshalInit(raw []byte, in *Init) error {
	var r jsontext.Reader
	return jsontext.Decode(&r, raw, in, readInit)
}

// An InitReader decodes system/init lines as UnmarshalInit does, and
// keeps what it read of the last: Claude Code writes the same lists
// (tools, slash_commands, agents, skills) in every init, each then read
// once, and the names of the tools are shared with the last init's
// where they are equal. The zero value is ready to use.
type InitReader struct {
	r     jsontext.Reader
	tools []string  // the tools of the last init, whose names the next shares
	lists initLists // the text of the last init's lists of names
}

// Unmarshal decodes raw into in as UnmarshalInit does, with its error.
func (ir *InitReader) Unmarshal(raw []byte, in *Init) error {
	ir.r.Reset(raw)
	return ir.unmarshal(raw, in)
}

// UnmarshalValid is Unmarshal for a line whose strings are valid UTF-8
// (a line that went through badutf8.Fix): they are not checked again.
func (ir *InitReader) UnmarshalValid(raw []byte, in *Init) error {
	ir.r.ResetValid(raw)
	return ir.unmarshal(raw, in)
}

// unmarshal is Unmarshal once ir.r is reset to raw.
func (ir *InitReader) unmarshal(raw []byte, in *Init) error {
	ir.lists.raw = raw
	ok := readInitTools(&ir.r, in, ir.tools, &ir.lists) && ir.r.End()
	ir.lists.raw = nil
	if ok {
		if len(in.Tools) > 0 {
			ir.tools = in.Tools
		}
		return nil
	}
	*in = Init{}
	return json.Unmarshal(raw, in)
}

func readInit(r *jsontext.Reader, in *Init) bool {
	return readInitTools(r, in, nil, nil)
}

// initLists holds the text of the lists of names of the last init read
// (tools, slash_commands, agents, skills): Claude Code writes the same
// lists in every init, and a list whose text is that of the last is the
// same list, read and checked then. A JSON array ends at its own ']', so
// a prefix of the rest of the line equal to the last list's text is the
// whole value.
type initLists struct {
	raw   []byte    // the line being read
	text  [4][]byte // the lists' text, empty where unknown
	tools []string  // the names of the tools list (text[0])
}

// listIndex returns the index in initLists.text of the list of key.
func listIndex(key string) int {
	switch key {
	case "tools":
		return 0
	case "slash_commands":
		return 1
	case "agents":
		return 2
	}
	return 3 // skills
}

// same reports whether the value r is at has the text of list k of the
// last init, and if so reads past it.
func (l *initLists) same(r *jsontext.Reader, k int) bool {
	if l == nil || len(l.text[k]) == 0 || r.Peek() != '[' {
		return false
	}
	off := r.Offset()
	if !bytes.HasPrefix(l.raw[off:], l.text[k]) {
		return false
	}
	r.Rewind(off+len(l.text[k]), r.Depth())
	return true
}

// start returns the offset of the value r is at, for keep.
func (l *initLists) start(r *jsontext.Reader) int {
	if l == nil {
		return 0
	}
	r.Peek()
	return r.Offset()
}

// keep notes the text of list k, read from offset off, and reports
// whether it did: when it is an array read with no failure.
func (l *initLists) keep(r *jsontext.Reader, k, off int) bool {
	if l == nil {
		return false
	}
	if v := r.Since(off); !r.Failed() && len(v) > 0 && v[0] == '[' {
		l.text[k] = append(l.text[k][:0], v...)
		return true
	}
	l.text[k] = l.text[k][:0]
	return false
}

// readInitTools reads an init line into in, the names of its tools
// those of prev where they are equal (saving their allocation); lists,
// if not nil, holds the text of the last init's lists (and the line),
// and is updated.
func readInitTools(r *jsontext.Reader, in *Init, prev []string, lists *initLists) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "cwd":
			r.StringField(&in.Cwd)
		case "session_id":
			r.StringField(&in.SessionID)
		case "model":
			r.StringField(&in.Model)
		case "tools":
			// (Only the first tools key of a line: a second decodes into
			// the first's strings.)
			if in.Tools == nil && lists.same(r, 0) {
				in.Tools = append(make([]string, 0, len(lists.tools)), lists.tools...)
				break
			}
			off := lists.start(r)
			in.Tools = readStrings(r, in.Tools, prev)
			if lists.keep(r, 0, off) {
				lists.tools = in.Tools
			}
		case "type", "subtype", "permissionMode", "apiKeySource", "claude_code_version", "output_style", "uuid":
			if !r.Null() {
				r.Str() // a string, not kept
			}
		case "slash_commands", "agents", "skills":
			k := listIndex(string(key))
			if lists.same(r, k) {
				break
			}
			off := lists.start(r)
			checkStrings(r) // strings, not kept
			lists.keep(r, k, off)
		case "mcp_servers", "plugins":
			if r.Null() {
				break
			}
			if r.Peek() != '[' {
				r.Fail()
			}
			r.Skip() // any array
		default:
			if isInitField(key) {
				r.Fail() // encoding/json matches it case-insensitively
			}
			r.Skip()
		}
	}
	return !r.Failed()
}

// readStrings reads a []string field as json.Unmarshal does into old:
// null makes it nil, an array a slice of its strings (null ones "").
// encoding/json decodes into old's elements, where a null leaves the
// string there: a null element with old set fails. A string equal to
// the one at its index in prev is prev's.
func readStrings(r *jsontext.Reader, old, prev []string) []string {
	if r.Null() {
		return nil
	}
	s := old[:0]
	if s == nil {
		s = make([]string, 0, len(prev))
	}
	if !r.Array() {
		return nil
	}
	for r.More() {
		if r.Null() {
			if old != nil {
				r.Fail()
			}
			s = append(s, "")
			continue
		}
		if v := r.Str(); len(s) < len(prev) && string(v) == prev[len(s)] {
			s = append(s, prev[len(s)])
		} else {
			s = append(s, string(v))
		}
	}
	return s
}

// checkStrings reads a []string field that is not kept: null, or an
// array of strings and nulls.
func checkStrings(r *jsontext.Reader) {
	if r.Null() {
		return
	}
	if r.Array() {
		for r.More() {
			if !r.Null() {
				r.Str()
			}
		}
	}
}

// isInitField reports whether key, which matched none of Init's keys
// exactly, matches one case-insensitively, as encoding/json matches it.
func isInitField(key []byte) bool {
	for _, f := range [...]string{
		"type", "subtype", "cwd", "session_id", "tools", "mcp_servers", "model", "permissionmode", "slash_commands",
		"apikeysource", "claude_code_version", "output_style", "agents", "skills", "plugins", "uuid",
	} {
		if len(key) == len(f) && bytes.EqualFold(key, []byte(f)) {
			return true
		}
	}
	return false
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
