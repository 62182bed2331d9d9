package jsonenv

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// unmarshalEnvelope decodes an envelope as json.Unmarshal does, in one
// pass when jsontext.Reader can, else with encoding/json, which gives
// the errors.
func (d *Decoder) unmarshalEnvelope(payload []byte, env *Envelope) error {
	d.jr.Reset(payload)
	if d.readEnvelope(env) && d.jr.End() {
		return nil
	}
	*env = Envelope{}
	return json.Unmarshal(payload, env)
}

func (d *Decoder) readEnvelope(env *Envelope) bool {
	r := &d.jr
	if !r.Object() {
		return false
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			if !r.Null() {
				env.Type = d.intern(r.Str(), 0)
			}
		case "agent":
			if !r.Null() {
				env.Agent = d.intern(r.Str(), 1)
			}
		case "final":
			if !r.Null() {
				env.Final = r.Bool()
			}
		case "delta":
			if !r.Null() {
				env.Delta = r.String()
			}
		case "id":
			readOptString(r, &env.ID)
		case "name":
			readOptString(r, &env.Name)
		case "src":
			readOptString(r, &env.Src)
		case "media_type":
			readOptString(r, &env.MediaType)
		case "citation_type":
			readOptString(r, &env.CitationType)
		case "document_title":
			readOptString(r, &env.DocumentTitle)
		case "url":
			readOptString(r, &env.URL)
		case "title":
			readOptString(r, &env.Title)
		case "document_index":
			readOptInt(r, &env.DocumentIndex)
		case "start_char_index":
			readOptInt(r, &env.StartCharIndex)
		case "end_char_index":
			readOptInt(r, &env.EndCharIndex)
		case "start_page_number":
			readOptInt(r, &env.StartPageNumber)
		case "end_page_number":
			readOptInt(r, &env.EndPageNumber)
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

// intern returns b as a string, the one it returned last in slot i if
// that is equal: an envelope's type and agent repeat envelope after
// envelope.
func (d *Decoder) intern(b []byte, i int) string {
	if string(b) != d.last[i] {
		d.last[i] = string(b)
	}
	return d.last[i]
}

// readOptString reads a *string field: null sets it to nil.
func readOptString(r *jsontext.Reader, s **string) {
	if r.Null() {
		*s = nil
		return
	}
	v := r.String()
	*s = &v
}

// readOptInt reads a *int64 field: null sets it to nil.
func readOptInt(r *jsontext.Reader, n **int64) {
	if r.Null() {
		*n = nil
		return
	}
	v := r.Int()
	*n = &v
}
