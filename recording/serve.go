package recording

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	sse "github.com/tmaxmax/go-sse"
)

// Handler serves a recording as an SSE endpoint. Every client gets the
// whole recording from the start, at its recorded pace, or from the
// message after its Last-Event-ID. Messages keep their own id: field;
// those without one get their 1-based number, so that every message can
// be resumed from. A client that resumes from the last message gets 204
// No Content, which tells an EventSource to stop reconnecting.
type Handler struct {
	msgs   []served
	timing Timing
}

type served struct {
	chunk Chunk
	msg   *sse.Message
	id    string
}

// NewHandler reads the whole recording p into memory and returns a
// handler that serves it with timing t. Line-framed recordings are served
// with one message per line, the line as its data; comment-only SSE
// messages (keep-alives) and blank lines are left out.
func NewHandler(p *Player, t Timing) (*Handler, error) {
	framing, err := p.Framing()
	if err != nil {
		return nil, err
	}
	h := &Handler{timing: t}
	for n := 1; ; n++ {
		c, err := p.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if _, err := t.Gap(Chunk{}, c, false); err != nil {
			return nil, err
		}
		m := &sse.Message{}
		if framing == SSE {
			if commentOnly(c.Data) {
				continue
			}
			text := c.Data
			if !bytes.HasSuffix(text, []byte("\n\n")) && !bytes.HasSuffix(text, []byte("\r\r")) &&
				!bytes.HasSuffix(text, []byte("\r\n\r\n")) {
				text = append(bytes.Clone(text), "\n\n"...)
			}
			if err := m.UnmarshalText(text); err != nil {
				return nil, fmt.Errorf("message %d of the recording: %w", n, err)
			}
		} else {
			line := bytes.TrimRight(c.Data, "\r\n")
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			m.AppendData(string(line))
		}
		if !m.ID.IsSet() {
			m.ID = sse.ID(strconv.Itoa(n))
		}
		h.msgs = append(h.msgs, served{chunk: c, msg: m, id: m.ID.String()})
	}
	return h, nil
}

func commentOnly(data []byte) bool {
	for line := range bytes.Lines(data) {
		if len(bytes.TrimSpace(line)) > 0 && line[0] != ':' {
			return false
		}
	}
	return true
}

// ServeHTTP plays the recording to one client.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	from := 0
	if last := r.Header.Get("Last-Event-ID"); last != "" {
		for i, s := range h.msgs {
			if s.id == last {
				from = i + 1
			}
		}
		if from == len(h.msgs) {
			w.WriteHeader(http.StatusNoContent)
			return
		}
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
	for i := from; i < len(h.msgs); i++ {
		var prev Chunk
		if i > 0 {
			prev = h.msgs[i-1].chunk
		}
		gap, _ := h.timing.Gap(prev, h.msgs[i].chunk, i == from && i == 0)
		due += gap
		if sleepUntil(ctx, timer, start.Add(due)) != nil {
			return
		}
		if sess.Send(h.msgs[i].msg) != nil || sess.Flush() != nil {
			return
		}
	}
}
