package source

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
)

// bodyPreview is how much of an unexpected response body an error shows.
const bodyPreview = 512

// defaultRetryDelay is the wait before a reconnection when the server has
// not set one with a retry: field.
const defaultRetryDelay = time.Second

// Reconnection limits (docs/url-input.md#retry).
const (
	// DefaultMinRetryDelay is the shortest wait before a reconnection: a
	// server's retry: 0 does not make agentstream hammer it.
	DefaultMinRetryDelay = 100 * time.Millisecond
	// DefaultMaxRetryDelay caps the wait before a reconnection: a
	// server's retry: of an hour does not park agentstream for an hour.
	DefaultMaxRetryDelay = time.Minute
	// DefaultMaxReconnects caps the reconnections of one input in all.
	DefaultMaxReconnects = 100
	// maxBackoff caps the doubling of the wait between reconnections in a
	// row (a server's retry: above it is honoured as it is).
	maxBackoff = 30 * time.Second
	// maxRedirects is how many redirects one request follows.
	maxRedirects = 10
)

// HTTPError is an answer that is not an SSE stream: a status other than
// 2xx, or a 2xx whose Content-Type is not text/event-stream.
type HTTPError struct {
	Method      string
	URL         string
	StatusCode  int
	Status      string // "500 Internal Server Error"
	ContentType string
	Body        string // the start of the body, at most 512 bytes
}

func (e *HTTPError) Error() string {
	var b strings.Builder
	b.WriteString(e.Method + " " + e.URL + ": " + e.Status)
	if e.StatusCode/100 == 2 {
		ct := e.ContentType
		if ct == "" {
			ct = "none"
		}
		fmt.Fprintf(&b, ": content type %s, not text/event-stream", ct)
	}
	if e.Body != "" {
		b.WriteString(": " + e.Body)
	}
	return b.String()
}

// StreamError is a failure to connect, or a lost connection: the request
// and what went wrong. It prints as "METHOD URL: cause", so that callers
// need not name the input again.
type StreamError struct {
	Method string
	URL    string
	Err    error
}

func (e *StreamError) Error() string { return e.Method + " " + e.URL + ": " + e.Err.Error() }

func (e *StreamError) Unwrap() error { return e.Err }

// Sentinel causes of errors in the middle of a stream.
var (
	// ErrIdleTimeout: no byte arrived for Options.IdleTimeout.
	ErrIdleTimeout = errors.New("idle timeout")
	// ErrConnectTimeout: no response headers within Options.ConnectTimeout.
	ErrConnectTimeout = errors.New("connect timeout")
	// ErrRedirectLoop: the server redirected more than 10 times. It is
	// never retried: the next attempt would loop the same way.
	ErrRedirectLoop = errors.New("redirect loop")
)

// checkRedirect stops a redirect loop with ErrRedirectLoop.
func checkRedirect(_ *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("%w: stopped after %d redirects", ErrRedirectLoop, len(via))
	}
	return nil
}

// openURL sends the request and returns the response body as the SSE bytes
// it carries, so that format detection and the decoders read a URL exactly
// as they read a file. See the package documentation for the retry rules.
func openURL(ctx context.Context, name string, opts *Options) (io.ReadCloser, error) {
	r := &urlReader{
		ctx: ctx, url: name, opts: opts, method: opts.Method,
		client: opts.Client, delay: opts.RetryDelay, max: opts.MaxEventBytes,
	}
	if r.method == "" {
		r.method = http.MethodGet
		if opts.Data != nil {
			r.method = http.MethodPost
		}
	}
	r.method = strings.ToUpper(r.method)
	if r.client == nil {
		r.client = http.DefaultClient
	}
	if r.client.CheckRedirect == nil {
		c := *r.client
		c.CheckRedirect = checkRedirect
		r.client = &c
	}
	if r.delay <= 0 {
		r.delay = defaultRetryDelay
	}
	r.floor = opts.MinRetryDelay
	if r.floor <= 0 {
		r.floor = DefaultMinRetryDelay
	}
	r.ceiling = opts.MaxRetryDelay
	if r.ceiling <= 0 {
		r.ceiling = DefaultMaxRetryDelay
	}
	r.ceiling = max(r.ceiling, r.floor)
	r.maxTotal = opts.MaxReconnects
	if r.maxTotal <= 0 {
		r.maxTotal = DefaultMaxReconnects
	}
	if r.max <= 0 {
		r.max = event.DefaultMaxBytes
	}
	r.retriesLeft = opts.Retry
	for {
		err := r.connect()
		if err == nil {
			return r, nil
		}
		if err = r.retry(err); err != nil {
			return nil, err
		}
	}
}

