package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// ReadStreamEvent decodes the stream event r is at into se in one pass,
// its delta included, as json.Unmarshal would, and reports whether it
// could: false (r failed) for input jsontext.Reader leaves to
// encoding/json, such as an error event.
// The raw fields of se are slices of r's input.
func ReadStreamEvent(r *jsontext.Reader, se *StreamEvent) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			if !r.Null() {
				se.Type = name(r.Str())
			}
		case "index":
			if r.Null() {
				se.Index = nil
				continue
			}
			n := r.Int()
			if int64(int(n)) != n {
				r.Fail()
			}
			se.idx = int(n)
			se.Index = &se.idx
		case "content_block":
			se.ContentBlock = r.Skip()
		case "delta":
			readDelta(r, se)
		case "usage":
			if r.Null() {
				se.Usage = nil
				continue
			}
			if se.Usage == nil {
				se.Usage = new(Usage)
			}
			ReadUsage(r, se.Usage)
		case "message":
			switch {
			case r.Null():
				se.Message = nil
			case se.Message != nil:
				r.Fail() // encoding/json decodes a second message into the first
			default:
				// message_start: read in the same pass, not handed to
				// encoding/json.
				se.Message = new(Message)
				if !ReadMessage(r, se.Message) {
					r.Fail()
				}
			}
		case "error":
			if !r.Null() {
				r.Fail() // not on the hot path: encoding/json decodes it
			}
			se.Error = nil
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

// readDelta reads a delta into se.Delta, and decodes it into se.delta
// when it is an object (or null) of the types Delta has: else the delta
// is kept raw only, and decoding it again gives the error.
func readDelta(r *jsontext.Reader, se *StreamEvent) {
	r.Peek() // past white space: raw values start at their first byte
	off, depth := r.Offset(), r.Depth()
	se.delta, se.parsed = Delta{}, false
	if r.Null() {
		se.Delta, se.parsed = r.Since(off), true
		return
	}
	if r.Peek() == '{' {
		readDeltaObject(r, &se.delta)
		if !r.Failed() {
			se.Delta, se.parsed = r.Since(off), true
			return
		}
		r.Rewind(off, depth)
		se.delta = Delta{}
	}
	se.Delta = r.Skip()
}

func readDeltaObject(r *jsontext.Reader, d *Delta) {
	r.Object()
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			if !r.Null() {
				d.Type = name(r.Str())
			}
		case "text":
			r.StringField(&d.Text)
		case "partial_json":
			r.StringField(&d.PartialJSON)
		case "thinking":
			r.StringField(&d.Thinking)
		case "signature":
			r.StringField(&d.Signature)
		case "citation":
			d.Citation = r.Skip()
		case "stop_reason":
			r.OptStringField(&d.StopReason)
		case "stop_sequence":
			r.OptStringField(&d.StopSequence)
		default:
			r.Skip()
		}
	}
}

// The content_block_delta events of text, thinking and tool input, as
// the API writes them and Streamer does: the head, the index, the
// delta's head, its string, and "}}".
const (
	DeltaEventHead    = `{"type":"content_block_delta","index":`
	TextDeltaHead     = `,"delta":{"type":"text_delta","text":`
	ThinkingDeltaHead = `,"delta":{"type":"thinking_delta","thinking":`
	InputDeltaHead    = `,"delta":{"type":"input_json_delta","partial_json":`
)

// ReadDeltaEvent decodes raw, a content_block_delta of text, thinking or
// tool input written exactly as the API writes it (the fields in its
// order, no white space), into se as ReadStreamEvent does, and reports
// whether it could; on false, se is untouched and raw is any other
// event, or another form of one: decode it with ReadStreamEvent. raw is
// valid UTF-8 (r is reset to it with ResetValid).
//
// Nearly every event of a stream is such a delta: matched as two
// constant heads around the index, it is read without walking its keys.
func ReadDeltaEvent(r *jsontext.Reader, raw []byte, se *StreamEvent) bool {
	r.ResetValid(raw)
	return ReadDeltaEventAt(r, raw, 0, se) == len(raw)
}

// ReadDeltaEventAt is ReadDeltaEvent for an event that starts at offset
// at of raw and may be followed by more, as in a Claude Code stream_event
// line. r reads raw (valid UTF-8, r reset to it with ResetValid). It
// returns the offset just past the event, or -1 (se untouched) where
// ReadDeltaEvent would report false. The raw fields of se are slices of
// raw; r is left anywhere in it.
func ReadDeltaEventAt(r *jsontext.Reader, raw []byte, at int, se *StreamEvent) int {
	if at > len(raw) || !hasPrefix(raw[at:], DeltaEventHead) {
		return -1
	}
	rest := raw[at+len(DeltaEventHead):]
	// The index: digits, at most 9 (an int), no leading zero.
	index, n := 0, 0
	for ; n < len(rest) && n < 9 && '0' <= rest[n] && rest[n] <= '9'; n++ {
		index = index*10 + int(rest[n]-'0')
	}
	if n == 0 || n > 1 && rest[0] == '0' {
		return -1
	}
	rest = rest[n:]
	var typ, head string
	switch {
	case hasPrefix(rest, TextDeltaHead):
		typ, head = DeltaText, TextDeltaHead
	case hasPrefix(rest, ThinkingDeltaHead):
		typ, head = DeltaThinking, ThinkingDeltaHead
	case hasPrefix(rest, InputDeltaHead):
		typ, head = DeltaInputJSON, InputDeltaHead
	default:
		return -1
	}
	delta := len(raw) - len(rest) + len(`,"delta":`) // the delta object's '{'
	r.Rewind(len(raw)-len(rest)+len(head), 0)
	text := r.String()
	end := r.Offset() + 2
	if r.Failed() || end > len(raw) || string(raw[end-2:end]) != "}}" {
		return -1
	}
	*se = StreamEvent{
		Type:  EventContentBlockDelta,
		Delta: raw[delta : end-1],
		delta: Delta{Type: typ}, parsed: true, idx: index,
	}
	se.Index = &se.idx
	switch typ {
	case DeltaText:
		se.delta.Text = text
	case DeltaThinking:
		se.delta.Thinking = text
	default:
		se.delta.PartialJSON = text
	}
	return end
}

