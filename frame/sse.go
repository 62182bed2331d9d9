package frame

import (
	"bytes"
	"errors"
	"io"
	"iter"

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

// RawMessage is a Message whose Data is borrowed: it is valid until the
// next call of NextRaw, and must not be modified. A message of one data:
// line that sits whole in the read buffer is handed out where it lies,
// not copied.
type RawMessage struct {
	Type   string
	ID     string
	Data   []byte
	Line   int
	Offset int64
}

// SSE reads SSE messages. Framing follows the SSE specification (and
// go-sse's reading of it): LF, CRLF or CR line ends, "data:" with or
// without the space, multi-line data joined with "\n", comments and retry:
// ignored, a UTF-8 byte order mark at the start dropped.
//
// SSE frames the input itself, one line at a time, rather than through
// go-sse's bufio.Scanner: whether a message is over the cap, and where a
// CRLF split across two reads ends, must not depend on how the input was
// cut into reads, and the skip of an oversized message must end at its
// blank line whatever the line ends.
type SSE struct {
	source string
	max    int
	rd     io.Reader
	err    error
	// buf[r:w] is the input read and not yet consumed, and rerr the
	// error that ended the reads, returned once it is consumed. (The
	// buffer is the framer's own, not a bufio.Reader's: a message costs
	// two index updates, not a Peek and a Discard.)
	buf  []byte
	r, w int
	rerr error

	line   []byte // the current line, up to max bytes
	lineN  int    // the current line's length so far
	lineAt int64  // the current line's offset
	// lineFirst is the current line's first byte; lastLen the length of
	// the line nextLine completed last (its bytes are dropped once the
	// message is over the cap).
	lineFirst byte
	lastLen   int
	lastWhole bool  // the line nextLine completed last lies in the read buffer
	lastCR    bool  // the last line ended in CR: a LF first is its CRLF
	lines     int   // lines completed
	off       int64 // bytes consumed

	lastID  string // the last id: seen, kept across messages
	lastTyp string // the last event: seen, reused while it repeats
	// types are the last event types made into strings (a stream's few
	// types take turns: content_block_delta, ping, ...), reused. A
	// Responses API stream cycles through about fifteen in every
	// response: all of them must fit, or each turn makes them anew.
	types [32]string
	typeN int
	msg   msgState
	// pos and posAt are the line and offset of the message NextData
	// returned last.
	pos   int
	posAt int64
	// data is the message's data lines, each followed by "\n", reused
	// from one message to the next; a message's only data line, while it
	// lies whole in the read buffer, is msg.alias instead.
	data []byte

	// lf and cr find the line ends in the buffered input for the general
	// path (nextLine), each byte looked at once by each; NextData, the usual
	// message's path, searches its own few bytes with IndexByte.
	lf, cr finder
}

// finder finds the next c in the buffered input. It remembers what it
// found, or how far it looked without finding it, so that no byte is
// searched twice however the input is consumed and read.
type finder struct {
	at    int64 // the offset of the c found, or the end of the search
	found bool
}

// index returns the index in b, the buffered input from offset off, of
// the next c, or -1.
func (f *finder) index(b []byte, off int64, c byte) int {
	if f.found && f.at >= off {
		return int(f.at - off)
	}
	from := 0
	if !f.found && f.at > off {
		from = int(f.at - off)
	}
	if j := bytes.IndexByte(b[from:], c); j >= 0 {
		f.at, f.found = off+int64(from+j), true
		return from + j
	}
	f.at, f.found = off+int64(len(b)), false
	return -1
}

// msgState is the message being read.
type msgState struct {
	size  int // bytes of its lines so far, terminators included
	over  bool
	dirty bool // a data, event or id field was seen
	// alias is the message's data while it is one line that lies whole
	// in the read buffer (aliased): it is copied into SSE.data before the
	// buffer is refilled, or when a second data line comes.
	alias   []byte
	aliased bool
	typ     string
	first   int // line of its first field, 0 until one is seen
	firstAt int64
	start   int // line of its first line of any kind
	startAt int64
}

// NewSSE returns a reader of the SSE messages in r. source names the input
// in errors; max caps one message's size in bytes (event.DefaultMaxBytes if <= 0):
// the bytes of its lines from the first to the blank line that ends it,
// comments and line ends included.
func NewSSE(r io.Reader, source string, max int) *SSE {
	if max <= 0 {
		max = event.DefaultMaxBytes
	}
	return &SSE{source: source, max: max, rd: r, buf: make([]byte, 64<<10)}
}

// Next returns the next message, or io.EOF at the end of the input. A
// message over the size cap is skipped and reported as a *event.ParseError
// when its blank line has been read; Next may be called again after it.
// An error reading the input is returned as it is, whether it came at a
// message boundary or in the middle of one.
func (s *SSE) Next() (Message, error) {
	m, err := s.NextRaw()
	return Message{Type: m.Type, ID: m.ID, Data: string(m.Data), Line: m.Line, Offset: m.Offset}, err
}

// NextRaw is Next with the message's data borrowed (see RawMessage): a
// decoder that copies out only what it keeps of the data saves a copy of
// every message.
func (s *SSE) NextRaw() (RawMessage, error) {
	data, typ, err := s.NextData()
	if err != nil {
		return RawMessage{}, err
	}
	return RawMessage{Type: typ, ID: s.lastID, Data: data, Line: s.pos, Offset: s.posAt}, nil
}

// Pos returns the line and byte offset of the message NextData returned
// last (of its first field).
func (s *SSE) Pos() (line int, offset int64) { return s.pos, s.posAt }

// slow reads, line by line, the message NextData does not read in one
// look: nextLine, handle and dispatch's way.
func (s *SSE) slow() ([]byte, string, error) {
	if s.err != nil {
		return nil, "", s.err
	}
	m, err := s.read()
	s.pos, s.posAt = m.Line, m.Offset
	return m.Data, m.Type, err
}

// read reads the next message line by line, nextLine, handle and
// dispatch's way.
func (s *SSE) read() (RawMessage, error) {
	for {
		line, ended, err := s.nextLine()
		if err != nil {
			return s.end(err)
		}
		if !ended {
			continue
		}
		if m, done, perr := s.handle(line); done {
			return m, perr
		}
	}
}

// Messages yields each message NextRaw reads, borrowed as there, until
// the input ends or a read fails: what reads only whole messages (a
// validate checker) and leaves problems to a decoder. The messages NextRaw
// reports as problems (over the cap, cut at the end) are skipped.
func (s *SSE) Messages() iter.Seq[RawMessage] {
	return func(yield func(RawMessage) bool) {
		for {
			m, err := s.NextRaw()
			var perr *event.ParseError
			switch {
			case err == nil:
				if !yield(m) {
					return
				}
			case !errors.As(err, &perr):
				return
			}
		}
	}
}

// NextData is NextRaw for a decoder that needs of a message only its
// data, borrowed as there, its type, and where it is (Pos): a RawMessage
// is built and copied in memory, where these come back in registers.
//
// It reads the message most streams are made of, one data: line and a
// blank line, or an event: line, a data: line and a blank line (the typed
// events of the Messages and Responses APIs), all LF-ended, when it lies
// whole in the read buffer at a message boundary, in one look at its
// bytes, without the per-line bookkeeping of nextLine, handle and
// dispatch: it gives what they give for it. Anything else is left to them
// (slow). (It finds its LFs itself: the LF finder, which does not know of
// them, looks from where nextLine next begins; when NextData gives up, the
// bytes of its lines are looked at again, once.)
func (s *SSE) NextData() (data []byte, typ string, err error) {
	// s.off == 0: the byte order mark is nextLine's to handle.
	if s.lastCR || s.lineN != 0 || s.msg.start != 0 || s.off == 0 || s.err != nil {
		return s.slow()
	}
	b := s.buf[s.r:s.w]
	at, lines := 0, 2 // where the data: line starts; the message's lines
	var name []byte   // the event: line's value, when it is not s.lastTyp
	if len(b) > 6 && string(b[:6]) == "event:" {
		lines = 3
		// The type most messages have is the one before: compared where
		// it lies, the line needs no search for its end.
		if t := s.lastTyp; len(b) > len(t)+8 && b[6] == ' ' && b[len(t)+7] == '\n' && string(b[7:len(t)+7]) == t {
			at = len(t) + 8
		} else {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				return s.slow()
			}
			name, at = b[6:i], i+1
			if len(name) > 0 && name[0] == ' ' {
				name = name[1:]
			}
		}
	}
	if len(b)-at < 7 || string(b[at:at+5]) != "data:" {
		return s.slow()
	}
	// The data: line's value and what follows it in the buffer: the
	// value ends at the first LF, a blank line at the LF after it.
	rest := b[at+5:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 || i+1 >= len(rest) || rest[i+1] != '\n' {
		return s.slow()
	}
	n := at + 5 + i + 2 // the message's size: its lines and their LFs
	if n > s.max {
		return s.slow()
	}
	// The CR finder has mostly looked past the message already (to the
	// end of the buffer, finding none): then it need not be asked.
	if s.cr.at < s.off+int64(n) {
		if cr := s.cr.index(b, s.off, '\r'); cr >= 0 && cr < n {
			return s.slow()
		}
	}
	data = rest[:i]
	if i > 0 && data[0] == ' ' {
		data = data[1:]
	}
	if lines == 3 {
		if name != nil && string(name) != s.lastTyp {
			s.lastTyp = s.typeOf(name)
		}
		typ = s.lastTyp
	}
	s.pos, s.posAt = s.lines+1, s.off
	s.r += n
	s.off += int64(n)
	s.lines += lines
	return data, typ, nil
}

// typeOf returns typ as a string: one of the types seen last when it is
// one of them, else a new one, which it keeps in place of the oldest
// when it is short (a type is a name; the cap keeps what is held small).
func (s *SSE) typeOf(typ []byte) string {
	for _, t := range s.types[:] {
		if string(typ) == t {
			return t
		}
	}
	t := string(typ)
	if len(t) <= 64 {
		s.types[s.typeN%len(s.types)] = t
		s.typeN++
	}
	return t
}

// nextLine reads up to the end of the current line. It reports ended when
// the line is complete; line holds its first max+1 bytes at most.
func (s *SSE) nextLine() (line []byte, ended bool, err error) {
	if s.r == s.w {
		s.own() // the read below reuses the buffer the alias points into
		if err := s.fill(); err != nil {
			return nil, false, err
		}
	}
	b := s.buf[s.r:s.w]
	if s.lastCR {
		s.lastCR = false
		if b[0] == '\n' {
			// The LF of a CRLF: the line already ended.
			s.r++
			s.off++
			if s.msg.start != 0 {
				s.msg.size++
			}
			return nil, false, nil
		}
	}
	i := s.lf.index(b, s.off, '\n')
	if cr := s.cr.index(b, s.off, '\r'); cr >= 0 && (i < 0 || cr < i) {
		i = cr
	}
	n := i
	if i < 0 {
		n = len(b)
	}
	if s.lineN == 0 && s.off == 0 && s.lines == 0 {
		// A byte order mark starts the input: it is no part of the line.
		// Wait for three bytes (or the end of the line) to tell.
		if len(b) < 3 && bytes.HasPrefix([]byte("\xef\xbb\xbf"), b) {
			if err := s.fill(); err == nil {
				return nil, false, nil
			}
		}
		if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
			s.r += 3
			s.off += 3
			return nil, false, nil
		}
	}
	if s.lineN == 0 {
		s.lineAt, s.lineFirst = s.off, b[0]
	}
	// A line wholly in the buffer is used there (until the next read),
	// not copied.
	whole := s.lineN == 0 && i >= 0
	s.lineN += n
	s.msg.size += n
	if s.msg.size > s.max {
		// The message is over the cap: its bytes are not needed any more.
		s.msg.over = true
		s.line = s.line[:0]
	} else if !whole {
		s.line = appendGrow(s.line, b[:n], s.max+1)
	}
	if i < 0 {
		s.r += n
		s.off += int64(n)
		return nil, false, nil
	}
	s.r += n + 1
	s.off += int64(n + 1)
	s.msg.size++
	s.lastCR = b[i] == '\r'
	s.lines++
	line = s.line
	if whole {
		line = b[:n]
	}
	s.lastLen, s.lastWhole = s.lineN, whole
	s.line, s.lineN = s.line[:0], 0
	if s.msg.over {
		line = nil
	}
	return line, true, nil
}