// urlReader reads an SSE response body. It hands out whole messages only
// (up to and including the blank line that ends them), so that after a
// dropped connection the partial message can be dropped, as EventSource
// does, and the stream resumed with Last-Event-ID without mixing two halves.
type urlReader struct {
	ctx    context.Context
	url    string
	opts   *Options
	method string
	client *http.Client
	delay  time.Duration // reconnection delay (retry: field)
	max    int

	floor       time.Duration // shortest wait before a reconnection
	ceiling     time.Duration // longest wait before a reconnection
	retriesLeft int           // reconnections left in a row
	reconnects  int           // reconnections so far
	maxTotal    int
	resp        *http.Response
	cancel      context.CancelCauseFunc
	attemptCtx  context.Context
	idle        *time.Timer

	scratch []byte
	data    []byte // data[out:ready] is ready to hand out; data[ready:] is the message being read
	out     int
	ready   int
	over    bool // the message being read is over the cap and passed through as it comes

	lines   lineState
	msgID   string // id: of the message being read
	msgHas  bool   // the message being read has an id: field
	msgData bool   // the message being read has a data: or event: field
	lastID  string // the last id: of a complete message, sent as Last-Event-ID

	// seen holds the ids of the last seenIDs messages handed out (ring, at
	// seenNext), so that after a reconnection a message the server sends
	// again (it ignored Last-Event-ID) is dropped instead of repeated.
	seen     []string
	seenNext int
	repeated int // messages dropped as repeats since the last reconnection

	// delivered: an event was handed out. resumable: every event handed
	// out since the last id: carried one, so that Last-Event-ID resumes
	// the stream exactly after the last event read.
	delivered bool
	resumable bool
	err       error
}

// lineState splits the bytes of an SSE stream into lines across reads.
type lineState struct {
	lastCR bool
	n      int    // length of the current line so far
	head   []byte // its first bytes (enough for an id: or retry: field)
}

const lineHead = 4096

func (r *urlReader) connect() error {
	r.attemptCtx, r.cancel = context.WithCancelCause(r.ctx)
	var body io.Reader
	if r.opts.Data != nil {
		body = bytes.NewReader(r.opts.Data)
	}
	req, err := http.NewRequestWithContext(r.attemptCtx, r.method, r.url, body)
	if err != nil {
		r.cancel(nil)
		return err
	}
	for k, vs := range r.opts.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "text/event-stream")
	}
	if req.Header.Get("Cache-Control") == "" {
		req.Header.Set("Cache-Control", "no-cache")
	}
	if r.opts.Data != nil && req.Header.Get("Content-Type") == "" {
		ct := "application/octet-stream"
		if json.Valid(r.opts.Data) {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	if r.lastID != "" {
		req.Header.Set("Last-Event-ID", r.lastID)
	}
	var connectTimer *time.Timer
	if d := r.opts.ConnectTimeout; d > 0 {
		cancel := r.cancel
		connectTimer = time.AfterFunc(d, func() {
			cancel(fmt.Errorf("%w: no answer in %v", ErrConnectTimeout, d))
		})
	}
	resp, err := r.client.Do(req)
	if connectTimer != nil {
		connectTimer.Stop()
	}
	if err != nil {
		err = r.cause(err)
		r.cancel(nil)
		return &StreamError{Method: r.method, URL: r.url, Err: unwrapURLError(err)}
	}
	if herr := check(r.method, r.url, resp); herr != nil {
		resp.Body.Close()
		r.cancel(nil)
		return herr
	}
	r.resp = resp
	return nil
}

// check reports a response that is not an SSE stream. A 204 No Content is
// an empty stream (it is how an SSE server tells a client to stop).
func check(method, target string, resp *http.Response) error {
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	ok := resp.StatusCode/100 == 2 && (mt == "text/event-stream" || resp.StatusCode == http.StatusNoContent)
	if ok {
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, bodyPreview+1))
	body := preview(b)
	status := resp.Status
	if status == "" {
		status = strconv.Itoa(resp.StatusCode)
	}
	return &HTTPError{
		Method: method, URL: target, StatusCode: resp.StatusCode, Status: status,
		ContentType: ct, Body: body,
	}
}

