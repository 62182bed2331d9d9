package source_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/source"
)

// maxRequests bounds every test server's request loop: past it the server
// answers 204 No Content, which ends any client, so a reader that
// reconnects forever fails its test instead of hanging it.
const maxRequests = 50

// server counts requests and answers each with answer(n, lastEventID), n
// counting from 1; what answer writes is sent, then the connection is
// dropped if answer returns true.
type server struct {
	*httptest.Server
	mu      sync.Mutex
	lastIDs []string
}

func newServer(t *testing.T, answer func(n int, lastID string) (body string, drop bool)) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.lastIDs = append(s.lastIDs, r.Header.Get("Last-Event-ID"))
		n := len(s.lastIDs)
		s.mu.Unlock()
		if n > maxRequests {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		body, drop := answer(n, r.Header.Get("Last-Event-ID"))
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
		w.(http.Flusher).Flush()
		if drop {
			panic(http.ErrAbortHandler)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lastIDs...)
}

// noSleep records the waits before reconnections instead of waiting.
func noSleep(o *source.Options) *[]time.Duration {
	var waits []time.Duration
	var mu sync.Mutex
	o.Sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	return &waits
}

// messages reads the SSE messages of url through frame.SSE: their data,
// the problems reported, and the error that ended the stream (nil at EOF).
func messages(t *testing.T, url string, opts *source.Options, max int) (data, problems []string, err error) {
	t.Helper()
	rc, err := open(t, url, opts)
	if err != nil {
		return nil, nil, err
	}
	s := frame.NewSSE(rc, url, max)
	for {
		m, err := s.Next()
		if err == io.EOF {
			return data, problems, nil
		}
		var perr *event.ParseError
		if errors.As(err, &perr) {
			problems = append(problems, perr.Err.Error())
			continue
		}
		if err != nil {
			return data, problems, err
		}
		data = append(data, m.Data)
	}
}

func numbered(from, to int, ids bool) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		if ids {
			fmt.Fprintf(&b, "id: %d\n", i)
		}
		fmt.Fprintf(&b, "data: %02d\n\n", i)
	}
	return b.String()
}

func seq(from, to int) []string {
	var s []string
	for i := from; i < to; i++ {
		s = append(s, fmt.Sprintf("%02d", i))
	}
	return s
}

// TestURLNoIDsNoSilentReconnect: a stream without ids that drops is not
// requested again from the start (which would write the events read
// again), unless RetryWithoutIDs says so, and then with a warning.
func TestURLNoIDsNoSilentReconnect(t *testing.T) {
	t.Parallel()
	for _, cut := range []string{"at an event boundary", "in the middle of an event"} {
		t.Run(cut, func(t *testing.T) {
			t.Parallel()
			tail := ""
			if cut != "at an event boundary" {
				tail = "data: 1"
			}
			srv := newServer(t, func(n int, _ string) (string, bool) { return numbered(0, 10, false) + tail, true })
			opts := &source.Options{Retry: 3}
			noSleep(opts)
			data, problems, err := messages(t, srv.URL, opts, 0)
			if err == nil || !strings.Contains(err.Error(), "no id") {
				t.Errorf("error = %v, want one saying the events carry no id to resume after", err)
			}
			if diff := cmp.Diff(seq(0, 10), data); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
			if problems != nil {
				t.Errorf("problems %q, want the network error alone", problems)
			}
			if n := len(srv.requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
	t.Run("with RetryWithoutIDs", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t, func(n int, _ string) (string, bool) {
			if n == 1 {
				return numbered(0, 3, false), true
			}
			return numbered(0, 5, false), false
		})
		var warnings []string
		opts := &source.Options{Retry: 3, RetryWithoutIDs: true, Warn: func(s string) { warnings = append(warnings, s) }}
		noSleep(opts)
		data, _, err := messages(t, srv.URL, opts, 0)
		if err != nil {
			t.Fatal(err)
		}
		// The server sent the first three again: with RetryWithoutIDs that
		// is what the user asked for, and was told.
		if diff := cmp.Diff(append(seq(0, 3), seq(0, 5)...), data); diff != "" {
			t.Errorf("data (-want +got):\n%s", diff)
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "may come again") {
			t.Errorf("warnings %q, want one saying events may come again", warnings)
		}
	})
	t.Run("an event without id after one with", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t, func(n int, _ string) (string, bool) {
			return "id: 1\ndata: 01\n\ndata: 02\n\n", true
		})
		opts := &source.Options{Retry: 3}
		noSleep(opts)
		_, _, err := messages(t, srv.URL, opts, 0)
		if err == nil || !strings.Contains(err.Error(), "no id") {
			t.Errorf("error = %v, want one saying the events carry no id to resume after", err)
		}
		if n := len(srv.requests()); n != 1 {
			t.Errorf("%d requests, want 1: resuming after id 1 would send 02 again", n)
		}
	})
}

