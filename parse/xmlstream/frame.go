package xmlstream

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// message is one SSE message of the producer's framing.
type message struct {
	data []byte
	// cont marks data that reached us through raw line breaks in a
	// message (lines that do not start with "data:", or blank lines inside
	// one chunk): the oldest producer's broken framing.
	cont bool
	line int   // line of the message's first line
	off  int64 // byte offset of the message's first line
}

// framer reads the reference server's SSE framing, "data: " + chunk +
// "\n\n" per message, tolerantly enough to rebuild chunks the oldest
// producer wrote with raw newlines. See the package documentation.
type framer struct {
	br   *bufio.Reader
	src  string
	max  int
	crlf int // line ends: 0 not known yet, 1 CRLF, 2 LF, 3 CR

	line int   // lines read
	off  int64 // bytes read
	lbuf []byte
	win  []byte // the part of the reader's buffer that quick has not read
	read int    // bytes quick read that the reader has not discarded

	cur      []byte // data of the message being read
	active   bool
	curCont  bool
	curLine  int
	curOff   int64
	tooLarge bool

	reported bool // the message over the cap was reported already

	nl   int  // line ends since the last data byte
	seen bool // a data line has been read
	junk bool // a line before the first data line was not SSE: reported
	cut  bool // the input ended inside a line
	fast bool // quick read the last message: its first tests hold
}

func newFramer(r io.Reader, src string, max int) *framer {
	return &framer{br: bufio.NewReaderSize(r, 64<<10), src: src, max: max}
}

func (f *framer) tooLargeError(line int, off int64) error {
	return &event.ParseError{
		Source: f.src, Line: line, Column: 1, Offset: off,
		Err: event.Errorf(event.ErrTooLarge, "SSE message larger than %d bytes (raise the cap, MaxEventBytes)", f.max),
	}
}

// readLine returns the next line without its end. A line over the cap is
// skipped and reported.
func (f *framer) readLine() ([]byte, int, int64, error) {
	f.lbuf = f.lbuf[:0]
	start := f.off
	long := false
	if f.crlf == 0 {
		f.detectEnds()
	}
	delim := byte('\n')
	if f.crlf == 3 {
		delim = '\r'
	}
	var b []byte
	for {
		chunk, err := f.br.ReadSlice(delim)
		f.off += int64(len(chunk))
		if !long {
			switch {
			case len(f.lbuf)+len(chunk) > f.max+2:
				long = true
				f.lbuf = f.lbuf[:0]
			case len(f.lbuf) == 0 && err == nil:
				// The whole line is in the reader's buffer: used there,
				// until the next read (next copies what it keeps).
				b = chunk
			default:
				f.lbuf = append(f.lbuf, chunk...)
				b = f.lbuf
			}
		}
		if err == nil {
			break // the usual line: no errors.Is
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF && f.off > start {
			f.cut = true // a last line without an end
			break
		}
		return nil, 0, 0, err
	}
	f.line++
	if long {
		return nil, f.line, start, f.tooLargeError(f.line, start)
	}
	if n := len(b); f.crlf == 3 && n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	} else if n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if f.crlf == 0 {
			f.crlf = 2
			if len(b) > 0 && b[len(b)-1] == '\r' {
				f.crlf = 1
			}
		}
		if f.crlf == 1 {
			b = bytes.TrimSuffix(b, []byte("\r"))
		}
	}
	if f.line == 1 {
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	}
	return b, f.line, start, nil
}

// detectEnds decides the line ends from the first one in the input, as
// SSE allows: CRLF, LF or a CR alone. A CR alone ends lines only when the
// first line end is one; in a stream framed with LF (or CRLF) a lone raw
// CR is content (B1). When no line end is found in the reader's buffer,
// the ends stay undecided and readLine decides between LF and CRLF.
func (f *framer) detectEnds() {
	for size := 512; ; size *= 2 {
		size = min(size, f.br.Size())
		b, err := f.br.Peek(size)
		if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
			switch {
			case b[i] == '\n':
				f.crlf = 2
			case i+1 < len(b) && b[i+1] == '\n':
				f.crlf = 1
			case i+1 < len(b) || err != nil:
				f.crlf = 3 // a CR alone, or a CR at the end of the input
			case size < f.br.Size():
				continue // the byte after the CR is not read yet
			}
			return
		}
		if err != nil || size == f.br.Size() {
			return
		}
	}
}

