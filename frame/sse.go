package frame

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"

	sse "github.com/tmaxmax/go-sse"

	"github.com/agentstream/agentstream/event"
)

// Message is one SSE message (an "event" in the SSE specification).
type Message struct {
	Type string // the event: field, "" when absent
	ID   string // the last id: seen, as EventSource reports it
	Data string // data: lines joined with "\n"
	Line int    // line of the message's first field
	// Offset is the byte offset of the message's first field.
	Offset int64
}

// SSE reads SSE messages. Framing follows the SSE specification as go-sse
// implements it: LF, CRLF or CR line ends, "data:" with or without the
// space, multi-line data joined with "\n", comments and retry: ignored.
type SSE struct {
	source  string
	max     int
	feed    *lineFeeder
	next    func() (sse.Event, error, bool)
	stop    func()
	cleanup runtime.Cleanup
	err     error
}

// NewSSE returns a reader of the SSE messages in r. source names the input
// in errors; max caps one message's size in bytes (DefaultMaxBytes if <= 0).
func NewSSE(r io.Reader, source string, max int) *SSE {
	if max <= 0 {
		max = DefaultMaxBytes
	}
	return &SSE{source: source, max: max, feed: newLineFeeder(r)}
}

// start begins pulling messages from go-sse. It is called by the first
// Next, so a reader that is never read holds nothing.
func (s *SSE) start() {
	// go-sse pulls from s.feed, which hands it one line per Read: when
	// go-sse yields a message, the feeder has read exactly up to the blank
	// line that ended it, so the positions it records are exact and no
	// byte of the next message has been waited for.
	seq := sse.Read(s.feed, &sse.ReadConfig{MaxEventSize: s.max})
	next, stop := iter.Pull2(iter.Seq2[sse.Event, error](seq))
	s.next, s.stop = next, stop
	// A caller that drops the reader before the end of its input leaves
	// the pull suspended; release it when the reader is collected.
	s.cleanup = runtime.AddCleanup(s, func(stop func()) { stop() }, stop)
}

// Next returns the next message, or io.EOF at the end of the input.
// A message over the size cap is skipped and reported as a
// *event.ParseError; Next may be called again after it.
func (s *SSE) Next() (Message, error) {
	if s.err != nil {
		return Message{}, s.err
	}
	if s.next == nil {
		s.start()
	}
	ev, err, ok := s.next()
	if !ok {
		s.err = io.EOF
		if s.feed.err != nil && s.feed.err != io.EOF {
			s.err = s.feed.err
		}
		return Message{}, s.err
	}
	if err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			line, off := s.feed.eventStart()
			s.Stop()
			if serr := s.feed.skipEvent(); serr != nil && serr != io.EOF {
				s.err = serr
			}
			s.start()
			return Message{}, &event.ParseError{
				Source: s.source, Line: line, Column: 1, Offset: off,
				Err: event.Errorf(event.ErrTooLarge, "SSE message larger than %d bytes (raise --max-event-bytes)", s.max),
			}
		}
		if errors.Is(err, sse.ErrUnexpectedEOF) {
			// The input ended in the middle of a line: the last message
			// is incomplete, and SSE discards it.
			line, off := s.feed.eventStart()
			s.err = io.EOF
			return Message{}, &event.ParseError{
				Source: s.source, Line: line, Column: 1, Offset: off,
				Err: event.Errorf(event.ErrTruncated, "stream ended inside an SSE message"),
			}
		}
		if s.feed.err != nil && s.feed.err != io.EOF {
			err = s.feed.err
		}
		s.err = fmt.Errorf("%s: %w", s.source, err)
		return Message{}, s.err
	}
	line, off := s.feed.eventStart()
	return Message{Type: ev.Type, ID: ev.LastEventID, Data: ev.Data, Line: line, Offset: off}, nil
}

// Stop releases the reader's pull on go-sse before the end of the input.
// Callers need not call it: a reader that is dropped is released when it
// is collected. Next must not be called after Stop.
func (s *SSE) Stop() {
	if s.stop != nil {
		s.cleanup.Stop()
		s.stop()
		s.next, s.stop = nil, nil
	}
}

// lineFeeder hands out at most one line per Read and records where the SSE
// message being read started.
type lineFeeder struct {
	br        *bufio.Reader
	err       error
	line      int   // lines completed so far
	off       int64 // bytes handed out so far
	atStart   bool  // the next byte starts a line
	lastCR    bool  // the last byte handed out was a CR
	curLine   int   // first field line of the message being read; 0 if none yet
	curOff    int64
	doneLine  int // first field line of the message the last blank line ended
	doneOff   int64
	lastBlank bool
}

func newLineFeeder(r io.Reader) *lineFeeder {
	return &lineFeeder{br: bufio.NewReaderSize(r, 64<<10), atStart: true}
}

func (f *lineFeeder) eventStart() (int, int64) {
	if f.lastBlank {
		return f.doneLine, f.doneOff
	}
	return f.curLine, f.curOff
}

func (f *lineFeeder) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if f.br.Buffered() == 0 {
		if _, err := f.br.Peek(1); err != nil {
			f.err = err
			return 0, err
		}
	}
	if b, _ := f.br.Peek(1); f.lastCR && b[0] == '\n' {
		// The LF of a CRLF split across reads: same line end.
		f.lastCR = false
		f.off++
		f.br.Discard(1)
		p[0] = '\n'
		return 1, nil
	}
	if f.atStart {
		b, _ := f.br.Peek(1)
		f.lineStarts(b[0])
	}
	// Hand out the rest of the current line, or as much of it as fits.
	// Until the line ends go-sse can do nothing with it, so waiting for
	// more input here delays nothing; filling p keeps the number of reads
	// (and go-sse's rescans of its buffer) logarithmic in a long line's
	// length instead of linear.
	n := 0
	for n < len(p) {
		if f.br.Buffered() == 0 {
			if _, err := f.br.Peek(1); err != nil {
				if n == 0 {
					f.err = err
					return 0, err
				}
				break // hand out what we have; the error comes next time
			}
		}
		b, _ := f.br.Peek(f.br.Buffered())
		m := len(b)
		end := false
		if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
			m, end = i+1, true
			if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
				m++
			}
		}
		if m > len(p)-n {
			m, end = len(p)-n, false
		}
		copy(p[n:], b[:m])
		f.br.Discard(m)
		n += m
		f.off += int64(m)
		f.atStart = end
		f.lastCR = end && b[m-1] == '\r'
		if end {
			f.line++
			break
		}
	}
	return n, nil
}

func (f *lineFeeder) lineStarts(c byte) {
	switch {
	case c == '\r' || c == '\n':
		// A blank line ends the message being read.
		f.doneLine, f.doneOff = f.curLine, f.curOff
		f.curLine = 0
		f.lastBlank = true
	case c == ':':
		// A comment is no part of a message.
	default:
		if f.curLine == 0 {
			f.curLine, f.curOff = f.line+1, f.off
		}
		f.lastBlank = false
	}
}

// skipEvent discards input up to and including the next blank line.
func (f *lineFeeder) skipEvent() error {
	buf := make([]byte, 4096)
	for {
		startsLine := f.atStart && !f.lastCR
		n, err := f.Read(buf)
		if err != nil {
			return err
		}
		if startsLine && (buf[0] == '\r' || buf[0] == '\n') && n <= 2 {
			return nil
		}
	}
}
