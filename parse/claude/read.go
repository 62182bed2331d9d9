package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// unmarshalLine decodes a line as json.Unmarshal does, in one pass when
// jsontext.Reader can (the stream event of a stream_event line decoded
// with it), else with encoding/json, which gives the errors. raw went
// through badutf8.Fix: its strings are not checked for UTF-8 again
// (ResetValid).
func (d *Decoder) unmarshalLine(raw []byte, l *line) error {
	d.jr.ResetValid(raw)
	if d.readDeltaLine(raw, l) {
		return nil
	}
	d.jr.ResetValid(raw)
	if d.readLine(&d.jr, l) && d.jr.End() {
		return nil
	}
	// Decoded apart, so that l, which encoding/json would make escape,
	// stays on the caller's stack on the hot path.
	d.resOK = false
	fallback := new(wire.Line)
	err := json.Unmarshal(raw, fallback)
	*l = line{Line: *fallback}
	return err
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

// readDeltaLine decodes raw, d.jr reset to it, into l (and the event into
// d.se) as readLine does, when raw is a delta's stream_event line written
// exactly as Claude Code writes it, and reports whether it did: matched
// as constant heads around the event and two strings, it is read without
// walking its keys. On false, l is untouched.
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
	id := r.Str()
	tail := r.Offset()
	if r.Failed() || !hasPrefix(raw[tail:], mainAgentTail) {
		return false
	}
	session := d.intern(id) // before the uuid's read reuses id's bytes
	r.Rewind(tail+len(mainAgentTail), 0)
	r.Str() // the uuid: checked, not kept
	if r.Failed() || r.Offset() != len(raw)-1 || raw[len(raw)-1] != '}' {
		return false
	}
	*l = line{Line: wire.Line{Type: wire.TypeStreamEvent, SessionID: session, Event: raw[len(streamEventHead):end]}, eventOK: true, noAborted: true}
	d.res, d.resOK = wire.Result{}, true
	return true
}

// hasPrefix is bytes.HasPrefix for a string prefix, without converting it.
func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// unmarshalResult decodes the fields of a result line that result reads
// (those of the event), as json.Unmarshal does, in one pass when
// jsontext.Reader can, else with encoding/json. result carries on after a
// type error, so a field it does not read may hold anything: it is
// skipped, not checked.
func (d *Decoder) unmarshalResult(raw []byte, res *wire.Result) error {
	d.jr.ResetValid(raw) // raw went through badutf8.Fix
	if readResult(&d.jr, res) && d.jr.End() {
		return nil
	}
	fallback := new(wire.Result)
	err := json.Unmarshal(raw, fallback)
	*res = *fallback
	return err
}

func readResult(r *jsontext.Reader, res *wire.Result) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		if !readResultField(r, key, res) {
			r.SkipUnknown(key, isResultField)
		}
	}
	return !r.Failed()
}

// readResultField reads the value of key into res and reports true when
// key is a field of wire.Result that result reads (isResultField).
func readResultField(r *jsontext.Reader, key []byte, res *wire.Result) bool {
	switch string(key) {
	case "is_error":
		jsontext.ReadBool(r, &res.IsError)
	case "duration_ms":
		jsontext.ReadInt(r, &res.DurationMS)
	case "num_turns":
		jsontext.ReadInt(r, &res.NumTurns)
	case "result":
		r.OptStringField(&res.Result)
	case "stop_reason":
		r.OptStringField(&res.StopReason)
	case "total_cost_usd":
		if r.Null() {
			res.TotalCostUSD = nil
			break
		}
		f := r.Float()
		res.TotalCostUSD = &f
	case "usage":
		if r.Null() {
			res.Usage = nil
			break
		}
		anthropic.ReadUsage(r, jsontext.Ensure(&res.Usage))
	case "errors":
		if r.Null() {
			res.Errors = nil
			break
		}
		res.Errors = res.Errors[:0]
		if r.Array() {
			for r.More() {
				res.Errors = append(res.Errors, r.String())
			}
		}
		if res.Errors == nil {
			res.Errors = []string{}
		}
	default:
		return false
	}
	return true
}

