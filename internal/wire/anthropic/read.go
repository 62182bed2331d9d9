package anthropic

import (
	"encoding/json"
	"errors"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// The content_block_delta events of text, thinking and tool input, as
// the API writes them and Streamer does: the head, the index, the
// delta's head, its string, and "}}".
const (
	ContentBlockDeltaHead = `{"type":"content_block_delta","index":`
	TextDeltaHead         = `,"delta":{"type":"text_delta","text":`
	ThinkingDeltaHead     = `,"delta":{"type":"thinking_delta","thinking":`
	InputDeltaHead        = `,"delta":{"type":"input_json_delta","partial_json":`
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
	if at > len(raw) || !hasPrefix(raw[at:], ContentBlockDeltaHead) {
		return -1
	}
	rest := raw[at+len(ContentBlockDeltaHead):]
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
	d := se.delta // reused from event to event
	if d == nil {
		d = new(Delta)
	}
	*d = Delta{Type: typ}
	switch typ {
	case DeltaText:
		d.Text = text
	case DeltaThinking:
		d.Thinking = text
	default:
		d.PartialJSON = text
	}
	*se = StreamEvent{Type: EventContentBlockDelta, Delta: raw[delta : end-1], delta: d, idx: index}
	se.Index = &se.idx
	return end
}

// hasPrefix is bytes.HasPrefix for a string prefix, without converting it.
func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// ParsedDelta returns the delta the reader decoded from se.Delta, or nil
// (decode se.Delta for the error).
func (se *StreamEvent) ParsedDelta() *Delta { return se.delta }

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

// readUsage reads any value into u as Usage.UnmarshalJSON does: the
// generated readers' reader of Usage.
func readUsage(r *jsontext.Reader, u *Usage) {
	if !r.Null() {
		ReadUsage(r, u)
	}
}

// UnmarshalBlock decodes a content block as json.Unmarshal does, in one
// pass when jsontext.Reader can, else with encoding/json, which gives the
// errors. A block of a type whose fields are not read (one kept whole, as
// its JSON) is checked only for its type: {"type":"new_kind","id":{}} is
// no error.
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
