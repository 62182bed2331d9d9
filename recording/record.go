package recording

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// The comment lines a recording of an SSE stream adds to it. Every SSE
// parser ignores comment lines, so a recording is still the stream it
// recorded for any consumer of that stream.
const (
	// Header is the recording's first line.
	Header = ":agentstream-recording v1"
	// stampPrefix starts the line before each message: ":t=<ms>", the
	// milliseconds from the start of the recording to the message's
	// arrival (its blank line).
	stampPrefix = ":t="
	// literal marks the next line as the stream's own, for the rare
	// stream whose own comments look like ours.
	literal = ":agentstream-literal"
	// reservedLen is how much of a line tells whether a player could take
	// it for one of ours.
	reservedLen = len(literal)
)

// TimingHeader is the first line of the timing sidecar of a line-framed
// recording (NDJSON or any other text).
const TimingHeader = "agentstream-timing v1"

// Framing of a recorded input: SSE messages or lines.
const (
	SSE   = "sse"
	Lines = "lines"
)

// Config configures Record. The zero value records SSE with timing and
// line-framed inputs without.
type Config struct {
	// Timing opens the timing sidecar; it is called once, when the input
	// turns out to be line-framed. Nil: line-framed inputs are recorded
	// without timing.
	Timing func() (io.Writer, error)
	// Now returns the current time (time.Now when nil).
	Now func() time.Time
	// MaxEventBytes is how much of one SSE message Record holds before it
	// writes it out without waiting for its end (event.DefaultMaxBytes
	// when 0).
	MaxEventBytes int
}

// Record copies src to dst as a recording and returns the framing it
// found, at the end of src or at the first error. It writes each SSE
// message as soon as its blank line has arrived, and each line of a
// line-framed input as soon as it has ended, so that a recording cut short
// keeps every message that arrived whole. Record does not buffer: dst
// sees one Write per message or line.
func Record(dst io.Writer, src io.Reader, cfg *Config) (string, error) {
	r := &recorder{dst: dst}
	if cfg != nil {
		r.cfg = *cfg
	}
	if r.cfg.Now == nil {
		r.cfg.Now = time.Now
	}
	if r.cfg.MaxEventBytes <= 0 {
		r.cfg.MaxEventBytes = event.DefaultMaxBytes
	}
	r.start = r.cfg.Now()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if werr := r.write(buf[:n]); werr != nil {
				return r.framing, werr
			}
		}
		if err != nil {
			if ferr := r.finish(); ferr != nil {
				return r.framing, ferr
			}
			if err == io.EOF {
				err = nil
			}
			return r.framing, err
		}
	}
}

type recorder struct {
	cfg     Config
	dst     io.Writer
	start   time.Time
	framing string // "" until the first non-blank line is known
	head    []byte // the input up to the framing decision

	// SSE
	msg     []byte // the message being read, as it will be written
	out     []byte // a message with its time line, being written
	line    []byte // the start of the current line, until its escape is decided
	decided bool   // the current line's start has been moved to msg
	lastCR  bool
	wrote   bool // the last line ended a message that was written
	over    bool // the message is too large to hold: written as it comes
	atStart bool // at the start of a line

	// lines
	timing  io.Writer
	lineNum int
	lineLen int
}

func (r *recorder) ms() string {
	return strconv.FormatInt(r.cfg.Now().Sub(r.start).Milliseconds(), 10)
}

// stamp appends the time line for a message arriving now to b.
func (r *recorder) stamp(b []byte) []byte {
	b = append(b, stampPrefix...)
	b = strconv.AppendInt(b, r.cfg.Now().Sub(r.start).Milliseconds(), 10)
	return append(b, '\n')
}

func (r *recorder) write(b []byte) error {
	if r.framing == "" {
		r.head = append(r.head, b...)
		if !firstLineDone(r.head) && len(r.head) < 64<<10 {
			return nil
		}
		return r.decide()
	}
	if r.framing == SSE {
		return r.writeSSE(b)
	}
	return r.writeLines(b)
}

// firstLineDone reports whether head holds a complete non-blank line.
func firstLineDone(head []byte) bool {
	for len(head) > 0 {
		i := bytes.IndexAny(head, "\r\n")
		if i < 0 {
			return false
		}
		if len(bytes.TrimSpace(head[:i])) > 0 {
			return true
		}
		head = head[i+1:]
	}
	return false
}

