package validate

import (
	"io"
	"unicode/utf8"
)

// maxUTF8Reports caps UTF-8 violations per input: one per line, and no more
// than this in all.
const maxUTF8Reports = 20

// utf8Reader passes its input through and reports invalid UTF-8 (rule
// GEN004) with its position.
type utf8Reader struct {
	r         io.Reader
	v         *checker
	pending   []byte // the start of a character cut by a read
	off       int64  // offset of pending[0], or of the next byte when none
	line      int    // line of offset off, from 1
	lineStart int64
	lastBad   int // line of the last report
	reports   int
}

func newUTF8Reader(r io.Reader, v *checker) *utf8Reader {
	return &utf8Reader{r: r, v: v, line: 1}
}

func (u *utf8Reader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	u.scan(p[:n], err != nil)
	return n, err
}

func (u *utf8Reader) scan(b []byte, atEOF bool) {
	buf := b
	if len(u.pending) > 0 {
		buf = append(u.pending, b...)
		u.pending = nil
	}
	base := u.off
	i := 0
	for i < len(buf) {
		c := buf[i]
		if c < utf8.RuneSelf {
			if c == '\n' {
				u.line++
				u.lineStart = base + int64(i) + 1
			}
			i++
			continue
		}
		if !utf8.FullRune(buf[i:]) && !atEOF {
			u.pending = append([]byte(nil), buf[i:]...)
			break
		}
		r, size := utf8.DecodeRune(buf[i:])
		if r == utf8.RuneError && size <= 1 {
			u.bad(base + int64(i))
		}
		i += size
	}
	u.off = base + int64(i)
}

func (u *utf8Reader) bad(off int64) {
	if u.line == u.lastBad || u.reports >= maxUTF8Reports {
		return
	}
	u.lastBad = u.line
	u.reports++
	u.v.report(UTF8, pos{u.line, int(off-u.lineStart) + 1}, "invalid UTF-8 at byte offset %d", off)
}