// TestURLRetryBudget: the budget of reconnections in a row starts again
// only with an event that brings a new id, never with comments, blank
// lines or an id already seen; and a total caps them all.
func TestURLRetryBudget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		body      func(n int, lastID string) string
		retry     int
		total     int
		wantReqs  int
		wantInErr string
	}{
		{"keep-alive comments", func(int, string) string { return ": ka\n\n\n\n" }, 2, 0, 3, "in a row"},
		{"the same id again", func(int, string) string { return "id: 7\ndata: x\n\n" }, 2, 0, 3, "in a row"},
		{"a new id every time, capped in all", func(n int, _ string) string {
			return fmt.Sprintf("id: %d\ndata: x\n\n", n)
		}, 1, 5, 6, "in all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(n int, lastID string) (string, bool) { return tt.body(n, lastID), true })
			opts := &source.Options{Retry: tt.retry, MaxReconnects: tt.total}
			noSleep(opts)
			_, _, err := messages(t, srv.URL, opts, 0)
			if err == nil || !strings.Contains(err.Error(), tt.wantInErr) {
				t.Errorf("error = %v, want one saying it gave up (%s)", err, tt.wantInErr)
			}
			if n := len(srv.requests()); n != tt.wantReqs {
				t.Errorf("%d requests, want %d", n, tt.wantReqs)
			}
		})
	}
}

// TestURLBackoff: the wait honours the server's retry: with a floor, and
// doubles with every reconnection in a row.
func TestURLBackoff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		retryField string
		want       []time.Duration
	}{
		{"retry: 0\n", []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}},
		{"retry: 3000\n", []time.Duration{3 * time.Second, 6 * time.Second, 12 * time.Second}},
		{"retry: 20000\n", []time.Duration{20 * time.Second, 30 * time.Second, 30 * time.Second}},
		{"retry: 60000\n", []time.Duration{time.Minute, time.Minute, time.Minute}},
		// Above the ceiling (DefaultMaxRetryDelay), and too large for any
		// integer type: held at the ceiling, never wrapped round.
		{"retry: 3600000\n", []time.Duration{time.Minute, time.Minute, time.Minute}},
		{"retry: 9223372036854775807\n", []time.Duration{time.Minute, time.Minute, time.Minute}},
		{"retry: 99999999999999999999999\n", []time.Duration{time.Minute, time.Minute, time.Minute}},
		{"retry: -5\n", []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}},
		{"", []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.retryField, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(int, string) (string, bool) { return tt.retryField + ": ka\n\n", true })
			opts := &source.Options{Retry: 3}
			waits := noSleep(opts)
			if _, _, err := messages(t, srv.URL, opts, 0); err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.want, *waits); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
		})
	}
}

// TestURLOversizedCutByReconnect: the skip of an oversized event that the
// lost connection cut off ends with that connection; the first event of
// the resumed stream is read.
func TestURLOversizedCutByReconnect(t *testing.T) {
	t.Parallel()
	for _, end := range []string{"", "\r", "\n", "\r\n"} {
		t.Run(strconv.Quote(end), func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(n int, lastID string) (string, bool) {
				if lastID == "" {
					return "id: 0\ndata: 00\n\nid: 1\ndata: " + strings.Repeat("1", 8000) + end, true
				}
				return numbered(1, 4, true), false
			})
			opts := &source.Options{Retry: 3, MaxEventBytes: 1000}
			noSleep(opts)
			data, problems, err := messages(t, srv.URL, opts, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(seq(0, 4), data); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
			if want := []string{"SSE message larger than 1000 bytes (raise the cap, MaxEventBytes)"}; !cmp.Equal(want, problems) {
				t.Errorf("problems %q, want %q", problems, want)
			}
			if diff := cmp.Diff([]string{"", "0"}, srv.requests()); diff != "" {
				t.Errorf("Last-Event-ID (-want +got):\n%s", diff)
			}
		})
	}
}

