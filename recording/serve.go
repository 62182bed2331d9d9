package recording

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"time"

	sse "github.com/tmaxmax/go-sse"
)

// Handler serves a recording as an SSE endpoint. Every client gets the
// whole recording from the start, at its recorded pace, or from the
// message after its Last-Event-ID. A client that resumes from the last
// message gets 204 No Content, which tells an EventSource to stop
// reconnecting.
//
// Every served message's id is its 1-based position in the recording, so
// that ids are unique and increase whatever id: fields the recording
// holds (a recording may mix messages with and without one, or repeat
// one); the recorded id: fields are not served.
//
// The recording is read from rec for each client, as it is played: memory
// does not grow with the recording's size, and each client holds one
// message and a small buffer. rec and the sidecar are read with ReadAt,
// so that any number of clients share one open file.
type Handler struct {
	rec, side io.ReaderAt
	timing    Timing
}

// serveBuffer is the read buffer of each client's player: small, since a
// server may have many clients.
const serveBuffer = 4 << 10

// NewHandler returns a handler that serves the recording rec, with its
// timing sidecar side (nil if none), with timing t. Line-framed
// recordings are served with one message per line, the line as its data;
// comment-only SSE messages (keep-alives) and blank lines are left out.
// NewHandler reads the recording through once, holding one message at a
// time, to report a recording that cannot be served before any client
// asks for it.
func NewHandler(rec, side io.ReaderAt, t Timing) (*Handler, error) {
	h := &Handler{rec: rec, side: side, timing: t}
	it, err := h.open()
	if err != nil {
		return nil, err
	}
	var prev Chunk
	for first := true; ; first = false {
		m, err := it.next()
		if err == io.EOF {
			return h, nil
		}
		if err != nil {
			return nil, err
		}
		if _, err := t.Gap(prev, m.chunk, first); err != nil {
			return nil, err
		}
		prev = Chunk{At: m.chunk.At, Timed: m.chunk.Timed}
	}
}

// messages reads the messages to serve from a recording.
type messages struct {
	p       *Player
	framing string
	n       int // chunks read
}

type served struct {
	chunk Chunk
	msg   *sse.Message
	n     int // position in the recording: the served id
}

func (h *Handler) open() (*messages, error) {
	var side io.Reader
	if h.side != nil {
		side = io.NewSectionReader(h.side, 0, math.MaxInt64)
	}
	p := newPlayer(io.NewSectionReader(h.rec, 0, math.MaxInt64), side, serveBuffer)
	framing, err := p.Framing()
	if err != nil {
		return nil, err
	}
	return &messages{p: p, framing: framing}, nil
}

// next returns the next message to serve, or io.EOF.
func (it *messages) next() (served, error) {
	for {
		c, err := it.p.Next()
		if err != nil {
			return served{}, err
		}
		it.n++
		if c.More {
			return served{}, fmt.Errorf("message %d of the recording is over %d bytes: too large to serve", it.n, it.p.max())
		}
		m := &sse.Message{}
		if it.framing == SSE {
			if commentOnly(c.Data) {
				continue
			}
			text := c.Data
			if !bytes.HasSuffix(text, []byte("\n\n")) && !bytes.HasSuffix(text, []byte("\r\r")) &&
				!bytes.HasSuffix(text, []byte("\r\n\r\n")) {
				text = append(text, "\n\n"...)
			}
			if err := m.UnmarshalText(text); err != nil {
				return served{}, fmt.Errorf("message %d of the recording: %w", it.n, err)
			}
		} else {
			line := bytes.TrimRight(c.Data, "\r\n")
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			m.AppendData(string(line))
		}
		m.ID = sse.ID(strconv.Itoa(it.n))
		return served{chunk: Chunk{At: c.At, Timed: c.Timed}, msg: m, n: it.n}, nil
	}
}

func commentOnly(data []byte) bool {
	for line := range bytes.Lines(data) {
		if len(bytes.TrimSpace(line)) > 0 && line[0] != ':' {
			return false
		}
	}
	return true
}

// resume returns the messages of the recording after the one numbered
// last, with the first of them and the message before it (for its gap),
// the zero Chunk if there is none (hasPrev false).
func (h *Handler) resume(last string) (it *messages, m served, prev Chunk, hasPrev bool, err error) {
	it, err = h.open()
	if err != nil {
		return nil, served{}, Chunk{}, false, err
	}
	k, err := strconv.Atoi(last)
	if last == "" || err != nil || k < 1 {
		k = 0
	}
	seen := false // the message numbered k was seen
	for {
		m, err = it.next()
		if err == io.EOF && k > 0 && !seen {
			return h.resume("") // an id the recording does not hold: from the start
		}
		if err != nil || m.n > k {
			return it, m, prev, hasPrev, err
		}
		seen = seen || m.n == k
		prev, hasPrev = m.chunk, true
	}
}

// ServeHTTP plays the recording to one client.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	last := r.Header.Get("Last-Event-ID")
	it, m, prev, hasPrev, err := h.resume(last)
	if err == io.EOF {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	sess, err := sse.Upgrade(w, r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	sess.Res.Header().Set("Cache-Control", "no-cache")
	sess.Res.Header().Set("X-Accel-Buffering", "no")
	if err := sess.Flush(); err != nil { // the headers, before the first wait
		return
	}
	ctx := r.Context()
	start := time.Now()
	var due time.Duration
	timer := time.NewTimer(0)
	defer timer.Stop()
	for first := true; ; first = false {
		gap, _ := h.timing.Gap(prev, m.chunk, first && !hasPrev)
		due += gap
		if sleepUntil(ctx, timer, start.Add(due)) != nil {
			return
		}
		if sess.Send(m.msg) != nil || sess.Flush() != nil {
			return
		}
		prev = m.chunk
		if m, err = it.next(); err != nil {
			return
		}
	}
}
