package source_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/source"
)

const envelopes = "data: {\"type\":\"text\",\"agent\":\"\",\"final\":false,\"delta\":\"Hel\"}\n\n" +
	"data: {\"type\":\"text\",\"agent\":\"\",\"final\":false,\"delta\":\"lo\"}\n\n" +
	"data: {\"type\":\"text\",\"agent\":\"\",\"final\":true,\"delta\":\"\"}\n\n" +
	"data: [DONE]\n\n"

// sseHandler answers with body, flushing after every message.
func sseHandler(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, m := range strings.SplitAfter(body, "\n\n") {
			io.WriteString(w, m)
			w.(http.Flusher).Flush()
		}
	}
}

func open(t *testing.T, url string, opts *source.Options) (io.ReadCloser, error) {
	t.Helper()
	rc, err := source.Open(t.Context(), url, opts)
	if err == nil {
		t.Cleanup(func() { rc.Close() })
	}
	return rc, err
}

func readAll(t *testing.T, url string, opts *source.Options) (string, error) {
	t.Helper()
	rc, err := open(t, url, opts)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(rc)
	return string(b), err
}

func decode(t *testing.T, r io.Reader, name string) ([]event.Event, error) {
	t.Helper()
	br := bufio.NewReader(r)
	f, _, err := convert.Detect(br)
	if err != nil {
		return nil, err
	}
	dec := f.NewDecoder(br, &format.Options{Source: name, StopAtDone: source.IsURL(name)})
	var evs []event.Event
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}

