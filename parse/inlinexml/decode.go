package inlinexml

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/internal/rewrite"
)

// Decoder reads plain model text written in the inline XML tool protocol
// and yields canonical events. See the package documentation for the
// grammar and tolerance rules.
type Decoder struct {
	p *rewrite.Plain
}

// NewDecoder returns a decoder reading model text from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	if cfg == nil {
		cfg = &Config{}
	}
	ids := 0
	return &Decoder{rewrite.NewPlain(r, newScanner(compile(cfg), &ids), cfg.Source, cfg.Agent)}
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.p.Next() }

// Wrap returns a decoder that yields dec's events with the content of every
// Text block read as inline XML tool protocol text: thinking, text, tool
// calls and the final result replace the block's deltas; every other event
// passes through. cfg.Source names the text in errors; cfg.Agent is unused
// (the events keep dec's agents). cfg may be nil.
func Wrap(dec event.Decoder, cfg *Config) event.Decoder {
	if cfg == nil {
		cfg = &Config{}
	}
	g := compile(cfg)
	ids := 0
	return rewrite.Wrap(dec, func() rewrite.Scanner { return newScanner(g, &ids) }, cfg.Source)
}
