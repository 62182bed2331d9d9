package jsonenv

import (
	wire "github.com/agentstream/agentstream/internal/jsonenvwire"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// unmarshalEnvelope decodes an envelope (valid UTF-8, as badutf8.Fix
// returns it) as json.Unmarshal does, in one
// pass when jsontext.Reader can, else with encoding/json, which gives
// the errors.
func (d *Decoder) unmarshalEnvelope(payload []byte, env *wire.Envelope) error {
	return jsontext.DecodeValid(&d.jr, payload, env, d.readEnvelopeFields)
}

func (d *Decoder) readEnvelopeFields(r *jsontext.Reader, env *wire.Envelope) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			if !r.Null() {
				env.Type = d.intern(r.StrValid(), 0)
			}
		case "agent":
			if !r.Null() {
				env.Agent = d.intern(r.StrValid(), 1)
			}
		case "final":
			if !r.Null() {
				env.Final = r.Bool()
			}
		case "delta":
			if !r.Null() {
				env.Delta = d.str(r)
			}
		case "id":
			r.OptStringField(&env.ID)
		case "name":
			r.OptStringField(&env.Name)
		case "src":
			r.OptStringField(&env.Src)
		case "media_type":
			r.OptStringField(&env.MediaType)
		case "citation_type":
			r.OptStringField(&env.CitationType)
		case "document_title":
			r.OptStringField(&env.DocumentTitle)
		case "url":
			r.OptStringField(&env.URL)
		case "title":
			r.OptStringField(&env.Title)
		case "document_index":
			r.OptIntField(&env.DocumentIndex)
		case "start_char_index":
			r.OptIntField(&env.StartCharIndex)
		case "end_char_index":
			r.OptIntField(&env.EndCharIndex)
		case "start_page_number":
			r.OptIntField(&env.StartPageNumber)
		case "end_page_number":
			r.OptIntField(&env.EndPageNumber)
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

// str reads a string value, a copy (the payload is borrowed). The
// payload is valid UTF-8 (it went through badutf8.Fix).
func (d *Decoder) str(r *jsontext.Reader) string {
	b := r.StrValid()
	if len(b) == 0 {
		return ""
	}
	return string(b)
}
