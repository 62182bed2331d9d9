package recording

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// ErrNoTiming is returned by Play for a recording without timing when
// neither NoDelay nor Interval is set.
var ErrNoTiming = errors.New("the recording has no timing (use --no-delay or --interval)")

// Chunk is one unit of a recording: an SSE message or a line.
type Chunk struct {
	// At is when the chunk arrived, from the start of the recording.
	At time.Duration
	// Timed reports whether the recording says when the chunk arrived.
	Timed bool
	// Data is the chunk's bytes as they arrived: an SSE message with the
	// blank line that ended it (comments included, the recording's own
	// lines removed), or a line with its terminator.
	Data []byte
	// More marks a part of a unit over Player.MaxChunkBytes: the rest of
	// the unit follows in the next chunks, with the same time. Together
	// the parts are the unit's bytes.
	More bool
}

// Player reads the chunks of a recording, or of any SSE or line-framed
// file (whose chunks are then untimed).
type Player struct {
	// MaxChunkBytes caps one chunk (event.DefaultMaxBytes if <= 0): a
	// message or line over it is returned in parts (Chunk.More), so that
	// a player holds no more than that whatever the recording holds.
	MaxChunkBytes int

	br      *bufio.Reader
	timing  *bufio.Scanner
	framing string
	timed   bool
	line    int // lines read (line framing)
	at      time.Duration
	err     error

	midLine bool  // the last line read was cut at the cap: the next read continues it
	part    Chunk // the unit being returned in parts (At, Timed), when More
}

func (p *Player) max() int {
	if p.MaxChunkBytes <= 0 {
		return event.DefaultMaxBytes
	}
	return p.MaxChunkBytes
}

// NewPlayer returns a player of the recording in r. timing is the
// recording's timing sidecar, or nil if it has none; it is only read for
// line-framed recordings.
func NewPlayer(r io.Reader, timing io.Reader) *Player {
	return newPlayer(r, timing, 64<<10)
}

func newPlayer(r io.Reader, timing io.Reader, size int) *Player {
	p := &Player{br: bufio.NewReaderSize(r, size)}
	if timing != nil {
		p.timing = bufio.NewScanner(timing)
	}
	return p
}

// Framing returns SSE or Lines: what the recording holds. It reads the
// start of the recording the first time it is called.
func (p *Player) Framing() (string, error) {
	if p.framing != "" || p.err != nil {
		return p.framing, p.err
	}
	b, err := p.br.Peek(len(Header) + 1)
	if err == nil && string(b[:len(Header)]) == Header && (b[len(Header)] == '\n' || b[len(Header)] == '\r') {
		p.framing, p.timed = SSE, true
		p.readLine(len(Header)+2, sseEnds) // the header
		return p.framing, nil
	}
	if p.timing != nil {
		if !p.timing.Scan() || p.timing.Text() != TimingHeader {
			p.err = fmt.Errorf("timing file does not start with %q", TimingHeader)
			return "", p.err
		}
		p.framing, p.timed = Lines, true
		return p.framing, nil
	}
	// A file that is no recording: sniff its framing like convert does.
	for n := 1; ; n = p.br.Buffered() + 1 {
		_, err := p.br.Peek(n)
		prefix, _ := p.br.Peek(p.br.Buffered())
		atEOF := err != nil || p.br.Buffered() == p.br.Size()
		h, ok := format.Sniff(prefix, atEOF)
		if ok || atEOF {
			if err != nil && err != io.EOF {
				p.err = err
				return "", err
			}
			p.framing = Lines
			if h.SSE {
				p.framing = SSE
			}
			return p.framing, nil
		}
	}
}

// Timed reports whether the recording says when its chunks arrived: a
// recording with its header, or a line-framed one with a timing sidecar.
func (p *Player) Timed() (bool, error) {
	_, err := p.Framing()
	return p.timed, err
}

// Next returns the next chunk, or io.EOF at the end of the recording.
func (p *Player) Next() (Chunk, error) {
	if _, err := p.Framing(); err != nil {
		return Chunk{}, err
	}
	if p.err != nil {
		return Chunk{}, p.err
	}
	var c Chunk
	var err error
	if p.framing == SSE {
		c, err = p.nextSSE()
	} else {
		c, err = p.nextLine()
	}
	if err != nil {
		p.err = err
	}
	return c, err
}

func (p *Player) nextSSE() (Chunk, error) {
	var c Chunk
	if p.part.More {
		c.At, c.Timed = p.part.At, p.part.Timed
	}
	for {
		fresh := !p.midLine // the line read starts a line
		line, err := p.readLine(p.max()-len(c.Data), sseEnds)
		if len(line) == 0 && err != nil {
			if err == io.EOF && len(c.Data) > 0 {
				p.part.More = false
				return c, nil // a last message without its blank line
			}
			return Chunk{}, err
		}
		switch {
		case !fresh:
		case p.timed && bytes.HasPrefix(line, []byte(stampPrefix)):
			ms, perr := strconv.ParseInt(strings.TrimRight(string(line[len(stampPrefix):]), "\r\n"), 10, 64)
			if perr != nil {
				return Chunk{}, fmt.Errorf("bad time line %q in the recording", strings.TrimRight(string(line), "\r\n"))
			}
			p.at = time.Duration(ms) * time.Millisecond
			c.Timed = true
			continue
		case p.timed && bytes.Equal(bytes.TrimRight(line, "\r\n"), []byte(literal)):
			line, err = p.readLine(p.max()-len(c.Data), sseEnds)
			if len(line) == 0 && err != nil {
				return Chunk{}, err
			}
		}
		if !p.part.More {
			c.At = p.at
		}
		c.Data = append(c.Data, line...)
		if fresh && isBlank(line) {
			p.part.More = false
			return c, nil
		}
		if len(c.Data) >= p.max() {
			c.More = true
			p.part = c
			return c, nil
		}
	}
}

