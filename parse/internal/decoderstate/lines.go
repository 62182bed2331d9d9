package decoderstate

import (
	"bytes"
	"errors"
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
)

// Lines is the read step of a decoder of lines (NDJSON): the framer, and
// where the line read last starts, for the decoder's errors.
type Lines struct {
	*frame.Lines
	Line   int   // the number of the line read last, blank or not
	Offset int64 // the offset of its start
	source string
	bad    badutf8.Once
}

// NewLines returns the read step over r (see frame.NewLines).
func NewLines(r io.Reader, source string, max int) Lines {
	return Lines{Lines: frame.NewLines(r, source, max), source: source}
}

// Read reads the next line into st: unless it is blank, decode gets it as
// it was read, with invalid UTF-8 replaced (see badutf8), and the problem
// decode returns comes before the warning about that UTF-8. What the
// framer returns instead of a line goes to st.ReadError, whose cut is not
// kept: frame.Lines returns a last line without its newline as a line,
// never a cut (a framer that did would need it kept for finish).
func (l *Lines) Read(st *State, decode func(line []byte) error) {
	line, num, off, err := l.Next()
	if err != nil {
		st.ReadError(err)
		return
	}
	l.Line, l.Offset = num, off
	if len(line) == 0 || line[0] != '{' && len(bytes.TrimSpace(line)) == 0 {
		return // blank (a line that opens an object is not)
	}
	line, i, warn := l.bad.Fix(line)
	st.Problem(decode(line))
	if warn {
		st.Problem(badutf8.Warning(l.source, num, i+1, off+int64(i)))
	}
}

// ReadError ends the input or reports err, which a framer returned in
// place of a unit of input. io.EOF ends the input. So does an input that
// ends inside a unit (a *event.ParseError of event.ErrTruncated), which
// is returned for the decoder's finish to report after what it flushes.
// Any other *event.ParseError is a problem (a unit over the cap), and any
// other error the decoder's answer from now on.
func (s *State) ReadError(err error) (cut error) {
	switch {
	case err == io.EOF:
		s.End()
	case !IsParseError(err):
		s.Fail(err)
	case errors.Is(err, event.ErrTruncated):
		s.End()
		return err
	default:
		s.Problem(err)
	}
	return nil
}

// IsParseError reports whether err is or wraps a *event.ParseError: a
// positioned problem of the input, not a failure to read it. It is
// errors.As in a function of its own: the target it needs escapes, and is
// allocated only when the error is not one itself.
func IsParseError(err error) bool {
	if _, ok := err.(*event.ParseError); ok {
		return true
	}
	var perr *event.ParseError
	return errors.As(err, &perr)
}
