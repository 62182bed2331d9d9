package openairesp

import (
	"encoding/json"
	"strconv"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/respwire"
)

// appendJSON appends v, one of the events of wire.go that Encoder.event
// writes, to b as openai.Marshal writes it, by the writers generated from
// wire.go's declarations (the encoder writes the items itself: by their
// writers, or by hand where it has their fields escaped already, as
// TestMessageItem and TestFunctionCall check); a value of another type
// goes through openai.Marshal. TestAppendJSON and FuzzAppendJSON compare
// the two.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case annotationEvent:
		return appendAnnotationEvent(b, &v), nil
	case argsDone:
		return appendArgsDone(b, &v), nil
	case inputDone:
		return appendInputDone(b, &v), nil
	case respEvent:
		return appendRespEvent(b, &v)
	case errorEvent:
		return appendErrorEvent(b, &v)
	}
	data, err := openai.Marshal(v)
	return append(b, data...), err
}

// appendResponse appends response r, which has no error, as appendJSON
// writes it (TestAppendJSON's sameResponse, TestResponseText): by hand,
// from its id, object, creation time and model, the turn's, written once
// per turn (respText).
func (e *Encoder) appendResponse(b []byte, r *outResponse) []byte {
	t := &e.resp
	if r.ID != t.id || r.Object != t.object || r.CreatedAt != t.created || r.Model != t.model || t.head == nil {
		t.id, t.object, t.created, t.model = r.ID, r.Object, r.CreatedAt, r.Model
		t.head = jsontext.AppendMarshalString(append(t.head[:0], `{"id":`...), r.ID)
		t.head = jsontext.AppendMarshalString(append(t.head, `,"object":`...), r.Object)
		if r.CreatedAt != 0 {
			t.head = num(t.head, `,"created_at":`, r.CreatedAt)
		}
		t.head = append(t.head, `,"status":`...)
		t.modelJSON = jsontext.AppendMarshalString(append(t.modelJSON[:0], `,"model":`...), r.Model)
	}
	b = jsontext.AppendMarshalString(append(b, t.head...), r.Status)
	b = append(b, `,"error":null,"incomplete_details":`...)
	if r.IncompleteDetails == nil {
		b = append(b, "null"...)
	} else {
		b = appendIncomplete(b, r.IncompleteDetails)
	}
	b = append(b, t.modelJSON...)
	b = appendRaws(append(b, `,"output":`...), r.Output)
	if r.ServiceTier != "" {
		b = jsontext.AppendMarshalString(append(b, `,"service_tier":`...), r.ServiceTier)
	}
	b = append(b, `,"usage":`...)
	if r.Usage == nil {
		b = append(b, "null"...)
	} else {
		b = wire.AppendUsage(b, r.Usage)
	}
	return append(b, '}')
}

// respText is what appendResponse writes once per turn: the start of its
// responses' JSON up to their status ({"id":...,"object":...,
// "created_at":...,"status":) and their model field, for the response
// id, object, creation time and model they are of.
type respText struct {
	id, object, model string
	created           int64
	head, modelJSON   []byte
}

// appendRaw appends raw, compact, valid JSON as encoding/json writes a
// json.RawMessage (as it is), null when nil: every raw value the encoder
// writes is one, its own items and what it took from events, checked and
// compacted where it took it.
func appendRaw(b []byte, raw json.RawMessage) []byte {
	if raw == nil {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// appendRaws appends a list of raw values (null when nil).
func appendRaws(b []byte, raws []json.RawMessage) []byte {
	if raws == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, raw := range raws {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendRaw(b, raw)
	}
	return append(b, ']')
}

// appendHead appends the start of an SSE message of type typ up to its
// data's sequence number, seq.
func appendHead(b []byte, typ evType, seq int64) []byte {
	return strconv.AppendInt(append(b, typ.head...), seq, 10)
}

// An evType is an event type and the start of its SSE messages up to
// their data's sequence number (appendTypeHead's), made once.
type evType struct{ name, head string }

func newEvType(name string) evType {
	return evType{name, string(appendTypeHead(nil, name))}
}

// The event types whose events the encoder writes by hand, their start
// made once (the deltas' start is made once per part, see
// Encoder.deltas).
var (
	evCreated          = newEvType(wire.EvCreated)
	evInProgress       = newEvType(wire.EvInProgress)
	evCompleted        = newEvType(wire.EvCompleted)
	evIncomplete       = newEvType(wire.EvIncomplete)
	evFailed           = newEvType(wire.EvFailed)
	evItemAdded        = newEvType(wire.EvItemAdded)
	evItemDone         = newEvType(wire.EvItemDone)
	evPartAdded        = newEvType(wire.EvPartAdded)
	evPartDone         = newEvType(wire.EvPartDone)
	evTextDone         = newEvType(wire.EvTextDone)
	evArgsDone         = newEvType(wire.EvArgsDone)
	evRefusalDone      = newEvType(wire.EvRefusalDone)
	evSummaryPartAdded = newEvType(wire.EvSummaryPartAdded)
	evSummaryPartDone  = newEvType(wire.EvSummaryPartDone)
	evSummaryDone      = newEvType(wire.EvSummaryDone)
)

// appendTypeHead appends the start of an SSE message of type typ up to
// its data's sequence number: the event line, and the data line's
// {"type":typ,"sequence_number":. typ is one of respwire's event types,
// which a JSON string holds as they are (TestEventTypes): copied, not
// escaped.
func appendTypeHead(b []byte, typ string) []byte {
	b = append(append(b, "event: "...), typ...)
	b = append(append(b, "\ndata: {\"type\":\""...), typ...)
	return append(b, `","sequence_number":`...)
}

// appendItemRef appends the fields after the sequence number of an event
// about item id at output index idx: its item_id and output_index.
func appendItemRef(b []byte, id string, idx int) []byte {
	b = jsontext.AppendMarshalString(append(b, `,"item_id":`...), id)
	return num(b, `,"output_index":`, int64(idx))
}

func num(b []byte, key string, n int64) []byte {
	return strconv.AppendInt(append(b, key...), n, 10)
}