func isBlank(line []byte) bool {
	return len(line) > 0 && (line[0] == '\n' || line[0] == '\r')
}

func (p *Player) nextLine() (Chunk, error) {
	line, err := p.readLine(p.max(), lineEnds)
	if len(line) == 0 {
		if err == nil {
			err = io.EOF
		}
		return Chunk{}, err
	}
	if p.part.More {
		// The rest of a line over the cap: its time was read with its start.
		c := Chunk{At: p.part.At, Timed: p.part.Timed, Data: line, More: p.midLine}
		p.part.More = p.midLine
		return c, nil
	}
	p.line++
	c := Chunk{At: p.at, Data: line, More: p.midLine}
	if p.timing != nil && p.timing.Scan() {
		n, ms, ok := strings.Cut(p.timing.Text(), " ")
		num, nerr := strconv.Atoi(n)
		v, merr := strconv.ParseInt(ms, 10, 64)
		if !ok || nerr != nil || merr != nil || num != p.line {
			return Chunk{}, fmt.Errorf("timing file: line %q does not time line %d", p.timing.Text(), p.line)
		}
		p.at = time.Duration(v) * time.Millisecond
		c.At, c.Timed = p.at, true
	}
	p.part = c
	return c, nil
}

// Line ends: SSE lines end in LF, CRLF or CR; other recordings' in LF.
const (
	sseEnds  = "\r\n"
	lineEnds = "\n"
)

// readLine returns the next line with its terminator (one of ends, CRLF
// counting as one), or its first limit bytes (at least one), setting
// midLine: the next read continues the line.
func (p *Player) readLine(limit int, ends string) ([]byte, error) {
	limit = max(limit, 1)
	var line []byte
	for {
		if _, err := p.br.Peek(1); err != nil {
			p.midLine = false // the input ended the line
			return line, err
		}
		buf, _ := p.br.Peek(p.br.Buffered())
		i := bytes.IndexAny(buf, ends)
		if i < 0 || i >= limit-len(line) {
			n := min(len(buf), limit-len(line))
			line = append(line, buf[:n]...)
			p.br.Discard(n)
			if len(line) >= limit {
				p.midLine = true
				return line, nil
			}
			continue
		}
		line = append(line, buf[:i+1]...)
		p.br.Discard(i + 1)
		if buf[i] == '\r' {
			if nb, err := p.br.Peek(1); err == nil && nb[0] == '\n' {
				line = append(line, '\n')
				p.br.Discard(1)
			}
		}
		p.midLine = false
		return line, nil
	}
}

// Timing is how Play spaces chunks out.
type Timing struct {
	Speed    float64       // 2 plays twice as fast; 1 when 0
	MaxGap   time.Duration // longest wait between two chunks; 0 for no cap
	NoDelay  bool          // no waiting at all
	Interval time.Duration // a fixed wait between chunks instead of the recorded one
}

// Gap returns how long to wait before cur, given prev, the chunk before it
// (the zero Chunk for the first one, so that the first chunk waits as long
// as it did when recorded).
func (t Timing) Gap(prev, cur Chunk, first bool) (time.Duration, error) {
	switch {
	case prev.More:
		return 0, nil // the rest of a unit played in parts
	case t.NoDelay:
		return 0, nil
	case t.Interval > 0:
		if first {
			return 0, nil
		}
		return t.Interval, nil
	case !cur.Timed:
		return 0, ErrNoTiming
	}
	gap := cur.At - prev.At
	if gap < 0 {
		gap = 0
	}
	if t.Speed > 0 && t.Speed != 1 {
		gap = time.Duration(float64(gap) / t.Speed)
	}
	if t.MaxGap > 0 && gap > t.MaxGap {
		gap = t.MaxGap
	}
	return gap, nil
}

// Play calls write with every chunk of p at its time: the recorded time,
// scaled and capped as t says. The time of each chunk is counted from the
// start, not from the last write, so that slow writes do not add up.
func Play(ctx context.Context, p *Player, t Timing, write func(Chunk) error) error {
	start := time.Now()
	var due time.Duration
	var prev Chunk
	timer := time.NewTimer(0)
	defer timer.Stop()
	for first := true; ; first = false {
		c, err := p.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		gap, err := t.Gap(prev, c, first)
		if err != nil {
			return err
		}
		prev = c
		due += gap
		if err := sleepUntil(ctx, timer, start.Add(due)); err != nil {
			return err
		}
		if err := write(c); err != nil {
			return err
		}
	}
}

func sleepUntil(ctx context.Context, timer *time.Timer, when time.Time) error {
	d := time.Until(when)
	if d <= 0 {
		return ctx.Err()
	}
	timer.Reset(d)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// Reader returns a reader of the bytes p plays, each chunk at its time:
// what the recorded input was, as it arrived. Closing it ends the play.
func Reader(ctx context.Context, p *Player, t Timing) io.ReadCloser {
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		err := Play(ctx, p, t, func(c Chunk) error {
			_, err := pw.Write(c.Data)
			return err
		})
		pw.CloseWithError(err)
	}()
	return &playReader{PipeReader: pr, cancel: cancel}
}

type playReader struct {
	*io.PipeReader
	cancel context.CancelFunc
}

func (r *playReader) Close() error {
	r.cancel()
	return r.PipeReader.Close()
}
