package respwire

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/openai"
)

// Reader decodes stream events for the decoder's hot path: in one pass
// with jsontext.Reader when it can, else with encoding/json, which gives
// the errors and their wording. It reuses its buffers from event to
// event: an event's SequenceNumber, Response, Item and Part, and the raw
// fields of its item (Raw, Arguments, Action, ...), are valid until the
// next Decode; a caller that keeps one copies it. The slices of parts and
// annotations are their own. It reads the event, its response and its
// item itself (the item's raw fields as slices of the event's bytes, ids
// and models kept while they repeat: what a generated reader, which
// decodes into a zero value, cannot); usage, parts and the vocabulary
// with the readers generated from wire.go, which read annotations with
// readAnnotation.
type Reader struct {
	jr     jsontext.Reader
	data   []byte // the event's bytes
	seq    int64
	resp   Response
	item   Item
	part   Part
	itemID string // the last item_id read, reused while it repeats
	typ    string // the last type read
	respID string // the last response id and model read
	model  string
}

// Decode decodes data into ev as json.Unmarshal into a zero StreamEvent
// does. The caller may reuse data once it returns (a framer's borrowed
// message): the Reader keeps its own copy.
func (er *Reader) Decode(data []byte, ev *StreamEvent) error {
	er.data = append(er.data[:0], data...)
	*ev = StreamEvent{}
	er.jr.Reset(er.data)
	if er.read(ev) && er.jr.End() {
		return nil
	}
	*ev = StreamEvent{}
	return json.Unmarshal(er.data, ev)
}

// The keys of StreamEvent whose values are objects: encoding/json merges
// a repeated one into the first, which Reader leaves to it.
const (
	seenResponse = 1 << iota
	seenItem
	seenPart
	seenAnnotation
)

func (er *Reader) read(ev *StreamEvent) bool {
	r := &er.jr
	if !r.Object() {
		return false
	}
	seen := 0
	once := func(bit int) {
		if seen&bit != 0 {
			r.Fail()
		}
		seen |= bit
	}
	// The keys of a delta event in the order the API writes them, asked
	// for in turn (jsontext.Reader.KeyIs: a comparison each, where Key
	// scans these long keys); the loop reads the rest, and any event
	// written otherwise.
	if r.KeyIs(`"type":`) {
		er.readType(ev)
		if r.KeyIs(`"sequence_number":`) {
			er.readSeq(ev)
			if r.KeyIs(`"item_id":`) {
				er.readItemID(ev)
				if r.KeyIs(`"output_index":`) {
					jsontext.ReadInt(r, &ev.OutputIndex)
					if r.KeyIs(`"content_index":`) {
						jsontext.ReadInt(r, &ev.ContentIndex)
						if r.KeyIs(`"delta":`) {
							r.StringField(&ev.Delta)
						}
					}
				}
			}
		}
		if r.ObjectEnd() {
			return !r.Failed()
		}
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			er.readType(ev)
		case "sequence_number":
			er.readSeq(ev)
		case "response":
			once(seenResponse)
			if r.Null() {
				continue
			}
			er.resp = Response{}
			er.readResponse(&er.resp)
			ev.Response = &er.resp
		case "output_index":
			jsontext.ReadInt(r, &ev.OutputIndex)
		case "content_index":
			jsontext.ReadInt(r, &ev.ContentIndex)
		case "item_id":
			er.readItemID(ev)
		case "item":
			once(seenItem)
			if r.Null() {
				continue
			}
			er.item = Item{}
			ev.Item = &er.item
			er.readItem(ev.Item)
		case "part":
			once(seenPart)
			if r.Null() {
				continue
			}
			er.part = Part{}
			ev.Part = &er.part
			readPart(r, ev.Part)
		case "delta":
			r.StringField(&ev.Delta)
		case "arguments":
			r.StringField(&ev.Arguments)
		case "input":
			r.StringField(&ev.Input)
		case "annotation":
			once(seenAnnotation)
			if r.Null() {
				continue
			}
			ev.Annotation = new(Annotation)
			readAnnotation(r, ev.Annotation)
		case "code":
			ev.Code = openai.ReadScalar(r)
		case "message":
			r.StringField(&ev.Message)
		case "param":
			ev.Param = openai.ReadScalar(r)
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

func (er *Reader) readType(ev *StreamEvent) {
	r := &er.jr
	if !r.Null() {
		if b := r.Str(); string(b) == er.typ {
			ev.Type = er.typ // the type of the event before: deltas come in runs
		} else {
			ev.Type = internEv(b)
			er.typ = ev.Type
		}
	}
}

func (er *Reader) readSeq(ev *StreamEvent) {
	r := &er.jr
	if r.Null() {
		ev.SequenceNumber = nil
		return
	}
	er.seq = r.Int()
	ev.SequenceNumber = &er.seq
}

func (er *Reader) readItemID(ev *StreamEvent) {
	r := &er.jr
	if !r.Null() {
		ev.ItemID = er.id(r.Str())
	}
}

func (er *Reader) readResponse(rs *Response) {
	r := &er.jr
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "error":
			if r.Null() {
				rs.Error = nil
				continue
			}
			openai.ReadAPIError(r, jsontext.Ensure(&rs.Error))
		case "id":
			if !r.Null() {
				rs.ID = intern(r.Str(), &er.respID)
			}
		case "created_at":
			rs.CreatedAt = raw(r)
		case "model":
			if !r.Null() {
				rs.Model = intern(r.Str(), &er.model)
			}
		case "status":
			if !r.Null() {
				rs.Status = internStatus(r.Str())
			}
		case "service_tier":
			r.StringField(&rs.ServiceTier)
		case "incomplete_details":
			if r.Null() {
				rs.IncompleteDetails = nil
				continue
			}
			if rs.IncompleteDetails == nil {
				rs.IncompleteDetails = new(struct {
					Reason string `json:"reason"`
				})
			}
			if r.Object() {
				for key, ok := r.Key(); ok; key, ok = r.Key() {
					if string(key) == "reason" {
						r.StringField(&rs.IncompleteDetails.Reason)
					} else {
						r.Skip()
					}
				}
			}
		case "usage":
			if r.Null() {
				rs.Usage = nil
				continue
			}
			readUsage(r, jsontext.Ensure(&rs.Usage))
		default:
			r.Skip()
		}
	}
}

