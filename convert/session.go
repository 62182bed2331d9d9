package convert

import (
	"bufio"
	"errors"
	"io"
	"sync"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// SessionOptions configure a Session.
type SessionOptions struct {
	// From is the input's format; the zero Format detects it from the
	// input's first unit (Detect), as --from auto does.
	From Format
	// To is the output format. It must have an encoder.
	To Format
	// Decode and Encode are the options of the decoder and the encoder
	// (nil: every default).
	Decode, Encode *format.Options
	// Problem receives each problem in the input, as PipeOptions.Problem
	// does (nil stops at the first), and the encoder's report of blocks
	// left open at the end.
	Problem func(error) bool
	// End, when set, ends the input after an event for which it returns
	// true, as if the next input were the end: the session then writes
	// the end of the output and Done reports true. Nothing after that
	// event is read. (An SSE input with Decode.StopAtDone ends at
	// data: [DONE] the same way.)
	End func(event.Event) bool
}

// A Session converts one input that arrives in pieces (the messages of
// a stream engine, say) rather than as a reader: Write pushes the next
// bytes of the input and writes to the session's writer all the output
// those bytes complete; Close ends the input and writes the rest. The
// output is byte for byte what Pipe writes over the whole input, followed
// by the encoder's end (written only when the input held an event of its
// format, as convert does), wherever the input is split. (The model-text
// formats read by a guess, inlinexml and xmltools, make a text delta of
// each piece of text they are given: their output has the same text
// wherever the input is split, in other deltas.)
//
// A session holds what its decoder and encoder hold, bounded as Pipe's
// state is (Decode.MaxEventBytes), plus nothing of the input: Write
// returns only once the decoder has taken all of p and asks for more.
// The decoder runs in a goroutine of the session's own, which only ever
// runs while Write or Close waits for it: so the session's writer and
// Problem are called only during Write and Close, from one goroutine at
// a time, and the output is the same on every run. Close must be called
// to end that goroutine. A Session is safe for use by several goroutines;
// their Writes are taken in turn.
type Session struct {
	mu     sync.Mutex // one Write or Close at a time
	in     chan []byte
	idle   chan struct{}
	done   chan struct{}
	closed bool
	ended  bool  // the input ended in-band (End, [DONE]); set before done closes
	err    error // why the goroutine ended; read after done
}

// ErrSessionClosed is returned by Write after Close.
var ErrSessionClosed = errors.New("session closed")

// NewSession returns a session writing the output to w. A session whose
// To has no encoder fails its first Write and its Close.
func NewSession(w io.Writer, o *SessionOptions) *Session {
	s := &Session{in: make(chan []byte), idle: make(chan struct{}), done: make(chan struct{})}
	go s.run(w, o)
	return s
}

// Write converts p, the next bytes of the input: the output they complete
// is written before Write returns. It returns len(p) and nil, or the
// problem that stopped the conversion (see SessionOptions.Problem) or a
// fatal error, then and on every later Write. After the input ended
// in-band (Done), Write takes nothing more and returns 0 and io.EOF.
func (s *Session) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrSessionClosed
	}
	if len(p) == 0 {
		return 0, nil
	}
	select {
	case s.in <- p:
	case <-s.done:
		return 0, s.endErr()
	}
	select {
	case <-s.idle:
		return len(p), nil
	case <-s.done:
		if s.err != nil {
			return 0, s.err
		}
		return len(p), nil
	}
}

// endErr is what a Write that finds the session ended returns.
func (s *Session) endErr() error {
	if s.err != nil {
		return s.err
	}
	return io.EOF
}

// Close ends the input and writes the rest of the output: what the
// decoder held back, and the encoder's end. It returns the error that
// stopped the session, if any. Close is idempotent.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.in)
	}
	<-s.done
	return s.err
}

// Done reports whether the input ended in-band (at an event End
// accepted, or at data: [DONE] with StopAtDone): the output is then
// complete, and Close writes nothing more.
func (s *Session) Done() bool {
	select {
	case <-s.done:
		return s.ended
	default:
		return false
	}
}

// run is the session's goroutine: it reads the input through a reader fed
// by Write and converts it as convert does.
func (s *Session) run(w io.Writer, o *SessionOptions) {
	defer close(s.done)
	if o == nil {
		o = &SessionOptions{}
	}
	r := &sessionReader{s: s}
	if o.To.NewEncoder == nil {
		s.err = errors.New("session: the output format has no encoder")
		r.drain()
		return
	}
	br := bufio.NewReaderSize(r, 64<<10)
	from := o.From
	if from.NewDecoder == nil {
		f, _, err := Detect(br)
		if err != nil {
			s.err = err
			r.drain()
			return
		}
		from = f
	}
	dopts, eopts := o.Decode, o.Encode
	if dopts == nil {
		dopts = &format.Options{}
	}
	if eopts == nil {
		eopts = &format.Options{}
	}
	enc := HoldAbandoned(o.To.NewEncoder(w, eopts), from.Format, o.To, eopts.Warn)
	// The input is live (Write hands over what has arrived): what the
	// hold keeps leaves when the decoder has used it up, before Write
	// returns, as Write promises.
	enc.SetLive(true)
	r.flush = enc.Flush
	dec := &sessionDecoder{dec: from.NewDecoder(br, dopts), end: o.End}
	cut := false // the decoder reported the input cut
	problem := func(err error) bool {
		cut = cut || errors.Is(err, event.ErrTruncated)
		return o.Problem != nil && o.Problem(err)
	}
	// Stopped before the input's end, Pipe writes what the hold kept.
	err := Pipe(dec, enc, &PipeOptions{Problem: problem})
	if err == nil && dec.events > 0 {
		// As convert: the end is written only for an input read to its
		// end that held an event of its format, and a cut input stays
		// cut (event.End), reported once, by the decoder.
		if cerr := event.End(enc, cut); cerr != nil && o.Problem != nil && (!cut || !errors.Is(cerr, event.ErrTruncated)) {
			o.Problem(cerr)
		}
	}
	s.err = err
	s.ended = err == nil && !r.eof
	r.drain()
}

// sessionReader is the decoder's input: the bytes Write hands over.
type sessionReader struct {
	s       *Session
	pending []byte
	owe     bool         // a Write waits to hear that its bytes were taken
	flush   func() error // writes what the encoder holds, before Write returns
	eof     bool         // Close ended the input
}

func (r *sessionReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		if r.owe {
			// Everything Write gave is used up: the output it
			// completes is written (what the encoder holds too).
			// Let Write return.
			r.owe = false
			if r.flush != nil {
				if err := r.flush(); err != nil {
					return 0, err
				}
			}
			r.s.idle <- struct{}{}
		}
		b, ok := <-r.s.in
		if !ok {
			r.eof = true
			return 0, io.EOF
		}
		r.pending, r.owe = b, true
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// drain is called as the goroutine ends: a Write waiting for its bytes to
// be taken is released by done, so nothing more is read.
func (r *sessionReader) drain() { r.pending = nil }

// sessionDecoder counts the events of the format read (as convert does,
// to write the end only for an input that held one) and ends the input
// at an event End accepts.
type sessionDecoder struct {
	dec    event.Decoder
	end    func(event.Event) bool
	events int
	over   bool
}

func (d *sessionDecoder) Next() (event.Event, error) {
	if d.over {
		return nil, io.EOF
	}
	ev, err := d.dec.Next()
	if err != nil {
		return ev, err
	}
	if _, unknown := ev.(*event.Unknown); !unknown {
		d.events++
	}
	if d.end != nil && d.end(ev) {
		d.over = true
	}
	return ev, nil
}
