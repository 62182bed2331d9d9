package frame

import (
	"bytes"
	"io"
)

// Tail is a reader that remembers whether the input read so far ends
// inside a line: what a reader of a log still being written needs to tell
// a line cut off by the end of the input from a bad one.
type Tail struct {
	r       io.Reader
	lineLen int64
}

// NewTail returns a Tail reading from r.
func NewTail(r io.Reader) *Tail { return &Tail{r: r} }

func (t *Tail) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if i := bytes.LastIndexByte(p[:n], '\n'); i >= 0 {
		t.lineLen = int64(n - i - 1)
	} else {
		t.lineLen += int64(n)
	}
	return n, err
}

// InLine reports whether the input read so far ends inside a line (after
// at least one byte of it).
func (t *Tail) InLine() bool { return t.lineLen > 0 }
