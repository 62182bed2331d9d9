// Package wirecheck holds what the validate checkers of the parse/<format>
// packages share: a reporter with positions and formatted messages, and
// the order check of the Messages API stream events that the anthropic and
// claude formats both carry.
package wirecheck

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
)

// Pos is a position in the input: 1-based line and column.
type Pos struct{ Line, Col int }

// Checker reports what a format's checker finds.
type Checker struct {
	Rep format.Reporter
	Cfg *format.CheckConfig
	err error // the read failure that ended Lines
}

// Lines yields each line of r (frame.Lines, capped at MaxBytes) and its
// position, until the input ends or a read fails (Err). A line over the
// cap is skipped: the decoder reports it.
func (c *Checker) Lines(r io.Reader) iter.Seq2[[]byte, Pos] {
	return func(yield func([]byte, Pos) bool) {
		lines := frame.NewLines(r, c.Cfg.Source, c.MaxBytes())
		for {
			line, num, _, err := lines.Next()
			switch {
			case err == io.EOF:
				return
			case err != nil:
				if !IsProblem(err) {
					c.err = err
					return
				}
			case !yield(line, Pos{Line: num, Col: 1}):
				return
			}
		}
	}
}

// Err is the read failure that ended Lines, nil when the input ended.
func (c *Checker) Err() error { return c.err }

// Report reports a violation of rule at p.
func (c *Checker) Report(rule string, p Pos, msg string, args ...any) {
	c.Rep.Report(rule, p.Line, p.Col, fmt.Sprintf(msg, args...))
}

// Problem reports a problem in the input at p, wrapping sentinel
// (event.ErrSyntax, ErrTruncated, ErrTooLarge): a rule for every format.
// Only a CheckAlone checker's reporter (format.WholeReporter) takes it.
func (c *Checker) Problem(sentinel error, p Pos, msg string, args ...any) {
	c.ProblemErr(&event.ParseError{Source: c.Cfg.Source, Line: p.Line, Column: p.Col, Offset: -1, Err: event.Errorf(sentinel, msg, args...)})
}

// ProblemErr reports err, a *event.ParseError, to a format.WholeReporter.
func (c *Checker) ProblemErr(err error) {
	if w, ok := c.Rep.(format.WholeReporter); ok {
		w.Problem(err)
	}
}

// Event hands ev, read at line, to a format.WholeReporter.
func (c *Checker) Event(ev event.Event, line int) {
	if w, ok := c.Rep.(format.WholeReporter); ok {
		w.Event(ev, line)
	}
}

// MaxBytes is the cap on one unit.
func (c *Checker) MaxBytes() int {
	if c.Cfg.MaxEventBytes <= 0 {
		return event.DefaultMaxBytes
	}
	return c.Cfg.MaxEventBytes
}

// IsProblem reports whether err is a positioned problem in the input,
// which the decoder reports too, rather than a failure to read.
func IsProblem(err error) bool {
	var perr *event.ParseError
	return errors.As(err, &perr)
}

// Clip shortens s for a message.
func Clip(s string) string {
	r := []rune(s)
	if len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// AgentName names an agent in a message.
func AgentName(id string) string {
	if id == "" {
		return "the main agent"
	}
	return fmt.Sprintf("agent %q", id)
}

// IsSSE reports whether the input in br looks framed as SSE rather than
// as lines: its first byte past a byte order mark and blank space does
// not start a JSON value.
func IsSSE(br *bufio.Reader) bool {
	const bom = "\xef\xbb\xbf"
	for n := 1; ; n++ {
		b, _ := br.Peek(n)
		if len(b) < n {
			return false
		}
		if n <= len(bom) && strings.HasPrefix(bom, string(b)) {
			continue
		}
		switch b[n-1] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return false
		}
		return true
	}
}
