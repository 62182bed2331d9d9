package logline

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Splices are the logs of subagents that a decoder reads in the middle of
// its own output: each, once the output has returned what came before it,
// to its end.
type Splices struct{ q []splice }

type splice struct {
	at   int // o.Returned() when it is due
	dec  event.Decoder
	file io.Closer
}

// Add queues dec, which reads file, after what o holds now (its held
// start released).
func (s *Splices) Add(o *Out, dec event.Decoder, file io.Closer) {
	o.Release()
	s.q = append(s.q, splice{at: o.Returned() + o.Pending(), dec: dec, file: file})
}

// Next returns (ok) the next event or problem of the splice due now. A
// splice ends, its file closed, at io.EOF, or at an error of its reading
// (not a *event.ParseError): then failed(dec, err) is the problem
// returned.
func (s *Splices) Next(o *Out, failed func(dec event.Decoder, err error) error) (ev event.Event, ok bool, err error) {
	for len(s.q) > 0 && s.q[0].at == o.Returned() {
		sp := s.q[0]
		ev, err = sp.dec.Next()
		if err == nil || decoderstate.IsParseError(err) {
			return ev, true, err
		}
		sp.file.Close()
		s.q[0] = splice{}
		s.q = s.q[1:]
		if err != io.EOF {
			return nil, true, failed(sp.dec, err)
		}
	}
	return nil, false, nil
}