// preview returns the start of a body for an error message: at most
// bodyPreview bytes, cut at a character boundary, on one line (runs of
// white space, line ends included, become one space), with "..." when
// there is more.
func preview(b []byte) string {
	more := len(b) > bodyPreview
	if more {
		b = b[:bodyPreview]
		for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:]) {
					b = b[:i]
				}
				break
			}
		}
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "\uFFFD")), " ")
	if more {
		s += "..."
	}
	return s
}

// cause replaces a transport error caused by one of our timers with the
// timer's reason.
func (r *urlReader) cause(err error) error {
	if c := context.Cause(r.attemptCtx); c != nil && r.ctx.Err() == nil && !errors.Is(c, context.Canceled) {
		return c
	}
	return err
}

func unwrapURLError(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err
	}
	return err
}

// retry decides whether err allows another connection. If it does, it
// uses one, waits before it, and returns nil; if not, it returns the error
// to report: err, saying why it was not retried where that is not plain.
func (r *urlReader) retry(err error) error {
	var herr *HTTPError
	switch {
	case r.ctx.Err() != nil || errors.As(err, &herr) || errors.Is(err, ErrRedirectLoop):
		return err
	case r.retriesLeft <= 0:
		if r.opts.Retry > 0 {
			return fmt.Errorf("%w (gave up after %s in a row)", err, reconnections(r.opts.Retry))
		}
		return err
	case r.reconnects >= r.maxTotal:
		return fmt.Errorf("%w (gave up after %s in all)", err, reconnections(r.reconnects))
	case r.delivered && !r.resumable && !r.opts.RetryWithoutIDs:
		return fmt.Errorf("%w (not reconnecting: the events read carry no id to resume after, and a new request "+
			"could send them again; --retry-without-ids reconnects all the same)", err)
	}
	r.retriesLeft--
	r.reconnects++
	d := r.backoff()
	if r.opts.Warn != nil {
		msg := fmt.Sprintf("%v; reconnecting in %v (%d of %d)", err, d, r.opts.Retry-r.retriesLeft, r.opts.Retry)
		if r.delivered && !r.resumable {
			msg += ", without an event id to resume after: events already read may come again"
		} else if r.lastID != "" {
			msg += ", resuming after id " + strconv.Quote(r.lastID)
		}
		r.opts.Warn(msg)
	}
	sleep := r.opts.Sleep
	if sleep == nil {
		sleep = wait
	}
	return sleep(r.ctx, d)
}

func reconnections(n int) string {
	if n == 1 {
		return "1 reconnection"
	}
	return strconv.Itoa(n) + " reconnections"
}

// backoff returns the wait before the next reconnection: the server's
// retry: (or Options.RetryDelay), at least the floor, doubled for every
// reconnection in a row before it, up to maxBackoff, and never more than
// the ceiling.
func (r *urlReader) backoff() time.Duration {
	base := min(max(r.delay, r.floor), r.ceiling)
	d := base
	for range r.opts.Retry - r.retriesLeft - 1 {
		if d >= maxBackoff {
			break
		}
		d *= 2
	}
	return min(max(base, min(d, maxBackoff)), r.ceiling)
}