func (r *recorder) decide() error {
	h, _ := format.Sniff(r.head, true)
	head := r.head
	r.head = nil
	if h.SSE {
		r.framing = SSE
		r.atStart = true
		if _, err := io.WriteString(r.dst, Header+"\n"); err != nil {
			return err
		}
		return r.writeSSE(head)
	}
	r.framing = Lines
	if r.cfg.Timing != nil {
		w, err := r.cfg.Timing()
		if err != nil {
			return err
		}
		r.timing = w
		if _, err := io.WriteString(w, TimingHeader+"\n"); err != nil {
			return err
		}
	}
	return r.writeLines(head)
}

func (r *recorder) finish() error {
	if r.framing == "" {
		if len(r.head) == 0 {
			return nil
		}
		if err := r.decide(); err != nil {
			return err
		}
	}
	if r.framing == SSE {
		if len(r.line) > 0 || len(r.msg) > 0 {
			r.decideLine()
			return r.flushMessage()
		}
		return nil
	}
	if r.lineLen > 0 {
		return r.stampLine()
	}
	return nil
}

// writeSSE records b, part of an SSE stream.
func (r *recorder) writeSSE(b []byte) error {
	for len(b) > 0 {
		if r.lastCR {
			r.lastCR = false
			if b[0] == '\n' {
				// The LF of a CRLF: it belongs with the CR, wherever
				// that went.
				if r.wrote {
					if _, err := r.dst.Write(b[:1]); err != nil {
						return err
					}
				} else {
					r.msg = append(r.msg, '\n')
				}
				b = b[1:]
				continue
			}
		}
		r.wrote = false
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			r.addLine(b)
			break
		}
		blank := r.atStart && i == 0
		r.addLine(b[:i+1])
		r.decideLine()
		r.lastCR = b[i] == '\r'
		b = b[i+1:]
		r.atStart = true
		r.decided = false
		if blank {
			if err := r.flushMessage(); err != nil {
				return err
			}
			r.wrote = true
		}
	}
	if r.over || len(r.msg) > r.cfg.MaxEventBytes {
		// Too large to hold: write what there is, timed now, and the
		// rest as it comes.
		out := r.msg
		if !r.over {
			r.out = append(r.stamp(r.out[:0]), r.msg...)
			out = r.out
			r.over = true
		}
		if _, err := r.dst.Write(out); err != nil {
			return err
		}
		r.msg = r.msg[:0]
	}
	return nil
}

// addLine adds b to the current line: to r.line until its first bytes
// tell whether it needs an escape, to r.msg after that.
func (r *recorder) addLine(b []byte) {
	r.atStart = false
	if r.decided {
		r.msg = append(r.msg, b...)
		return
	}
	r.line = append(r.line, b...)
	if len(r.line) >= reservedLen {
		r.decideLine()
	}
}

// decideLine moves the current line's start to the message, after an
// escape if the stream's own line looks like one of ours.
func (r *recorder) decideLine() {
	if r.decided || len(r.line) == 0 {
		return
	}
	if bytes.HasPrefix(r.line, []byte(stampPrefix)) || bytes.HasPrefix(r.line, []byte(":agentstream")) {
		r.msg = append(r.msg, literal+"\n"...)
	}
	r.msg = append(r.msg, r.line...)
	r.line = r.line[:0]
	r.decided = true
}

// flushMessage writes the message read so far with its arrival time.
func (r *recorder) flushMessage() error {
	out := r.msg
	if !r.over {
		r.out = append(r.stamp(r.out[:0]), r.msg...)
		out = r.out
	}
	r.over = false
	r.msg = r.msg[:0]
	_, err := r.dst.Write(out)
	return err
}

// writeLines records b, part of a line-framed input: the bytes as they
// are, and the arrival time of each line in the sidecar.
func (r *recorder) writeLines(b []byte) error {
	if _, err := r.dst.Write(b); err != nil {
		return err
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			r.lineLen += len(b)
			return nil
		}
		r.lineLen += i + 1
		if err := r.stampLine(); err != nil {
			return err
		}
		b = b[i+1:]
	}
	return nil
}

func (r *recorder) stampLine() error {
	r.lineNum++
	r.lineLen = 0
	if r.timing == nil {
		return nil
	}
	_, err := fmt.Fprintf(r.timing, "%d %s\n", r.lineNum, r.ms())
	return err
}