func TestURLNormalStream(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(sseHandler(envelopes))
	t.Cleanup(srv.Close)
	got, err := readAll(t, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(envelopes, got); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
}

func TestURLDetectAndDecode(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(sseHandler(envelopes))
	t.Cleanup(srv.Close)
	rc, err := open(t, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decode(t, rc, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	want := []event.Event{
		&event.BlockStart{Kind: event.Text},
		&event.Delta{Kind: event.Text, Text: "Hel"},
		&event.Delta{Kind: event.Text, Text: "lo"},
		&event.BlockEnd{Kind: event.Text},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestURLPostHeadersAndBody(t *testing.T) {
	t.Parallel()
	type request struct {
		Method, Auth, ContentType, Accept, Body string
	}
	got := make(chan request, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- request{
			r.Method, r.Header.Get("Authorization"), r.Header.Get("Content-Type"),
			r.Header.Get("Accept"), string(b),
		}
		sseHandler(envelopes)(w, r)
	}))
	t.Cleanup(srv.Close)
	body, err := readAll(t, srv.URL, &source.Options{
		Header: http.Header{"Authorization": {"Bearer k"}},
		Data:   []byte(`{"query":"hi"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := request{"POST", "Bearer k", "application/json", "text/event-stream", `{"query":"hi"}`}
	if diff := cmp.Diff(want, <-got); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if body != envelopes {
		t.Errorf("body = %q", body)
	}
}

func TestURLNotAStream(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 600)
	tests := []struct {
		name    string
		status  int
		ctype   string
		body    string
		opts    *source.Options
		wantErr string // %s is the URL
	}{
		{
			"500 JSON", 500, "application/json", `{"error":"boom","message":"it broke"}` + "\n",
			&source.Options{Data: []byte(`{}`)},
			`POST %s: 500 Internal Server Error: {"error":"boom","message":"it broke"}`,
		},
		{
			"404 long body", 404, "text/plain", long, nil,
			"GET %s: 404 Not Found: " + long[:512] + "...",
		},
		{
			"200 HTML", 200, "text/html; charset=utf-8", "<!doctype html><p>hi</p>", nil,
			"GET %s: 200 OK: content type text/html; charset=utf-8, not text/event-stream: <!doctype html><p>hi</p>",
		},
		{
			"200 no content type", 200, "", "", nil,
			"GET %s: 200 OK: content type none, not text/event-stream",
		},
		{
			"retry does not apply", 503, "text/plain", "busy", &source.Options{Retry: 3, RetryDelay: time.Millisecond},
			"GET %s: 503 Service Unavailable: busy",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Content-Type"] = []string{tt.ctype}
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			}))
			t.Cleanup(srv.Close)
			_, err := open(t, srv.URL, tt.opts)
			var herr *source.HTTPError
			if !errors.As(err, &herr) {
				t.Fatalf("error %v is not an *HTTPError", err)
			}
			if diff := cmp.Diff(fmt.Sprintf(tt.wantErr, srv.URL), err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestURLNoContentIsEmpty(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	got, err := readAll(t, srv.URL, nil)
	if err != nil || got != "" {
		t.Fatalf("got %q, %v; want an empty stream", got, err)
	}
}

// dropping answers with the first message, half of the second, then drops
// the connection.
func dropping(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, "id: 1\ndata: one\n\ndata: tw")
	w.(http.Flusher).Flush()
	panic(http.ErrAbortHandler)
}

func TestURLDroppedMidEvent(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(dropping))
	t.Cleanup(srv.Close)
	got, err := readAll(t, srv.URL, nil)
	if err == nil || !strings.Contains(err.Error(), "in the middle of a message") {
		t.Errorf("error = %v, want one saying the connection was lost in the middle of a message", err)
	}
	if want := "id: 1\ndata: one\n\ndata: tw"; got != want {
		t.Errorf("got %q, want what arrived: %q", got, want)
	}

	// Through a decoder: the first event, then the error.
	rc, err := open(t, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := frame.NewSSE(rc, srv.URL, 0)
	m, err := s.Next()
	if err != nil || m.Data != "one" {
		t.Fatalf("first message = %+v, %v", m, err)
	}
	if _, err := s.Next(); err == nil || err == io.EOF {
		t.Errorf("second Next error = %v, want the lost connection", err)
	}
}

func TestURLRetryResumesWithLastEventID(t *testing.T) {
	t.Parallel()
	lastIDs := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("Last-Event-ID")
		lastIDs <- id
		if id == "" {
			dropping(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "id: 2\ndata: two\n\n")
	}))
	t.Cleanup(srv.Close)
	got, err := readAll(t, srv.URL, &source.Options{Retry: 1, RetryDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if want := "id: 1\ndata: one\n\nid: 2\ndata: two\n\n"; got != want {
		t.Errorf("got %q, want %q (the partial message dropped)", got, want)
	}
	close(lastIDs)
	var ids []string
	for id := range lastIDs {
		ids = append(ids, id)
	}
	if diff := cmp.Diff([]string{"", "1"}, ids); diff != "" {
		t.Errorf("Last-Event-ID headers (-want +got):\n%s", diff)
	}
}

func TestURLRetryGivesUp(t *testing.T) {
	t.Parallel()
	calls := make(chan struct{}, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls <- struct{}{}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: x")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))
	t.Cleanup(srv.Close)
	_, err := readAll(t, srv.URL, &source.Options{Retry: 2, RetryDelay: time.Millisecond})
	if err == nil {
		t.Fatal("no error")
	}
	if n := len(calls); n != 3 {
		t.Errorf("%d requests, want 3 (one and two retries)", n)
	}
}

func TestURLIdleTimeout(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // stall
	}))
	t.Cleanup(srv.Close)
	got, err := readAll(t, srv.URL, &source.Options{IdleTimeout: 50 * time.Millisecond})
	if !errors.Is(err, source.ErrIdleTimeout) {
		t.Errorf("error = %v, want an idle timeout", err)
	}
	if got != "data: one\n\n" {
		t.Errorf("got %q before the timeout", got)
	}
}

func TestURLConnectTimeout(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers
	}))
	t.Cleanup(srv.Close)
	_, err := open(t, srv.URL, &source.Options{ConnectTimeout: 50 * time.Millisecond})
	if !errors.Is(err, source.ErrConnectTimeout) {
		t.Errorf("error = %v, want a connect timeout", err)
	}
}

func TestURLLargeEvent(t *testing.T) {
	t.Parallel()
	data := strings.Repeat("a", 10<<20)
	srv := httptest.NewServer(sseHandler("event: big\ndata: " + data + "\n\ndata: after\n\n"))
	t.Cleanup(srv.Close)
	rc, err := open(t, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := frame.NewSSE(rc, srv.URL, 0)
	m, err := s.Next()
	if err != nil {
		t.Fatal(err)
	}
	if m.Type != "big" || m.Data != data {
		t.Errorf("first message: type %q, %d bytes of data; want big, %d", m.Type, len(m.Data), len(data))
	}
	if m, err := s.Next(); err != nil || m.Data != "after" {
		t.Errorf("second message = %+v, %v", m, err)
	}
}

func TestURLOverCapPassesThrough(t *testing.T) {
	t.Parallel()
	data := strings.Repeat("a", 200<<10)
	srv := httptest.NewServer(sseHandler("data: " + data + "\n\ndata: after\n\n"))
	t.Cleanup(srv.Close)
	opts := &source.Options{MaxEventBytes: 64 << 10}
	rc, err := open(t, srv.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := frame.NewSSE(rc, srv.URL, opts.MaxEventBytes)
	if _, err := s.Next(); !errors.Is(err, event.ErrTooLarge) {
		t.Errorf("first Next error = %v, want too large", err)
	}
	if m, err := s.Next(); err != nil || m.Data != "after" {
		t.Errorf("second message = %+v, %v", m, err)
	}
}

// TestURLSlowDrip sends each message a byte at a time and waits for the
// reader to have it before sending the next: a reader that held a complete
// message back would stall the test.
func TestURLSlowDrip(t *testing.T) {
	t.Parallel()
	msgs := []string{"event: a\ndata: one\r\n\r\n", "id: 7\ndata: two\n\n", "data: three\r\r"}
	got := make(chan string)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, m := range msgs {
			for i := range len(m) {
				io.WriteString(w, m[i:i+1])
				w.(http.Flusher).Flush()
			}
			select {
			case <-got:
			case <-time.After(10 * time.Second):
				t.Errorf("the reader did not yield %q once it was complete", m)
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	rc, err := open(t, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := frame.NewSSE(rc, srv.URL, 0)
	var data []string
	for {
		m, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, m.Data)
		got <- m.Data
	}
	if diff := cmp.Diff([]string{"one", "two", "three"}, data); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
}

func TestURLErrorEvents(t *testing.T) {
	t.Parallel()
	const serverError = `{"error":"RuntimeError","message":"model overloaded","traceback":"..."}`
	tests := []struct {
		name    string
		body    string
		want    []event.Event
		wantErr bool
	}{
		{"jsonenv server error", "data: " + serverError + "\n\n", []event.Event{
			&event.Error{Type: "RuntimeError", Message: "model overloaded", Fatal: true, Raw: []byte(serverError)},
		}, false},
		{"done ends the stream", strings.SplitAfter(envelopes, "\n\n")[0] + "data: [DONE]\n\n" + envelopes, []event.Event{
			&event.BlockStart{Kind: event.Text},
			&event.Delta{Kind: event.Text, Text: "Hel"},
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				sseHandler(tt.body)(w, r)
				if strings.Contains(tt.body, "[DONE]") {
					<-r.Context().Done() // the stream stays open: [DONE] must end it
				}
			}))
			t.Cleanup(srv.Close)
			rc, err := open(t, srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decode(t, rc, srv.URL)
			if (err != nil) != tt.wantErr {
				t.Errorf("error = %v, want one: %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestURLEventErrorPassesThrough checks that an SSE "event: error" message
// reaches the decoders as it was sent.
func TestURLEventErrorPassesThrough(t *testing.T) {
	t.Parallel()
	body := "event: message_start\ndata: {}\n\nevent: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
	srv := httptest.NewServer(sseHandler(body))
	t.Cleanup(srv.Close)
	rc, err := open(t, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := frame.NewSSE(rc, srv.URL, 0)
	var got []frame.Message
	for {
		m, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, frame.Message{Type: m.Type, Data: m.Data})
	}
	want := []frame.Message{
		{Type: "message_start", Data: "{}"},
		{Type: "error", Data: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

// TestURLRetryField checks that the server's retry: field sets the wait
// before reconnecting: with the default an hour, only it lets the test end.
func TestURLRetryField(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		if calls.Add(1) == 1 {
			io.WriteString(w, "retry: 1\nid: a\ndata: one\n\n")
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		io.WriteString(w, "data: two\n\n")
	}))
	t.Cleanup(srv.Close)
	done := make(chan string, 1)
	go func() {
		got, err := readAll(t, srv.URL, &source.Options{Retry: 1, RetryDelay: time.Hour})
		if err != nil {
			t.Error(err)
		}
		done <- got
	}()
	select {
	case got := <-done:
		if want := "retry: 1\nid: a\ndata: one\n\ndata: two\n\n"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the retry: field was not used")
	}
}
