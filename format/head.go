package format

import (
	"bytes"
	"encoding/json"
)

// Head describes the first unit of an input, for format detection: the
// first SSE message's data and event type, or the first non-blank line.
type Head struct {
	SSE       bool   // the input is framed as SSE
	EventType string // the first SSE message's event: field
	Payload   []byte // the first SSE message's first data line, or the first line

	fields map[string]json.RawMessage // Payload's members, when read (ReadFields)
	read   bool
}

// ReadFields returns h with the members of its payload read: its Fields
// then return the one map they were read into, which callers do not
// modify. For a head that many formats' Detect look at.
func (h Head) ReadFields() Head {
	h.fields, h.read = h.Fields(), true
	return h
}

// Sniff finds the first unit in prefix, the first bytes of an input.
// It reports false when prefix does not yet hold a complete first unit and
// more input may tell (it never needs more than the first line of data).
func Sniff(prefix []byte, atEOF bool) (Head, bool) {
	b := bytes.TrimPrefix(prefix, []byte("\xef\xbb\xbf"))
	var h Head
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			if !atEOF {
				return h, false
			}
			i = len(b)
		}
		line := b[:i]
		b = b[i:]
		if len(b) > 0 {
			b = b[1:]
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		field, value, isField := sseField(line)
		switch {
		case !isField && !h.SSE:
			h.Payload = line
			return h, true
		case !isField:
			continue
		case field == "":
			h.SSE = true // comment
		case field == "event":
			h.SSE = true
			h.EventType = string(value)
		case field == "data":
			h.SSE = true
			h.Payload = value
			return h, true
		case field == "id" || field == "retry":
			h.SSE = true
		}
	}
	return h, atEOF
}

// sseField splits an SSE line into field name and value. It reports false
// for lines that are not SSE fields this package expects at the start of a
// stream ("data", "event", "id", "retry", or a ":" comment).
func sseField(line []byte) (string, []byte, bool) {
	if line[0] == ':' {
		return "", nil, true
	}
	i := bytes.IndexByte(line, ':')
	if i < 0 {
		return "", nil, false
	}
	name := string(line[:i])
	switch name {
	case "data", "event", "id", "retry":
	default:
		return "", nil, false
	}
	v := line[i+1:]
	if len(v) > 0 && v[0] == ' ' {
		v = v[1:]
	}
	return name, v, true
}

// Fields returns the top-level members of the JSON object Payload begins
// with, for format detection. The payload may be cut short (the first line
// of an input longer than detection reads, or an input that ends inside
// its first line): the members complete before the cut are returned. Nil
// when the payload does not begin with a JSON object.
func (h Head) Fields() map[string]json.RawMessage {
	if h.read {
		return h.fields
	}
	dec := json.NewDecoder(bytes.NewReader(h.Payload))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	m := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		k, ok := t.(string)
		if !ok {
			break
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		m[k] = v
	}
	return m
}

// String returns the member k of fields when it is a JSON string.
func String(fields map[string]json.RawMessage, k string) (string, bool) {
	var s string
	if v, ok := fields[k]; !ok || json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}
