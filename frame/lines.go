package frame

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/agentstream/agentstream/event"
)

// Lines reads an input line by line, for NDJSON formats. Lines end in LF or
// CRLF; the terminator is not part of the line. A UTF-8 byte order mark at
// the start of the input is dropped.
type Lines struct {
	source string
	max    int
	br     *bufio.Reader
	buf    []byte
	line   int
	off    int64
	err    error
	open   bool // the last line returned had no line end (the input ended in it)
	// ahead is what the read buffer held after the last line read from
	// br, left in br (Peek): Next returns the whole lines in it from it,
	// with one IndexByte each, and discards them from br before reading
	// it again. used is how much of ahead was returned.
	ahead []byte
	used  int
}

// Unterminated reports whether the last line Next returned had no line
// end: the input ended inside it (a cut NDJSON stream), or its producer
// writes none after its last line.
func (l *Lines) Unterminated() bool { return l.open }

// NewLines returns a line reader over r. source names the input in errors;
// max caps one line's length in bytes (event.DefaultMaxBytes if <= 0).
func NewLines(r io.Reader, source string, max int) *Lines {
	if max <= 0 {
		max = event.DefaultMaxBytes
	}
	return &Lines{source: source, max: max, br: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next line, its 1-based number and the byte offset of its
// start. The returned slice is valid until the next call. At the end of the
// input it returns io.EOF; a last line without a terminator is still a line.
// A line over the cap is skipped and reported as a *event.ParseError; Next
// may be called again after it.
func (l *Lines) Next() (line []byte, num int, offset int64, err error) {
	if l.err != nil {
		return nil, 0, 0, l.err
	}
	start := l.off
	// The whole line, its terminator included, is in the read buffer:
	// returned in place, with no copy (its capacity cut, so that an
	// append cannot write over the input after it).
	if i := bytes.IndexByte(l.ahead[l.used:], '\n'); i >= 0 && i <= l.max+1 {
		chunk := l.ahead[l.used : l.used+i+1 : l.used+i+1]
		l.used += i + 1
		l.off += int64(i + 1)
		l.line++
		return l.trim(chunk), l.line, start, nil
	}
	l.br.Discard(l.used) // within what was buffered: no read
	l.ahead, l.used = nil, 0
	chunk, err := l.br.ReadSlice('\n')
	if err == nil && len(chunk) <= l.max+2 {
		l.off += int64(len(chunk))
		l.line++
		l.ahead, _ = l.br.Peek(l.br.Buffered()) // no read either
		return l.first(chunk[:len(chunk):len(chunk)]), l.line, start, nil
	}
	l.buf = l.buf[:0]
	if cap(l.buf) > keepBuffer {
		l.buf = nil // a long line's buffer is not held for the rest of the input
	}
	tooLong := false
	for {
		l.off += int64(len(chunk))
		if !tooLong {
			if len(l.buf)+len(chunk) > l.max+2 {
				tooLong = true
				l.buf = nil
			} else {
				l.buf = appendGrow(l.buf, chunk, l.max+2)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			chunk, err = l.br.ReadSlice('\n')
			continue
		}
		if err != nil && (err != io.EOF || (len(l.buf) == 0 && !tooLong && l.off == start)) {
			l.err = err
			return nil, 0, 0, err
		}
		break
	}
	l.line++
	if tooLong {
		return nil, l.line, start, &event.ParseError{
			Source: l.source, Line: l.line, Column: 1, Offset: start,
			Err: event.Errorf(event.ErrTooLarge, "line longer than %d bytes (raise the cap, MaxEventBytes)", l.max),
		}
	}
	return l.first(l.buf), l.line, start, nil
}

// trim returns the line in b without its terminator, noting whether it
// had one.
func (l *Lines) trim(b []byte) []byte {
	n := len(b)
	l.open = n == 0 || b[n-1] != '\n'
	if !l.open {
		n--
	}
	if n > 0 && b[n-1] == '\r' {
		n--
	}
	return b[:n]
}

// first is trim for a line read from br, the input's first if l.line is
// 1, whose byte order mark it drops. (A line of ahead is never the
// first.)
func (l *Lines) first(b []byte) []byte {
	b = l.trim(b)
	if l.line == 1 {
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	}
	return b
}