// seenIDs is how many of the last ids a URL reader remembers to drop
// repeats after a reconnection.
const seenIDs = 1024

// remember records id as handed out.
func (r *urlReader) remember(id string) {
	if len(r.seen) < seenIDs {
		r.seen = append(r.seen, id)
		return
	}
	r.seen[r.seenNext] = id
	r.seenNext = (r.seenNext + 1) % seenIDs
}

// repeat reports whether id was handed out already (one of the last
// seenIDs ids).
func (r *urlReader) repeat(id string) bool {
	for _, s := range r.seen {
		if s == id {
			return true
		}
	}
	return false
}

// reportRepeats tells Warn, once per reconnection, how many messages the
// server sent again and were dropped.
func (r *urlReader) reportRepeats() {
	if r.repeated == 0 {
		return
	}
	if r.opts.Warn != nil {
		what := "events"
		if r.repeated == 1 {
			what = "event"
		}
		r.opts.Warn(fmt.Sprintf("dropped %d %s the server sent again after reconnecting (an id already read: it did not resume after Last-Event-ID)", r.repeated, what))
	}
	r.repeated = 0
}

func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Read hands out complete SSE messages as they arrive.
func (r *urlReader) Read(p []byte) (int, error) {
	for r.out == r.ready {
		if r.err != nil {
			return 0, r.err
		}
		r.fill()
	}
	n := copy(p, r.data[r.out:r.ready])
	r.out += n
	return n, nil
}

// fill reads once from the response and moves what it completes to the
// ready part of the buffer, reconnecting or setting r.err on failure.
func (r *urlReader) fill() {
	if r.out == r.ready && r.out > 0 {
		r.data = r.data[:copy(r.data, r.data[r.ready:])]
		r.out, r.ready = 0, 0
	}
	if r.scratch == nil {
		r.scratch = make([]byte, 32<<10)
	}
	if d := r.opts.IdleTimeout; d > 0 {
		if r.idle == nil {
			cancel := r.cancel
			r.idle = time.AfterFunc(d, func() {
				cancel(fmt.Errorf("%w: no data for %v", ErrIdleTimeout, d))
			})
		} else {
			r.idle.Reset(d)
		}
	}
	n, err := r.resp.Body.Read(r.scratch)
	if r.idle != nil {
		r.idle.Stop()
	}
	if n > 0 {
		start := len(r.data)
		r.data = append(r.data, r.scratch[:n]...)
		r.scan(start)
		if len(r.data)-r.ready > r.max+lineHead {
			// Too large to hold: pass it on as it comes; the decoder
			// reports it and skips it.
			r.over = true
		}
		if r.over {
			r.ready = len(r.data)
		}
	}
	if err == nil {
		return
	}
	r.closeResponse()
	r.reportRepeats()
	if err == io.EOF {
		// The server ended the stream. A message left without its blank
		// line is passed on: the decoder decides what it is worth.
		r.ready = len(r.data)
		r.err = io.EOF
		return
	}
	if r.ctx.Err() != nil {
		r.ready = len(r.data) // a recording keeps what arrived
		r.err = r.ctx.Err()
		return
	}
	err = r.cause(err)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("connection lost: " + err.Error())
	}
	if len(r.data) > r.ready || r.over {
		err = fmt.Errorf("in the middle of a message: %w", err)
	}
	err = &StreamError{Method: r.method, URL: r.url, Err: err}
	if err = r.retry(err); err != nil {
		// Keep what arrived: a recording keeps it, a decoder reports it.
		r.ready = len(r.data)
		r.err = err
		return
	}
	// Drop the partial message, as EventSource does, and resume. Part of
	// a message over the cap was handed out already: end it with a blank
	// line, so that the decoder's skip of it ends here and not inside the
	// resumed stream. (After a CR, the first LF completes a CRLF.)
	r.data = r.data[:r.ready]
	if r.over {
		r.data = append(r.data, "\n\n"...)
		r.ready = len(r.data)
	}
	r.lines = lineState{}
	r.msgID, r.msgHas, r.msgData, r.over = "", false, false, false
	for {
		cerr := r.connect()
		if cerr == nil {
			return
		}
		if cerr = r.retry(cerr); cerr != nil {
			r.ready = len(r.data)
			r.err = cerr
			return
		}
	}
}

