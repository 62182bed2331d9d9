package acp

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// New returns an encoder configured by the format options o: the
// constructor convert's format table lists.
func New(w io.Writer, o *format.Options) event.Encoder {
	return NewEncoder(w, &Config{Agent: o.Agent, Warn: o.Warn})
}
