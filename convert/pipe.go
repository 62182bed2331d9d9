package convert

import (
	"errors"
	"io"

	"github.com/agentstream/agentstream/event"
)

// Pipe decodes every event dec yields and encodes it with enc, calling
// flush, if not nil, after each event so that output keeps pace with
// input. Callers that read through FlushOnIdle pass nil: their output is
// flushed when the input has nothing more buffered, which keeps the same
// pace with far fewer writes. Problems in
// the input (*event.ParseError) go to problem, which returns false to stop
// (--strict) or true to carry on with what is intact. Pipe returns nil at
// the end of the input, the problem that stopped it, or the first fatal
// read, encode or flush error. It does not close enc.
func Pipe(dec event.Decoder, enc event.Encoder, flush func() error, problem func(error) bool) error {
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var perr *event.ParseError
			if errors.As(err, &perr) {
				if !problem(err) {
					return err
				}
				continue
			}
			return err
		}
		if err := enc.Encode(ev); err != nil {
			return err
		}
		if flush != nil {
			if err := flush(); err != nil {
				return err
			}
		}
	}
}
