package respwire

import "github.com/agentstream/agentstream/internal/jsontext"

// Reader decodes stream events for the decoder's hot path: in one pass
// with the reader generated from wire.go when it can, else with
// encoding/json, which gives the errors and their wording. Decoded into
// the same StreamEvent each time, an event reuses the last one's memory:
// its SequenceNumber, Response, Item and Part, and the raw fields of its
// item (Raw, Arguments, Action, ...), are valid until the next Decode; a
// caller that keeps one copies it. The slices of parts and annotations
// are their own.
type Reader struct {
	jr   jsontext.Reader
	data []byte // the event's bytes
}

// Decode decodes data into ev as json.Unmarshal into a zero StreamEvent
// does. The caller may reuse data once it returns (a framer's borrowed
// message): the Reader keeps its own copy.
func (er *Reader) Decode(data []byte, ev *StreamEvent) error {
	er.data = append(er.data[:0], data...)
	ResetStreamEvent(ev)
	return jsontext.Decode(&er.jr, er.data, ev, ReadStreamEvent)
}
