package convert

import (
	"errors"
	"io"

	"github.com/agentstream/agentstream/event"
)

// PipeOptions configure Pipe. The zero value (or nil) is valid: no flush,
// and Pipe stops at the first problem in the input.
type PipeOptions struct {
	// Flush is called after each event is encoded (and FlushEncoder),
	// so that output keeps pace with input (a bufio.Writer's Flush,
	// say). Callers that read
	// through FlushOnIdle leave it nil: their output is flushed when the
	// input has nothing more buffered, which keeps the same pace with far
	// fewer writes.
	Flush func() error
	// Problem receives each problem in the input (*event.ParseError) and
	// returns true to carry on with what is intact, false to stop. Nil
	// stops at the first problem, which Pipe returns.
	Problem func(error) bool
}

// Pipe decodes every event dec yields and encodes it with enc. Pipe
// returns nil at the end of the input, the problem that stopped it, or the
// first fatal read, encode or flush error. It does not close enc: the
// caller ends it with event.End, cut when a problem it was given wrapped
// event.ErrTruncated. When it stops before the input's end, what enc
// holds back to see whether it is abandoned (AbandonHold) was read and
// is written (ReleaseEncoder).
func Pipe(dec event.Decoder, enc event.Encoder, o *PipeOptions) error {
	err := pipe(dec, enc, o)
	if err != nil {
		_ = ReleaseEncoder(enc) // the stop's error is the one to report
	}
	return err
}

// ReleaseEncoder writes out what enc holds back until it knows the
// events were not abandoned (it has a Release method: AbandonHold, and
// Guard in front of one), for an input that stopped before its end.
func ReleaseEncoder(enc event.Encoder) error {
	if r, ok := enc.(interface{ Release() error }); ok {
		return r.Release()
	}
	return nil
}

func pipe(dec event.Decoder, enc event.Encoder, o *PipeOptions) error {
	if o == nil {
		o = &PipeOptions{}
	}
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var perr *event.ParseError
			if errors.As(err, &perr) {
				if o.Problem == nil || !o.Problem(err) {
					return err
				}
				continue
			}
			return err
		}
		if err := enc.Encode(ev); err != nil {
			return err
		}
		if o.Flush != nil {
			// What the encoder holds back goes too (FlushEncoder).
			if err := FlushEncoder(enc); err != nil {
				return err
			}
			if err := o.Flush(); err != nil {
				return err
			}
		}
	}
}