// id returns an item id as a string, the last one if it is equal: an
// item's events repeat its id.
func (er *Reader) id(b []byte) string { return intern(b, &er.itemID) }

// intern returns b as a string, *last if it is equal, which it becomes.
func intern(b []byte, last *string) string {
	if string(b) != *last {
		*last = string(b)
	}
	return *last
}

// readItem reads an output item; its Raw and raw fields are slices of
// the event's bytes.
func (er *Reader) readItem(it *Item) {
	r := &er.jr
	r.Peek() // past white space: the item's text starts at its first byte
	off := r.Offset()
	if !r.Object() {
		return
	}
	seen := 0
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "id":
			if !r.Null() {
				it.ID = er.id(r.Str())
			}
		case "type":
			if !r.Null() {
				it.Type = word(r.Str())
			}
		case "status":
			if !r.Null() {
				it.Status = word(r.Str())
			}
		case "content":
			seen = readParts(r, &it.Content, seen, 1)
		case "summary":
			seen = readParts(r, &it.Summary, seen, 2)
		case "encrypted_content":
			r.StringField(&it.EncryptedContent)
		case "call_id":
			r.StringField(&it.CallID)
		case "name":
			r.StringField(&it.Name)
		case "arguments":
			it.Arguments = raw(r)
		case "input":
			r.StringField(&it.Input)
		case "server_label":
			r.StringField(&it.ServerLabel)
		case "output":
			r.OptStringField(&it.Output)
		case "error":
			it.Error = raw(r)
		case "action":
			it.Action = raw(r)
		case "queries":
			it.Queries = raw(r)
		case "results":
			it.Results = raw(r)
		case "code":
			r.OptStringField(&it.Code)
		case "container_id":
			r.StringField(&it.ContainerID)
		case "outputs":
			it.Outputs = raw(r)
		case "result":
			r.OptStringField(&it.Result)
		default:
			r.Skip()
		}
	}
	if !r.Failed() {
		it.Raw = r.Since(off)
	}
}

// raw reads any value into a json.RawMessage field: its text (null
// included, as encoding/json keeps it).
func raw(r *jsontext.Reader) json.RawMessage { return r.Skip() }

// readParts reads an array of parts (or null) into *ps; bit marks the
// key in seen, and a repeated one fails (encoding/json would decode it
// into the first's elements).
func readParts(r *jsontext.Reader, ps *[]Part, seen, bit int) int {
	if seen&bit != 0 {
		r.Fail()
	}
	if r.Null() {
		*ps = nil
		return seen | bit
	}
	if !r.Array() {
		return seen | bit
	}
	*ps = []Part{}
	for r.More() {
		*ps = append(*ps, Part{})
		if !r.Null() {
			readPart(r, &(*ps)[len(*ps)-1])
		}
	}
	return seen | bit
}

// word returns an item type or status as a string, without allocating
// for the frequent ones.
func word(b []byte) string {
	switch string(b) {
	case ItemMessage:
		return ItemMessage
	case ItemReasoning:
		return ItemReasoning
	case ItemFunctionCall:
		return ItemFunctionCall
	case ItemCustomToolCall:
		return ItemCustomToolCall
	case ItemWebSearch:
		return ItemWebSearch
	case ItemMCPCall:
		return ItemMCPCall
	case StatusInProgress:
		return StatusInProgress
	case StatusCompleted:
		return StatusCompleted
	}
	return string(b)
}

// readAnnotation reads an annotation as its UnmarshalJSON does, and so
// the readers generated for the types that hold one; its Raw is a copy.
// It leaves null (which UnmarshalJSON gets in an array) to encoding/json.
func readAnnotation(r *jsontext.Reader, a *Annotation) {
	if r.Peek() == 'n' {
		r.Fail()
		return
	}
	off := r.Offset()
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			r.StringField(&a.Type)
		case "url":
			r.OptStringField(&a.URL)
		case "title":
			r.OptStringField(&a.Title)
		case "start_index":
			r.OptIntField(&a.StartIndex)
		case "end_index":
			r.OptIntField(&a.EndIndex)
		case "filename":
			r.OptStringField(&a.Filename)
		case "index":
			r.OptIntField(&a.Index)
		default:
			r.Skip()
		}
	}
	if !r.Failed() {
		a.Raw = append(json.RawMessage(nil), r.Since(off)...) // kept until its text part ends
	}
}