// fill reads more input after buf[r:w], moved to the buffer's start
// (which holds at least the three bytes of a byte order mark). It
// returns nil when at least one byte more was read, else the error
// that ended the reads (io.ErrNoProgress after many empty ones, as
// bufio's).
func (s *SSE) fill() error {
	if s.rerr != nil {
		return s.rerr
	}
	if s.r > 0 {
		s.w = copy(s.buf, s.buf[s.r:s.w])
		s.r = 0
	}
	for range 100 {
		n, err := s.rd.Read(s.buf[s.w:])
		s.w, s.rerr = s.w+max(n, 0), err
		if n > 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
	s.rerr = io.ErrNoProgress
	return s.rerr
}

// handle processes a complete line. It reports done with the message or
// the problem a blank line completes.
func (s *SSE) handle(line []byte) (RawMessage, bool, error) {
	m := &s.msg
	lineNum, lineAt := s.lines, s.lineAt
	if s.lastLen == 0 {
		if m.start == 0 {
			m.size = 0 // blank lines between messages count for none
			return RawMessage{}, false, nil
		}
		return s.dispatch()
	}
	if m.start == 0 {
		m.start, m.startAt = lineNum, lineAt
	}
	if s.lineFirst != ':' && m.first == 0 {
		m.first, m.firstAt = lineNum, lineAt
	}
	if m.over || s.lineFirst == ':' {
		return RawMessage{}, false, nil
	}
	field, value, found := bytes.Cut(line, []byte(":"))
	if found && len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	switch string(field) {
	case "data":
		if !m.aliased && len(s.data) == 0 && s.lastWhole {
			// The first data line, in the read buffer: borrowed, not
			// copied, unless more data lines or a read come before the
			// message ends.
			m.alias, m.aliased = value, true
		} else {
			s.own()
			s.data = append(append(s.data, value...), '\n')
		}
		m.dirty = true
	case "event":
		if string(value) != s.lastTyp {
			s.lastTyp = s.typeOf(value)
		}
		m.typ = s.lastTyp
		m.dirty = true
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			if string(value) != s.lastID {
				s.lastID = string(value)
			}
			m.dirty = true
		}
	}
	return RawMessage{}, false, nil
}

