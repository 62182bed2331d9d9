package corpustest

import (
	"io"
	"iter"

	"github.com/agentstream/agentstream/event"
)

// events yields dec's events and problems up to io.EOF or a fatal error.
func events(dec event.Decoder) iter.Seq2[event.Event, error] {
	return func(yield func(event.Event, error) bool) {
		for {
			ev, err := dec.Next()
			if err == io.EOF || !yield(ev, err) {
				return
			}
			if _, ok := err.(*event.ParseError); err != nil && !ok {
				return
			}
		}
	}
}