// readRunField reads the value of key into d.models and reports true
// when key is a field of wire.Result that readResultField leaves and that
// json.Unmarshal of the line into a wire.Result reads: modelUsage, and the
// two whose types it checks (duration_api_ms, permission_denials). So
// a result line's modelUsage is read with the line, not decoded again
// by runModels. A value read otherwise than json.Unmarshal would (of
// another type, a repeated modelUsage, a key matched
// case-insensitively) is skipped, and d.modelsOK cleared: runModels
// decodes the line then.
func (d *Decoder) readRunField(r *jsontext.Reader, key []byte) bool {
	off, depth := r.Offset(), r.Depth()
	ok := false
	switch string(key) {
	case "modelUsage":
		ok = !d.modelsSeen && d.readModels(r)
		d.modelsSeen = true
	case "duration_api_ms":
		var n int64
		jsontext.ReadInt(r, &n)
		ok = !r.Failed()
	case "permission_denials":
		c := r.Peek()
		r.Skip()
		ok = (c == '[' || c == 'n') && !r.Failed()
	default:
		return false
	}
	if !ok {
		r.Rewind(off, depth)
		r.Skip()
		d.modelsOK = false
	}
	return true
}

// readModels reads modelUsage, a JSON object of wire.ModelUsage by model
// name, into d.models, as json.Unmarshal decodes it into a map: null
// leaves none, a null value is a zero wire.ModelUsage, the last of a
// repeated name wins. It reports false where it cannot (a name with an
// escape, a value of another type).
func (d *Decoder) readModels(r *jsontext.Reader) bool {
	if r.Null() {
		return true
	}
	if !r.Object() {
		return false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		i := slices.IndexFunc(d.models, func(m modelEntry) bool { return m.name == string(key) })
		if i < 0 {
			d.models = append(d.models, modelEntry{name: string(key)})
			i = len(d.models) - 1
		}
		m := &d.models[i].usage
		*m = wire.ModelUsage{}
		if r.Null() {
			continue
		}
		if !r.Object() {
			return false
		}
		for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
			switch string(key) {
			case "inputTokens":
				jsontext.ReadInt(r, &m.InputTokens)
			case "outputTokens":
				jsontext.ReadInt(r, &m.OutputTokens)
			case "cacheReadInputTokens":
				jsontext.ReadInt(r, &m.CacheReadInputTokens)
			case "cacheCreationInputTokens":
				jsontext.ReadInt(r, &m.CacheCreationInputTokens)
			case "webSearchRequests":
				jsontext.ReadInt(r, &m.WebSearchRequests)
			case "costUSD":
				jsontext.ReadFloat(r, &m.CostUSD)
			default:
				r.SkipField(key, isModelUsageField)
			}
		}
	}
	return !r.Failed()
}

// isRunField reports whether key, compared case-insensitively, is one
// of the fields readRunField reads.
func isRunField(key []byte) bool {
	for _, f := range [...]string{"modelUsage", "duration_api_ms", "permission_denials"} {
		if len(key) == len(f) && bytes.EqualFold(key, []byte(f)) {
			return true
		}
	}
	return false
}

// isModelUsageField reports whether name, lower-cased, is the key of a
// field of wire.ModelUsage.
func isModelUsageField(name string) bool {
	switch name {
	case "inputtokens", "outputtokens", "cachereadinputtokens", "cachecreationinputtokens", "websearchrequests", "costusd":
		return true
	}
	return false
}