// dispatch ends the message at its blank line.
func (s *SSE) dispatch() (RawMessage, bool, error) {
	m := &s.msg
	defer s.resetMsg()
	if m.over || m.size > s.max {
		return RawMessage{}, true, s.tooLarge()
	}
	if !m.dirty {
		return RawMessage{}, false, nil
	}
	data := m.alias
	if !m.aliased && len(s.data) > 0 {
		data = s.data[:len(s.data)-1]
	}
	return RawMessage{Type: m.typ, ID: s.lastID, Data: data, Line: m.first, Offset: m.firstAt}, true, nil
}

// own copies the message's borrowed data line, if it has one, into
// s.data.
func (s *SSE) own() {
	m := &s.msg
	if m.aliased {
		s.data = append(append(s.data[:0], m.alias...), '\n')
		m.alias, m.aliased = nil, false
	}
}

func (s *SSE) resetMsg() {
	s.msg = msgState{}
	s.data = s.data[:0]
	if cap(s.line) > keepBuffer {
		s.line = nil // a large message's buffer is not held for the rest of the input
	}
	if cap(s.data) > keepBuffer {
		s.data = nil
	}
}

// keepBuffer is the largest line buffer kept between units.
const keepBuffer = 1 << 20

// appendGrow appends b to buf, doubling its capacity when it must grow
// (append grows a large slice by a quarter, which allocates about five
// times a long line's size on the way) but never beyond limit bytes.
func appendGrow(buf, b []byte, limit int) []byte {
	if need := len(buf) + len(b); need > cap(buf) {
		nb := make([]byte, len(buf), max(need, min(2*cap(buf), limit), 512))
		copy(nb, buf)
		buf = nb
	}
	return append(buf, b...)
}