// scan splits data[from:] into lines, tracking id: and retry: fields and the
// blank lines that end messages.
func (r *urlReader) scan(from int) {
	b := r.data[from:]
	pos := from
	for len(b) > 0 {
		if r.lines.lastCR {
			r.lines.lastCR = false
			if b[0] == '\n' {
				b, pos = b[1:], pos+1
				if r.ready == pos-1 {
					r.ready = pos // keep a CRLF whole
				}
				continue
			}
		}
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			r.addLine(b)
			return
		}
		r.addLine(b[:i])
		r.lines.lastCR = b[i] == '\r'
		b, pos = b[i+1:], pos+i+1
		if from, drop := r.endLine(pos); drop {
			// A message the server sent again: cut it out.
			rest := copy(r.data[from:], r.data[pos:])
			r.data = r.data[:from+rest]
			b, pos, r.ready = r.data[from:], from, from
		}
	}
}

func (r *urlReader) addLine(b []byte) {
	r.lines.n += len(b)
	if room := lineHead - len(r.lines.head); room > 0 {
		r.lines.head = append(r.lines.head, b[:min(room, len(b))]...)
	}
}

// endLine handles a line that ended just before pos. It reports a message
// to drop, from data[from:pos], when the line ends a message with an id
// handed out before a reconnection.
func (r *urlReader) endLine(pos int) (from int, drop bool) {
	line := r.lines.head
	full := r.lines.n == len(line)
	r.lines.n, r.lines.head = 0, r.lines.head[:0]
	if len(line) == 0 && full {
		// A blank line ends the message.
		if r.msgHas && r.msgID != "" && !r.over && r.reconnects > 0 && r.repeat(r.msgID) {
			r.repeated++
			r.msgID, r.msgHas, r.msgData = "", false, false
			return r.ready, true
		}
		if r.msgHas && r.msgID != "" {
			r.remember(r.msgID)
		}
		switch {
		case r.msgHas:
			if r.msgID != "" && r.msgID != r.lastID {
				// Progress: a new event to resume after. The retry
				// budget starts again; comments and blank lines, or an
				// event that repeats the last id, do not restart it.
				r.retriesLeft = r.opts.Retry
			}
			r.lastID = r.msgID
			r.resumable = r.msgID != ""
		case r.msgData:
			r.resumable = false
		}
		r.delivered = r.delivered || r.msgData
		r.msgID, r.msgHas, r.msgData, r.over = "", false, false, false
		r.ready = pos
		return 0, false
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(field) {
	case "data", "event":
		r.msgData = true
	case "id":
		if full && bytes.IndexByte(value, 0) < 0 {
			r.msgID, r.msgHas = string(value), true
		}
	case "retry":
		// A whole number of milliseconds (EventSource ignores anything
		// else); one too large for any wait is held at the ceiling.
		ms, err := strconv.ParseUint(string(value), 10, 64)
		if full && (err == nil || errors.Is(err, strconv.ErrRange)) {
			if err != nil || ms > uint64(r.ceiling/time.Millisecond) {
				r.delay = r.ceiling
			} else {
				r.delay = time.Duration(ms) * time.Millisecond
			}
		}
	}
	return 0, false
}

func (r *urlReader) closeResponse() {
	if r.resp != nil {
		r.resp.Body.Close()
		r.resp = nil
	}
	if r.cancel != nil {
		r.cancel(nil)
	}
	if r.idle != nil {
		r.idle.Stop()
		r.idle = nil
	}
}

// Close ends the request.
func (r *urlReader) Close() error {
	r.closeResponse()
	if r.err == nil {
		r.err = errors.New("read after close")
	}
	return nil
}