type lineKind int

const (
	lineBlank lineKind = iota
	lineData
	lineField   // event:, id:, retry: or a comment: no part of the data
	lineContent // anything else: a continuation of broken framing
)

func classifyLine(b []byte) (lineKind, []byte) {
	if len(b) == 0 {
		return lineBlank, nil
	}
	if b[0] == ':' {
		return lineField, nil
	}
	if len(b) >= 5 && string(b[:5]) == "data:" {
		// Nearly every line: no search for the colon.
		v := b[5:]
		if len(v) > 0 && v[0] == ' ' {
			v = v[1:]
		}
		return lineData, v
	}
	i := bytes.IndexByte(b, ':')
	if i < 0 {
		return lineContent, b
	}
	switch string(b[:i]) {
	case "data":
		v := b[i+1:]
		if len(v) > 0 && v[0] == ' ' {
			v = v[1:]
		}
		return lineData, v
	case "event", "id", "retry":
		return lineField, nil
	}
	return lineContent, b
}

// next returns the next message, or io.EOF at the end of the input, by
// lines: the decoder tries quick first (readMessage).
func (f *framer) next() (message, error) {
	f.sync()
	f.fast = false
	for {
		b, num, off, err := f.readLine()
		if err != nil {
			if decoderstate.IsParseError(err) {
				if f.active {
					f.tooLarge, f.reported = true, true
				}
				return message{}, err
			}
			if err == io.EOF && f.active {
				return f.dispatch()
			}
			return message{}, err
		}
		kind, v := classifyLine(b)
		if f.cut && (kind == lineData || kind == lineContent && f.seen) {
			// The input ended inside the line: the message it is part
			// of is incomplete, and SSE discards it, as the envelope
			// reader does.
			if f.active {
				num, off = f.curLine, f.curOff
			}
			f.active = false
			return message{}, &event.ParseError{
				Source: f.src, Line: num, Column: 1, Offset: off,
				Err: event.Errorf(event.ErrTruncated, "stream ended inside an SSE message"),
			}
		}
		switch kind {
		case lineBlank:
			f.nl++
			if f.active {
				return f.dispatch()
			}
		case lineField:
		case lineData:
			if f.active {
				f.add(v, true)
				f.nl = 1
				continue
			}
			extra := f.nl - 2
			if (!f.seen || extra <= 0) && f.blankNext() {
				// The usual message, one data line and a blank line:
				// its data is returned where it lies in the reader's
				// buffer (valid until the next call, as the comment on
				// readLine says), without the copy into cur and the
				// blank line's trip through readLine and classifyLine.
				f.seen, f.nl = true, 2
				return message{data: v, line: num, off: off}, nil
			}
			f.active, f.curCont, f.tooLarge, f.reported = true, false, false, false
			f.cur = append(f.cur[:0], v...)
			f.curLine, f.curOff = num, off
			f.nl = 1
			if f.seen && extra > 0 {
				// Blank lines beyond the one that ended the last message
				// were newlines at the end of its chunk.
				f.seen = true
				return message{data: bytes.Repeat([]byte("\n"), extra), cont: true, line: num, off: off}, nil
			}
			f.seen = true
		case lineContent:
			if f.active {
				f.add(v, true)
				f.curCont = true
				f.nl = 1
				continue
			}
			if !f.seen {
				// Not SSE: the oldest producer's continuation lines
				// only ever follow a data line. A run of them is
				// reported once, at its first line, and skipped.
				if f.junk {
					continue
				}
				f.junk = true
				return message{}, &event.ParseError{
					Source: f.src, Line: num, Column: 1, Offset: off,
					Err: event.Errorf(event.ErrSyntax, "expected an SSE data: line"),
				}
			}
			data := append(bytes.Repeat([]byte("\n"), f.nl), v...)
			f.nl = 1
			if len(data) > f.max {
				return message{}, f.tooLargeError(num, off)
			}
			return message{data: data, cont: true, line: num, off: off}, nil
		}
	}
}