// hasPrefix is bytes.HasPrefix for a string prefix, without converting it.
func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// ReadUsage decodes the usage object r is at into u, as json.Unmarshal
// would; r fails on anything else.
func ReadUsage(r *jsontext.Reader, u *Usage) {
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		var f *int64
		var has event.Counts
		switch string(key) {
		case "input_tokens":
			f, has = &u.InputTokens, event.HasInput
		case "output_tokens":
			f, has = &u.OutputTokens, event.HasOutput
		case "cache_creation_input_tokens":
			f, has = &u.CacheCreationInputTokens, event.HasCacheWrite
		case "cache_read_input_tokens":
			f, has = &u.CacheReadInputTokens, event.HasCacheRead
		case "service_tier":
			r.StringField(&u.ServiceTier)
			continue
		default:
			r.Skip()
			continue
		}
		if !r.Null() {
			*f = r.Int()
			u.Has |= has
		}
	}
}

// ParsedDelta returns the delta ReadStreamEvent decoded, or nil.
func (se *StreamEvent) ParsedDelta() *Delta {
	if !se.parsed {
		return nil
	}
	return &se.delta
}

// name returns a type name as a string, without allocating for the
// names this package knows.
func name(b []byte) string {
	switch string(b) {
	case EventContentBlockDelta:
		return EventContentBlockDelta
	case EventContentBlockStart:
		return EventContentBlockStart
	case EventContentBlockStop:
		return EventContentBlockStop
	case EventMessageDelta:
		return EventMessageDelta
	case EventMessageStop:
		return EventMessageStop
	case DeltaText:
		return DeltaText
	case DeltaThinking:
		return DeltaThinking
	case DeltaInputJSON:
		return DeltaInputJSON
	case DeltaSignature:
		return DeltaSignature
	}
	return string(b)
}

// ReadMessage decodes the message r is at into m in one pass, as
// json.Unmarshal would, and reports whether it could (see
// ReadStreamEvent). Its content blocks are slices of r's input.
func ReadMessage(r *jsontext.Reader, m *Message) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "id":
			r.StringField(&m.ID)
		case "type":
			r.StringField(&m.Type)
		case "role":
			r.StringField(&m.Role)
		case "model":
			r.StringField(&m.Model)
		case "content":
			if r.Null() {
				m.Content = nil
				continue
			}
			m.Content = m.Content[:0]
			if !r.Array() {
				continue
			}
			for r.More() {
				m.Content = append(m.Content, r.Skip())
			}
			if m.Content == nil {
				m.Content = []json.RawMessage{}
			}
		case "stop_reason":
			r.OptStringField(&m.StopReason)
		case "stop_sequence":
			r.OptStringField(&m.StopSequence)
		case "usage":
			if r.Null() {
				m.Usage = nil
				continue
			}
			if m.Usage == nil {
				m.Usage = new(Usage)
			}
			ReadUsage(r, m.Usage)
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

// UnmarshalBlock decodes a content block as json.Unmarshal does, in one
// pass when jsontext.Reader can, else with encoding/json, which gives the
// errors. Its raw fields are copies: blocks outlive their line. A block of
// a type whose fields are not read (one kept whole, as its JSON) is
// checked only for its type: {"type":"new_kind","id":{}} is no error.
func UnmarshalBlock(raw []byte, cb *Block) error {
	var r jsontext.Reader
	r.Reset(raw)
	if ReadBlock(&r, cb) && r.End() {
		return nil
	}
	// Decoded apart, so that cb stays on its caller's stack on the hot
	// path (encoding/json makes its target escape).
	fallback := new(Block)
	err := json.Unmarshal(raw, fallback)
	*cb = *fallback
	var te *json.UnmarshalTypeError
	if err != nil && !readsFields(cb.Type) && errors.As(err, &te) {
		return nil
	}
	return err
}

// ReadBlock decodes the content block r is at into cb in one pass, as
// json.Unmarshal would, and reports whether it could: false (r failed)
// for input it leaves to encoding/json, such as citations or a source.
// Its raw fields are copies.
func ReadBlock(r *jsontext.Reader, cb *Block) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			r.StringField(&cb.Type)
		case "text":
			r.OptStringField(&cb.Text)
		case "thinking":
			r.OptStringField(&cb.Thinking)
		case "signature":
			r.OptStringField(&cb.Signature)
		case "id":
			r.StringField(&cb.ID)
		case "name":
			r.StringField(&cb.Name)
		case "server_name":
			r.StringField(&cb.ServerName)
		case "tool_use_id":
			r.StringField(&cb.ToolUseID)
		case "input":
			cb.Input = bytes.Clone(r.Skip())
		case "content":
			cb.Content = bytes.Clone(r.Skip())
		case "is_error":
			if r.Null() {
				cb.IsError = nil
				continue
			}
			v := r.Bool()
			cb.IsError = &v
		case "citations", "source":
			if !r.Null() {
				r.Fail() // rare: encoding/json decodes them
			}
			if string(key) == "source" {
				cb.Source = nil
			} else {
				cb.Citations = nil
			}
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}
