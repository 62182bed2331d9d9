package claude

import (
	"encoding/json"
	"errors"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// unmarshalLine decodes a line into l, a zero line, as json.Unmarshal
// into a wire.Line does, in one pass when jsontext.Reader can
// (readDeltaLine, readLine), else with encoding/json, which gives the
// errors.
func (d *Decoder) unmarshalLine(raw []byte, l *line) error {
	d.jr.ResetValid(raw)
	if d.readDeltaLine(raw, l) || d.readLine(raw, l) {
		return nil
	}
	// Decoded apart, so that l, which encoding/json would make escape,
	// stays on the caller's stack on the hot path.
	d.res = nil
	fallback := new(wire.Line)
	err := json.Unmarshal(raw, fallback)
	*l = line{Line: *fallback, aborted: fallback.Type == wire.TypeAssistant && abortedLine(raw)}
	return err
}

// readLine decodes raw into l in one pass, with the generated
// wire.ReadStreamLine, which decodes a message, a stream event and a
// result line's fields (d.res) with the line, and reports whether it
// did. raw went through badutf8.Fix: its strings are not checked for
// UTF-8 again (ResetValid).
func (d *Decoder) readLine(raw []byte, l *line) bool {
	d.jr.ResetValid(raw)
	// ResetStreamLine sets the parse= pointers (message, event) to nil,
	// so each line's message is new: the builder keeps the messages it
	// is handed (assistant), which a reused value would overwrite.
	wire.ResetStreamLine(&d.sl)
	if !wire.ReadStreamLine(&d.jr, &d.sl) || !d.jr.End() {
		return false
	}
	*l = line{
		Line: d.sl.Line, ev: d.sl.ParsedEvent(), msg: d.sl.ParsedMessage(), aborted: d.sl.Aborted(),
		compact: !d.jr.Spaced(), init: d.sl.Init(),
	}
	d.res = d.sl.Result()
	return true
}

// The stream_event line of a content_block_delta as Claude Code writes
// it for the main agent: the head, the event (as the API writes it), the
// session id's key, its string, the tail up to the uuid's string, and
// "}".
const (
	streamEventHead = `{"type":"stream_event","event":`
	sessionIDHead   = `,"session_id":`
	mainAgentTail   = `,"parent_tool_use_id":null,"uuid":`
)

// readDeltaLine decodes raw, d.jr reset to it, into l, a zero line (and
// the event into d.se) as wire.ReadStreamLine does, when raw is a delta's
// stream_event line written exactly as Claude Code writes it, and reports
// whether it did: matched as constant heads around the event and two
// strings, it is read without walking its keys. On false, l is untouched.
func (d *Decoder) readDeltaLine(raw []byte, l *line) bool {
	if !hasPrefix(raw, streamEventHead) {
		return false
	}
	r := &d.jr
	end := anthropic.ReadDeltaEventAt(r, raw, len(streamEventHead), &d.se)
	if end < 0 || !hasPrefix(raw[end:], sessionIDHead) {
		return false
	}
	r.Rewind(end+len(sessionIDHead), 0)
	session := r.KeepString(&d.lastID) // the last line's: one comparison
	tail := r.Offset()
	if r.Failed() || !hasPrefix(raw[tail:], mainAgentTail) {
		return false
	}
	// The uuid: its syntax checked, not decoded (nothing reads it).
	if jsontext.StringEnd(raw, tail+len(mainAgentTail)) != len(raw)-1 || raw[len(raw)-1] != '}' {
		return false
	}
	// l is zero: the fields of the line set one by one spare copying
	// a whole line, on nearly every line of a stream.
	l.Type, l.SessionID, l.Event, l.ev = wire.TypeStreamEvent, session, raw[len(streamEventHead):end], &d.se
	d.res = nil // (a stream_event line)
	return true
}

// hasPrefix is bytes.HasPrefix for a string prefix, without converting it.
func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// isSyntaxError is errors.As in a function of its own: the target it
// needs escapes, and is allocated only when called.
func isSyntaxError(err error) bool {
	var serr *json.SyntaxError
	return errors.As(err, &serr)
}

// unmarshalMessage decodes an assistant line's message as json.Unmarshal
// does, in one pass when jsontext.Reader can, else with encoding/json.
// raw is a value of a line that went through badutf8.Fix.
func (d *Decoder) unmarshalMessage(raw []byte, m *anthropic.Message) error {
	return jsontext.DecodeValid(&d.jr, raw, m, anthropic.ReadMessage)
}

// readUser decodes a user line's message into m as json.Unmarshal does
// (wire.ReadUserMessage), and the elements of its content when that is
// an array, as json.Unmarshal into []json.RawMessage gives them (but in
// raw, not copies, valid until the next call). It reports false where it
// cannot (the caller decodes raw with encoding/json).
func (d *Decoder) readUser(raw []byte, m *wire.UserMessage) ([]json.RawMessage, bool) {
	d.jr.ResetValid(raw) // a value of a line that went through badutf8.Fix
	wire.ResetUserMessage(m)
	if !wire.ReadUserMessage(&d.jr, m) || !d.jr.End() {
		return nil, false
	}
	if b := m.Blocks(); b != nil || len(m.Content) == 0 || m.Content[0] != '[' {
		return b, true
	}
	return []json.RawMessage{}, true
}

// unmarshalInit decodes an init line that went through badutf8.Fix:
// its strings are not checked for UTF-8 again.
func (d *Decoder) unmarshalInit(raw []byte, in *wire.Init) error {
	return d.inits.UnmarshalValid(raw, in)
}
