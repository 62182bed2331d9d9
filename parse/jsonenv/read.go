package jsonenv

import (
	"bytes"

	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
)

// unmarshalEnvelope decodes an envelope (valid UTF-8, as badutf8.Fix
// returns it) as json.Unmarshal does, in one pass with the generated
// reader when it can, else with encoding/json, which gives the errors.
func (d *Decoder) unmarshalEnvelope(payload []byte, env *wire.Envelope) error {
	return jsontext.DecodeValid(&d.jr, payload, env, wire.ReadEnvelope)
}

// quickEnvelope decodes the envelope as the producer writes it, and as
// nearly every envelope of a recording is:
//
//	{"type":"T","agent":"A","final":B,"delta":"D"}
//	{"type":"T","agent":"A","final":B,"delta":"D","id":"I","name":"N"}
//
// keys in that order, compact, T, A, I and N without escapes (the second
// shape is a tool call's or result's). It sets d.env's type, agent,
// final, id and name, and d.delta (borrowed from the payload or the
// Reader's scratch, valid until the next envelope), as the Reader gives
// them, and reports false, having set nothing else, for anything else:
// decode then reads the payload the general way (the generated reader,
// a key switch per member).
func (d *Decoder) quickEnvelope(p []byte) bool {
	// The keys are compared with constants of at most 16 bytes, which
	// the compiler compares with loads, not a call.
	if len(p) < 9 || string(p[:9]) != `{"type":"` {
		return false
	}
	typ, p, ok := d.plain(p[9:], 0)
	if !ok || len(p) < 10 || string(p[:10]) != `,"agent":"` {
		return false
	}
	agent, p, ok := d.plain(p[10:], 1)
	if !ok || len(p) < 9 || string(p[:9]) != `,"final":` {
		return false
	}
	p = p[9:]
	var final bool
	switch {
	case len(p) >= 4 && string(p[:4]) == "true":
		final, p = true, p[4:]
	case len(p) >= 5 && string(p[:5]) == "false":
		p = p[5:]
	default:
		return false
	}
	if len(p) < 9 || string(p[:9]) != `,"delta":` {
		return false
	}
	p = p[9:]
	r := &d.jr
	r.ResetValid(p) // a part of a valid payload, starting at a '"'
	delta := r.StrValid()
	if r.Failed() {
		return false
	}
	p = p[r.Offset():]
	var id, name []byte
	if len(p) >= 7 && string(p[:7]) == `,"id":"` {
		if id, p, ok = plainBytes(p[7:]); !ok || len(p) < 9 || string(p[:9]) != `,"name":"` {
			return false
		}
		if name, p, ok = plainBytes(p[9:]); !ok {
			return false
		}
	}
	if string(p) != "}" {
		return false
	}
	if d.extras {
		d.env, d.extras = wire.Envelope{}, false
	}
	d.env.Type, d.env.Agent, d.env.Final, d.env.Delta = typ, agent, final, ""
	if id != nil {
		i, n := string(id), string(name)
		d.env.ID, d.env.Name, d.extras = &i, &n, true
	}
	d.delta = delta
	return true
}

// plain reads a string's bytes up to its closing quote, when they are
// what the string holds (no escape, no control byte), and returns it as
// a string, the one it returned last in slot i if that is equal (type and
// agent repeat envelope after envelope: no allocation, and no check of
// the bytes), and p past the quote.
func (d *Decoder) plain(p []byte, i int) (string, []byte, bool) {
	// The last string is plain: if p starts with it and a quote, that
	// quote is the closing one; no search (agent ids are 36 bytes).
	if last := d.plainLast[i]; len(p) > len(last) && p[len(last)] == '"' && string(p[:len(last)]) == last {
		return last, p[len(last)+1:], true
	}
	v, rest, ok := plainBytes(p)
	if !ok {
		return "", p, false
	}
	if string(v) != d.plainLast[i] {
		d.plainLast[i] = string(v)
	}
	return d.plainLast[i], rest, true
}

// plainBytes returns a string's bytes up to its closing quote, when they
// are what the string holds (no escape, no control byte), and p past the
// quote. v is not nil when ok.
func plainBytes(p []byte) (v, rest []byte, ok bool) {
	n := bytes.IndexByte(p, '"')
	if n < 0 {
		return nil, p, false
	}
	for _, c := range p[:n] {
		if c == '\\' || c < 0x20 {
			return nil, p, false
		}
	}
	return p[:n:n], p[n+1:], true
}