// isResultField reports whether name is the key of a field of wire.Result
// that readResult reads.
func isResultField(name string) bool {
	switch name {
	case "is_error", "duration_ms", "num_turns", "result", "stop_reason", "total_cost_usd", "usage", "errors":
		return true
	}
	return false
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

// readLine decodes a line into l in one pass. It decodes an assistant
// line's message too (l.parsedMessage), and the fields of a result line
// that result reads (d.res, set when d.resOK), when the line's type comes
// before them: the type comes first in what Claude Code writes.
func (d *Decoder) readLine(r *jsontext.Reader, l *line) bool {
	if !r.Object() {
		return false
	}
	d.res, d.resOK = wire.Result{}, true
	d.models, d.modelsOK, d.modelsSeen = d.models[:0], true, false
	l.noAborted = true
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		if l.Type == wire.TypeResult && (readResultField(r, key, &d.res) || d.readRunField(r, key)) {
			continue
		}
		switch string(key) {
		case "type":
			if !r.Null() {
				l.Type = wire.LineType(r.Str())
			}
		case "subtype":
			if !r.Null() {
				l.Subtype = wire.LineSubtype(r.Str())
			}
		case "uuid":
			// Nothing reads a line's uuid: checked, not kept.
			if !r.Null() {
				r.Str()
			}
		case "session_id":
			if !r.Null() {
				l.SessionID = d.intern(r.Str())
			}
		case "subagent_type":
			r.StringField(&l.SubagentType)
		case "task_description":
			r.StringField(&l.TaskDescription)
		case "parent_tool_use_id":
			r.OptStringField(&l.ParentToolUseID)
		case "message":
			l.msgOK = false
			if l.Type != wire.TypeAssistant || r.Peek() != '{' {
				l.Message = r.Skip()
				continue
			}
			off, depth := r.Offset(), r.Depth()
			l.msg = anthropic.Message{}
			if anthropic.ReadMessage(r, &l.msg) {
				l.Message, l.msgOK = r.Since(off), true
				continue
			}
			r.Rewind(off, depth)
			l.Message = r.Skip()
		case "error":
			l.Error = r.Skip()
		case "tool_use_result":
			l.ToolUseResult = r.Skip()
		case "event":
			r.Peek()
			off, depth := r.Offset(), r.Depth()
			d.se, l.eventOK = anthropic.StreamEvent{}, false
			if anthropic.ReadStreamEvent(r, &d.se) {
				l.Event, l.eventOK = r.Since(off), true
				continue
			}
			r.Rewind(off, depth)
			d.se = anthropic.StreamEvent{}
			l.Event = r.Skip()
		default:
			if isResultField(string(key)) {
				d.resOK = false // a result field before the type
			}
			if isRunField(key) {
				d.modelsOK = false // before the type, or matched case-insensitively
			}
			if len(key) == len("aborted") && bytes.EqualFold(key, []byte("aborted")) {
				l.noAborted = false
			}
			r.SkipUnknown(key, func(name string) bool {
				if isResultField(name) {
					d.resOK = false // one encoding/json matches case-insensitively
				}
				return wire.IsLineField(name)
			})
		}
	}
	return !r.Failed()
}

// readUser decodes a user line's message into m as json.Unmarshal does,
// and the elements of its content when that is an array, as
// json.Unmarshal into []json.RawMessage gives them (but in raw, not
// copies: d.blocks, valid until the next call), in one pass. It reports
// false where it cannot (the caller decodes raw with encoding/json).
func (d *Decoder) readUser(raw []byte, m *userMessage) ([]json.RawMessage, bool) {
	r := &d.jr
	r.ResetValid(raw) // a value of a line that went through badutf8.Fix
	if !r.Object() {
		return nil, false
	}
	d.blocks = d.blocks[:0]
	isArray := false
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "role":
			if !r.Null() {
				r.Str() // a string, not kept
			}
		case "content":
			if r.Peek() == 'n' {
				r.Fail() // null: left to encoding/json
				break
			}
			off := r.Offset() // Peek read the white space before the value
			d.blocks, isArray = d.blocks[:0], r.Peek() == '['
			if !isArray {
				m.Content = r.Skip()
				continue
			}
			r.Array()
			for r.More() {
				d.blocks = append(d.blocks, r.Skip())
			}
			m.Content = r.Since(off)
		default:
			r.SkipUnknown(key, func(name string) bool { return name == "role" || name == "content" })
		}
	}
	if !r.End() {
		return nil, false
	}
	if !isArray {
		return nil, true
	}
	if len(d.blocks) == 0 {
		return []json.RawMessage{}, true
	}
	return d.blocks, true
}

// parsedMessage returns the assistant message unmarshalLine decoded, or
// nil.
func (l *line) parsedMessage() *anthropic.Message {
	if !l.msgOK {
		return nil
	}
	return &l.msg
}

// parsedEvent returns the stream event of l that unmarshalLine decoded,
// or nil.
func (d *Decoder) parsedEvent(l *line) *anthropic.StreamEvent {
	if !l.eventOK {
		return nil
	}
	return &d.se
}

// intern returns b as a string, the one it returned last if that is
// equal: a session id repeats on every line.
func (d *Decoder) intern(b []byte) string {
	if string(b) != d.lastID {
		d.lastID = string(b)
	}
	return d.lastID
}

// unmarshalInit decodes an init line that went through badutf8.Fix:
// its strings are not checked for UTF-8 again.
func (d *Decoder) unmarshalInit(raw []byte, in *wire.Init) error {
	return d.inits.UnmarshalValid(raw, in)
}
