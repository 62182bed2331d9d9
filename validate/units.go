package validate

import (
	"bufio"
	"bytes"
	"io"
)

// unitReader hands a decoder at most one line per Read, so that when the
// decoder yields an event, the unit (line, or SSE message) it came from is
// the last one handed out. Decoders read through a buffer of their own;
// this makes them read no further than they need.
type unitReader struct {
	br      *bufio.Reader
	tee     io.Writer // when set, receives every byte handed out
	sse     bool
	line    int  // number of the last line begun
	atStart bool // the next byte starts a line
	blank   bool // the last line begun is blank
	cur     int  // SSE: first line of the message being read; 0 if none
	done    int  // SSE: first line of the last message a blank line ended
}

func newUnitReader(br *bufio.Reader, sse bool) *unitReader {
	return &unitReader{br: br, sse: sse, atStart: true}
}

func (u *unitReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if u.br.Buffered() == 0 {
		if _, err := u.br.Peek(1); err != nil {
			return 0, err
		}
	}
	b, _ := u.br.Peek(u.br.Buffered())
	n := len(b)
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		n = i + 1
	}
	n = min(n, len(p))
	if u.atStart {
		u.line++
		u.blank = b[0] == '\n' || b[0] == '\r'
		if u.sse {
			switch {
			case u.blank:
				if u.cur != 0 {
					u.done, u.cur = u.cur, 0
				}
			case b[0] != ':' && u.cur == 0:
				u.cur = u.line
			}
		}
	}
	copy(p, b[:n])
	u.br.Discard(n)
	if u.tee != nil {
		if _, err := u.tee.Write(p[:n]); err != nil {
			return n, err
		}
	}
	u.atStart = b[n-1] == '\n'
	return n, nil
}

// position is where the unit of the event just decoded starts.
func (u *unitReader) position() pos {
	if !u.sse {
		return pos{u.line, 1}
	}
	if u.cur != 0 && !u.blank {
		return pos{u.cur, 1}
	}
	return pos{u.done, 1}
}
