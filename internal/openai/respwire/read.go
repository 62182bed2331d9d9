package respwire

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openai"
)

// Reader decodes stream events for the decoder's hot path: in one pass
// with jsontext.Reader when it can, else with encoding/json, which gives
// the errors and their wording. It reuses its buffers from event to
// event: an event's SequenceNumber, Response, Item and Part, and the raw
// fields of its item (Raw, Arguments, Action, ...), are valid until the
// next Decode; a caller that keeps one copies it. The slices of parts and
// annotations are their own.
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
// does.
func (er *Reader) Decode(data string, ev *StreamEvent) error {
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
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			if !r.Null() {
				if b := r.Str(); string(b) == er.typ {
					ev.Type = er.typ // the type of the event before: deltas come in runs
				} else {
					ev.Type = eventType(b)
					er.typ = ev.Type
				}
			}
		case "sequence_number":
			if r.Null() {
				ev.SequenceNumber = nil
				continue
			}
			er.seq = r.Int()
			ev.SequenceNumber = &er.seq
		case "response":
			once(seenResponse)
			if r.Null() {
				continue
			}
			er.resp = Response{}
			er.readResponse(&er.resp)
			ev.Response = &er.resp
		case "output_index":
			if !r.Null() {
				ev.OutputIndex = readInt(r)
			}
		case "content_index":
			if !r.Null() {
				ev.ContentIndex = readInt(r)
			}
		case "item_id":
			if !r.Null() {
				ev.ItemID = er.id(r.Str())
			}
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
			if rs.Error == nil {
				rs.Error = new(openai.APIError)
			}
			openai.ReadAPIError(r, rs.Error)
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
				rs.Status = word(r.Str())
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
			if rs.Usage == nil {
				rs.Usage = new(Usage)
			}
			readUsage(r, rs.Usage)
		default:
			r.Skip()
		}
	}
}

func readUsage(r *jsontext.Reader, u *Usage) {
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "input_tokens":
			readCount(r, &u.InputTokens)
		case "output_tokens":
			readCount(r, &u.OutputTokens)
		case "total_tokens":
			readCount(r, &u.TotalTokens)
		case "input_tokens_details":
			readDetail(r, "cached_tokens", &u.InputTokensDetails.CachedTokens)
		case "output_tokens_details":
			readDetail(r, "reasoning_tokens", &u.OutputTokensDetails.ReasoningTokens)
		default:
			r.Skip()
		}
	}
}

func readCount(r *jsontext.Reader, n *int64) {
	if !r.Null() {
		*n = r.Int()
	}
}

// readDetail reads an object (or null) of which only the count name is
// read.
func readDetail(r *jsontext.Reader, name string, n *int64) {
	if r.Null() || !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		if string(key) == name {
			readCount(r, n)
		} else {
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
		readPart(r, &(*ps)[len(*ps)-1])
	}
	return seen | bit
}

func readPart(r *jsontext.Reader, p *Part) {
	if !r.Object() {
		return
	}
	anns := false
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			if !r.Null() {
				p.Type = word(r.Str())
			}
		case "text":
			r.StringField(&p.Text)
		case "refusal":
			r.StringField(&p.Refusal)
		case "annotations":
			if anns {
				r.Fail()
			}
			anns = true
			if r.Null() {
				p.Annotations = nil
				continue
			}
			if !r.Array() {
				continue
			}
			p.Annotations = []Annotation{}
			for r.More() {
				if r.Peek() == 'n' {
					r.Fail() // encoding/json calls UnmarshalJSON with null
				}
				p.Annotations = append(p.Annotations, Annotation{})
				readAnnotation(r, &p.Annotations[len(p.Annotations)-1])
			}
		default:
			r.Skip()
		}
	}
}

// readAnnotation reads an annotation; its Raw is a copy.
func readAnnotation(r *jsontext.Reader, a *Annotation) {
	r.Peek()
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

// readInt reads a number into an int field.
func readInt(r *jsontext.Reader) int {
	n := r.Int()
	if int64(int(n)) != n {
		r.Fail()
	}
	return int(n)
}

// eventType returns an event type as a string, without allocating for
// the types this package names.
func eventType(b []byte) string {
	switch string(b) {
	case EvTextDelta:
		return EvTextDelta
	case EvSummaryDelta:
		return EvSummaryDelta
	case EvReasoningDelta:
		return EvReasoningDelta
	case EvArgsDelta:
		return EvArgsDelta
	case EvCustomInputDelta:
		return EvCustomInputDelta
	case EvMCPArgsDelta:
		return EvMCPArgsDelta
	case EvRefusalDelta:
		return EvRefusalDelta
	case EvItemAdded:
		return EvItemAdded
	case EvItemDone:
		return EvItemDone
	case EvPartAdded:
		return EvPartAdded
	case EvPartDone:
		return EvPartDone
	case EvTextDone:
		return EvTextDone
	case EvCreated:
		return EvCreated
	case EvInProgress:
		return EvInProgress
	case EvCompleted:
		return EvCompleted
	case EvSummaryPartAdded:
		return EvSummaryPartAdded
	case EvSummaryPartDone:
		return EvSummaryPartDone
	case EvSummaryDone:
		return EvSummaryDone
	case EvReasoningDone:
		return EvReasoningDone
	case EvArgsDone:
		return EvArgsDone
	case EvCustomInputDone:
		return EvCustomInputDone
	case EvMCPArgsDone:
		return EvMCPArgsDone
	case EvRefusalDone:
		return EvRefusalDone
	case EvAnnotation:
		return EvAnnotation
	}
	return string(b)
}

// word returns an item or part type or a status as a string, without
// allocating for the frequent ones.
func word(b []byte) string {
	switch string(b) {
	case ItemMessage:
		return ItemMessage
	case ItemReasoning:
		return ItemReasoning
	case ItemFunctionCall:
		return ItemFunctionCall
	case PartOutputText:
		return PartOutputText
	case PartSummaryText:
		return PartSummaryText
	case ItemCustomToolCall:
		return ItemCustomToolCall
	case ItemWebSearch:
		return ItemWebSearch
	case ItemMCPCall:
		return ItemMCPCall
	case "in_progress":
		return "in_progress"
	case "completed":
		return "completed"
	}
	return string(b)
}
