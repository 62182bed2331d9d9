package xmltools

import (
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/internal/rewrite"
)

// Decoder reads plain model text written with the XML tool transport and
// yields canonical events. See the package documentation for the grammar
// and tolerance rules.
type Decoder struct {
	p *rewrite.Plain
}

// NewDecoder returns a decoder reading model text from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	if cfg == nil {
		cfg = &Config{}
	}
	c := *cfg
	return &Decoder{rewrite.NewPlain(r, newScanner(&c), c.Source, c.Agent)}
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.p.Next() }

// Wrap returns a decoder that yields dec's events with the content of every
// Text block read as XML tool transport text; every other event passes
// through. The nonce, when detected, is detected per agent. cfg may be nil.
func Wrap(dec event.Decoder, cfg *Config) event.Decoder {
	if cfg == nil {
		cfg = &Config{}
	}
	c := *cfg
	return rewrite.Wrap(dec, func() rewrite.Scanner { return newScanner(&c) }, c.Source)
}

// Detect reports whether an input whose first unit is h is model text
// using the transport: its first line holds a tag <ai-agent-XXXXXXXX-
// (eight hex digits). Plain text is ambiguous, so the match is a guess.
func Detect(h format.Head) bool {
	if h.SSE {
		return false
	}
	p := string(h.Payload)
	for {
		i := strings.Index(p, "<"+Prefix)
		if i < 0 {
			return false
		}
		p = p[i+1+len(Prefix):]
		if len(p) > 8 && isNonce(p[:8]) && p[8] == '-' {
			return true
		}
	}
}