// TestURLLostConnectionReported: a connection lost in the middle of an
// event is the same network error as one lost between events, not a
// stream that "ended inside an SSE message".
func TestURLLostConnectionReported(t *testing.T) {
	t.Parallel()
	for _, tail := range []string{"", "data: 1", "data: 1\n"} {
		t.Run(strconv.Quote(tail), func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, func(int, string) (string, bool) { return "data: 0\n\n" + tail, true })
			data, problems, err := messages(t, srv.URL, &source.Options{}, 0)
			if err == nil || !strings.Contains(err.Error(), "connection lost") {
				t.Errorf("error = %v, want the lost connection", err)
			}
			if errors.Is(err, event.ErrTruncated) {
				t.Errorf("error %v is a truncation, want the network error", err)
			}
			if problems != nil || !cmp.Equal([]string{"0"}, data) {
				t.Errorf("data %q problems %q, want [0] and no problem", data, problems)
			}
		})
	}
}

// TestURLRedirectLoop: a redirect loop is reported as one and not retried.
func TestURLRedirectLoop(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) > 200 {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	opts := &source.Options{Retry: 3}
	noSleep(opts)
	_, err := open(t, srv.URL+"/loop", opts)
	if !errors.Is(err, source.ErrRedirectLoop) {
		t.Errorf("error = %v, want a redirect loop", err)
	}
	if got := n.Load(); got != 10 {
		t.Errorf("%d requests, want 10 (10 redirects followed, no retry)", got)
	}
}

// TestURLNotAStreamPreview: the body an error shows is cut at 512 bytes,
// on a character boundary, on one line.
func TestURLNotAStreamPreview(t *testing.T) {
	t.Parallel()
	body := "<html>\n" + strings.Repeat("é", 300) + "\n</html>\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no Content-Type at all, not even a sniffed one
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	_, err := open(t, srv.URL, nil)
	var herr *source.HTTPError
	if !errors.As(err, &herr) {
		t.Fatalf("error = %v, want an HTTPError", err)
	}
	want := "<html> " + strings.Repeat("é", (512-len("<html>\n"))/2) + "..."
	if herr.Body != want {
		t.Errorf("body %q, want %q", herr.Body, want)
	}
	if herr.ContentType != "" || !strings.Contains(err.Error(), "content type none") {
		t.Errorf("error %q, want one saying there is no content type", err)
	}
}

// TestURLRetryMaxWait: MaxRetryDelay lowers the ceiling on the wait.
func TestURLRetryMaxWait(t *testing.T) {
	t.Parallel()
	srv := newServer(t, func(int, string) (string, bool) { return "retry: 3600000\n: ka\n\n", true })
	opts := &source.Options{Retry: 2, MaxRetryDelay: 5 * time.Second}
	waits := noSleep(opts)
	if _, _, err := messages(t, srv.URL, opts, 0); err == nil {
		t.Fatal("no error")
	}
	if diff := cmp.Diff([]time.Duration{5 * time.Second, 5 * time.Second}, *waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

// TestURLRepeatsDropped: a server that ignores Last-Event-ID and sends
// again events already read, after each of several reconnections: every
// event is read once, and the drops are reported.
func TestURLRepeatsDropped(t *testing.T) {
	t.Parallel()
	srv := newServer(t, func(n int, lastID string) (string, bool) {
		// Each connection starts again at 0 and goes two events further.
		if n < 4 {
			return numbered(0, 3+2*n, true), true
		}
		return numbered(0, 12, true), false
	})
	var warnings []string
	opts := &source.Options{Retry: 5, Warn: func(s string) { warnings = append(warnings, s) }}
	noSleep(opts)
	data, problems, err := messages(t, srv.URL, opts, 0)
	if err != nil || problems != nil {
		t.Fatalf("err %v, problems %q", err, problems)
	}
	if diff := cmp.Diff(seq(0, 12), data); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	var drops []string
	for _, w := range warnings {
		if strings.HasPrefix(w, "dropped ") {
			drops = append(drops, w[:strings.Index(w, " the server")])
		}
	}
	// Connections 2, 3 and 4 repeat 5, 7 and 9 events.
	if diff := cmp.Diff([]string{"dropped 5 events", "dropped 7 events", "dropped 9 events"}, drops); diff != "" {
		t.Errorf("drop reports (-want +got):\n%s\nall warnings: %q", diff, warnings)
	}
}