// quick returns the next message's data and offset (its line is the
// one before f.line) when it is the usual one, a data line and a blank
// line, LF-ended, both already in the reader's buffer, as next would
// return it, reporting whether it did. Its data lies in the
// reader's buffer, valid until the next call (as readLine's lines).
// quick reads the buffer through win, what one Peek showed of it, and
// tells the reader what it read (Discard) only when next needs the
// reader (sync): one Peek and one Discard for a run of messages, not
// readLine's ReadSlice, classifyLine and blankNext's ReadByte for each.
func (f *framer) quick() (data []byte, off int64, ok bool) {
	// Not on the first line (a byte order mark), not between the lines
	// of a message, nor after blank lines that are data (next's extra):
	// all true after quick read one, until next runs.
	if !f.fast && (f.crlf != 2 || f.line == 0 || f.active || f.cut || f.seen && f.nl > 2) {
		return nil, 0, false
	}
	if len(f.win) == 0 {
		f.sync()
		f.win, _ = f.br.Peek(f.br.Buffered())
	}
	b := f.win
	if len(b) < len("data:\n\n") || string(b[:5]) != "data:" {
		return nil, 0, false
	}
	i := bytes.IndexByte(b, '\n')
	if i < 0 || i+1 >= len(b) || b[i+1] != '\n' || i > f.max {
		return nil, 0, false // readLine deals with a line over the cap
	}
	v := b[5:i]
	if len(v) > 0 && v[0] == ' ' {
		v = v[1:]
	}
	off = f.off
	f.win = b[i+2:]
	f.read += i + 2
	f.line += 2
	f.off += int64(i + 2)
	f.seen, f.nl, f.fast = true, 2, true
	return v, off, true
}

// sync discards from the reader what quick read of its buffer.
func (f *framer) sync() {
	if f.read > 0 {
		_, _ = f.br.Discard(f.read)
	}
	f.win, f.read = nil, 0
}

// blankNext reads the next line when it is already in the reader's buffer
// and blank, reporting whether it did. The bytes it looks at are the line
// end decided so far, nothing else: readLine reads any other line.
func (f *framer) blankNext() bool {
	if f.crlf == 0 || f.br.Buffered() < 2 {
		return false // a read would move the line just returned
	}
	// One byte at a time: ReadByte and UnreadByte cost less than Peek
	// and Discard do.
	// (bufio undoes one byte only: CRLF takes Peek.)
	n := int64(1)
	switch f.crlf {
	case 1:
		if b, _ := f.br.Peek(2); string(b) != "\r\n" {
			return false
		}
		_, _ = f.br.Discard(2)
		n = 2
	default:
		end := byte('\n')
		if f.crlf == 3 {
			end = '\r'
		}
		if c, _ := f.br.ReadByte(); c != end {
			_ = f.br.UnreadByte()
			return false
		}
	}
	f.off += n
	f.line++
	return true
}

func (f *framer) add(v []byte, newline bool) {
	if f.tooLarge {
		return
	}
	if len(f.cur)+len(v)+1 > f.max {
		f.tooLarge = true
		f.cur = f.cur[:0]
		return
	}
	if newline {
		f.cur = append(f.cur, '\n')
	}
	f.cur = append(f.cur, v...)
}

func (f *framer) dispatch() (message, error) {
	f.active = false
	if f.tooLarge {
		f.tooLarge = false
		if f.reported {
			f.reported = false
			return message{line: f.curLine, off: f.curOff}, nil
		}
		return message{}, f.tooLargeError(f.curLine, f.curOff)
	}
	return message{data: f.cur, cont: f.curCont, line: f.curLine, off: f.curOff}, nil
}