func (s *SSE) tooLarge() error {
	line, off := s.msg.first, s.msg.firstAt
	if line == 0 {
		line, off = s.msg.start, s.msg.startAt
	}
	return &event.ParseError{
		Source: s.source, Line: line, Column: 1, Offset: off,
		Err: event.Errorf(event.ErrTooLarge, "SSE message larger than %d bytes (raise the cap, MaxEventBytes)", s.max),
	}
}

// end handles the end of the input, or an error reading it.
func (s *SSE) end(err error) (RawMessage, error) {
	if err != io.EOF {
		s.err = err
		return RawMessage{}, err
	}
	s.err = io.EOF
	m := &s.msg
	switch {
	case m.over || m.size > s.max:
		return RawMessage{}, s.tooLarge()
	case s.lineN > 0:
		// The input ended in the middle of a line: the last message is
		// incomplete, and SSE discards it.
		line, off := m.first, m.firstAt
		if line == 0 {
			line, off = s.lines+1, s.off-int64(s.lineN)
		}
		return RawMessage{}, &event.ParseError{
			Source: s.source, Line: line, Column: 1, Offset: off,
			Err: event.Errorf(event.ErrTruncated, "stream ended inside an SSE message"),
		}
	case m.dirty:
		// A last message without its blank line still counts.
		m2, _, perr := s.dispatch()
		if perr != nil {
			return RawMessage{}, perr
		}
		s.err = io.EOF
		return m2, nil
	}
	return RawMessage{}, io.EOF
}

// Stop releases the reader before the end of its input. It holds nothing
// that needs releasing; Stop is kept so callers may say they are done.
func (s *SSE) Stop() {}
