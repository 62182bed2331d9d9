package recording_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/recording"
	"github.com/agentstream/agentstream/source"
)

// run is a JSON envelope stream as an agent server sends it, with the
// wait before each message.
var run = []arrival{
	{0, "data: {\"type\":\"meta_init\",\"agent\":\"\",\"final\":true,\"delta\":\"{\\\"model\\\":\\\"m\\\"}\"}\n\n"},
	{100 * time.Millisecond, "data: {\"type\":\"text\",\"agent\":\"\",\"final\":false,\"delta\":\"Hel\"}\n\n"},
	{0, ": keep-alive\n\n"},
	{150 * time.Millisecond, "data: {\"type\":\"text\",\"agent\":\"\",\"final\":true,\"delta\":\"lo\"}\n\n"},
}

// The tests over a real connection (httptest, loopback) check bytes and
// order only: how long anything takes there depends on the machine's
// load. Timing is checked on synctest's fake clock, where it is exact.

// runServer serves run over HTTP, with its waits.
func runServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, a := range run {
			time.Sleep(a.at)
			io.WriteString(w, a.data)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// runTransport answers every request with run as an SSE stream, written
// to the body with run's waits. In a synctest bubble the waits are on the
// bubble's fake clock.
type runTransport struct{}

func (runTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	pr, pw := io.Pipe()
	go func() {
		for _, a := range run {
			time.Sleep(a.at)
			if _, err := io.WriteString(pw, a.data); err != nil {
				return
			}
		}
		pw.Close()
	}()
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"text/event-stream"}},
		Body:    pr,
		Request: req,
	}, nil
}

// stampWriter records when each write happened.
type stampWriter struct {
	mu     sync.Mutex
	start  time.Time
	buf    bytes.Buffer
	writes []time.Duration
}

func (w *stampWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, time.Since(w.start))
	return w.buf.Write(p)
}

func recordURL(t *testing.T, url string, opts *source.Options) string {
	t.Helper()
	rc, err := source.Open(t.Context(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var rec bytes.Buffer
	if _, err := recording.Record(&rec, rc, nil); err != nil {
		t.Fatal(err)
	}
	return rec.String()
}

// chunks returns the chunks of the recording rec.
func chunks(t *testing.T, rec string) []recording.Chunk {
	t.Helper()
	p := recording.NewPlayer(strings.NewReader(rec), nil)
	var cs []recording.Chunk
	for {
		c, err := p.Next()
		if err == io.EOF {
			return cs
		}
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
}

// TestRecordURLThenReplay records run over a real connection: replaying
// the recording gives back its bytes, message by message, each timed, in
// order.
func TestRecordURLThenReplay(t *testing.T) {
	t.Parallel()
	rec := recordURL(t, runServer(t).URL, nil)

	var got []string
	var prev time.Duration
	for i, c := range chunks(t, rec) {
		if !c.Timed || c.At < prev {
			t.Errorf("message %d: at %v (timed: %v), after a message at %v", i, c.At, c.Timed, prev)
		}
		prev = c.At
		got = append(got, string(c.Data))
	}
	var want []string
	for _, a := range run {
		want = append(want, a.data)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("recorded messages (-want +got):\n%s", diff)
	}

	var played bytes.Buffer
	err := recording.Play(t.Context(), recording.NewPlayer(strings.NewReader(rec), nil), recording.Timing{NoDelay: true},
		func(c recording.Chunk) error { _, err := played.Write(c.Data); return err })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(join(run), played.String()); diff != "" {
		t.Errorf("replayed bytes (-want +got):\n%s", diff)
	}
}

// TestRecordThenReplayTiming records run from a URL and replays it on a
// fake clock: each message is recorded at the time it was sent, and
// replayed with the same bytes at the same time, exactly.
func TestRecordThenReplayTiming(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		rec := recordURL(t, "http://agent.test/run", &source.Options{Client: &http.Client{Transport: runTransport{}}})

		var sent, got []time.Duration
		var at time.Duration
		for _, a := range run {
			at += a.at
			sent = append(sent, at)
		}
		for _, c := range chunks(t, rec) {
			got = append(got, c.At)
		}
		if diff := cmp.Diff(sent, got); diff != "" {
			t.Errorf("recorded times (-sent +recorded):\n%s", diff)
		}

		w := &stampWriter{start: time.Now()}
		err := recording.Play(t.Context(), recording.NewPlayer(strings.NewReader(rec), nil), recording.Timing{},
			func(c recording.Chunk) error { _, err := w.Write(c.Data); return err })
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(join(run), w.buf.String()); diff != "" {
			t.Errorf("replayed bytes (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(sent, w.writes); diff != "" {
			t.Errorf("replay times (-sent +replayed):\n%s", diff)
		}
	})
}

// TestReplaySpeed plays a recording on a fake clock, scaled and capped.
func TestReplaySpeed(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	rec := recording.Header + "\n:t=0\ndata: a\n\n:t=2000\ndata: b\n\n:t=62000\ndata: c\n\n:t=62100\ndata: d\n\n"
	tests := []struct {
		name   string
		timing recording.Timing
		want   []time.Duration
	}{
		{"recorded", recording.Timing{}, []time.Duration{0, 2000 * ms, 62000 * ms, 62100 * ms}},
		{"speed and cap", recording.Timing{Speed: 8, MaxGap: 400 * ms}, []time.Duration{0, 250 * ms, 650 * ms, 662500 * time.Microsecond}},
		{"half speed", recording.Timing{Speed: 0.5}, []time.Duration{0, 4000 * ms, 124000 * ms, 124200 * ms}},
		{"interval", recording.Timing{Interval: 30 * ms}, []time.Duration{0, 30 * ms, 60 * ms, 90 * ms}},
		{"no delay", recording.Timing{NoDelay: true}, []time.Duration{0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				w := &stampWriter{start: time.Now()}
				err := recording.Play(t.Context(), recording.NewPlayer(strings.NewReader(rec), nil), tt.timing,
					func(c recording.Chunk) error { _, err := w.Write(c.Data); return err })
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, w.writes); diff != "" {
					t.Errorf("write times (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestPlayCountsFromTheStart checks on a fake clock that slow writes do
// not make a replay drift: each chunk is due at its time from the start.
func TestPlayCountsFromTheStart(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		rec := recording.Header + "\n:t=0\ndata: a\n\n:t=100\ndata: b\n\n:t=200\ndata: c\n\n:t=500\ndata: d\n\n"
		w := &stampWriter{start: time.Now()}
		err := recording.Play(t.Context(), recording.NewPlayer(strings.NewReader(rec), nil), recording.Timing{},
			func(c recording.Chunk) error {
				_, err := w.Write(c.Data)
				time.Sleep(150 * time.Millisecond) // a slow terminal
				return err
			})
		if err != nil {
			t.Fatal(err)
		}
		// b is due at 100ms but a's write ends at 150ms; c is due at
		// 200ms, not 150+100.
		want := []time.Duration{0, 150 * time.Millisecond, 300 * time.Millisecond, 500 * time.Millisecond}
		if diff := cmp.Diff(want, w.writes); diff != "" {
			t.Errorf("write times (-want +got):\n%s", diff)
		}
	})
}

// decodeAll returns the events of r and the problems the decoder reported
// (the sample run is cut off after its last block: no meta_final, no
// [DONE]), as strings in the order they came.
func decodeAll(t *testing.T, r io.Reader) []any {
	t.Helper()
	br := bufio.NewReader(r)
	f, _, err := convert.Detect(br)
	if err != nil {
		t.Fatal(err)
	}
	dec := f.NewDecoder(br, &format.Options{})
	var evs []any
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return evs
		}
		var perr *event.ParseError
		if errors.As(err, &perr) {
			evs = append(evs, perr.Err.Error())
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
}

// TestDecodeRecording checks that the decoders read a recording as they
// read the stream it recorded.
func TestDecodeRecording(t *testing.T) {
	t.Parallel()
	rec, _, _ := record(t, run)
	want := decodeAll(t, strings.NewReader(join(run)))
	if len(want) == 0 {
		t.Fatal("no events in the sample run")
	}
	got := decodeAll(t, strings.NewReader(rec))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events of the recording (-want +got):\n%s", diff)
	}
}

func serve(t *testing.T, rec string, timing recording.Timing) *httptest.Server {
	t.Helper()
	h, err := recording.NewHandler(strings.NewReader(rec), nil, timing)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

type msg struct{ ID, Type, Data string }

func messages(t *testing.T, r io.Reader) []msg {
	t.Helper()
	s := frame.NewSSE(r, "served", 0)
	var got []msg
	for {
		m, err := s.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, msg{m.ID, m.Type, m.Data})
	}
}

const served = recording.Header + "\n" +
	":t=0\nevent: start\ndata: {}\n\n" +
	":t=40\n: keep-alive\n\n" +
	":t=80\nid: own\ndata: a\ndata: b\n\n" +
	":t=120\ndata: [DONE]\n\n"

// servedMessages: ids are positions in the recording (the comment-only
// message, 2, is left out), not the recorded id: fields.
var servedMessages = []msg{
	{"1", "start", "{}"},
	{"3", "", "a\nb"},
	{"4", "", "[DONE]"},
}

func TestServeReadByURLInput(t *testing.T) {
	t.Parallel()
	srv := serve(t, served, recording.Timing{})
	rc, err := source.Open(t.Context(), srv.URL, &source.Options{IdleTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if diff := cmp.Diff(servedMessages, messages(t, rc)); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}

	// A second client gets the whole replay too.
	rc2, err := source.Open(t.Context(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rc2.Close()
	if diff := cmp.Diff(servedMessages, messages(t, rc2)); diff != "" {
		t.Errorf("second client (-want +got):\n%s", diff)
	}
}

// flushRecorder records what a handler has written at each flush, and
// when.
type flushRecorder struct {
	*httptest.ResponseRecorder
	start   time.Time
	flushed int
	flushes []flush
}

type flush struct {
	At   time.Duration
	Data string
}

func (r *flushRecorder) Flush() {
	r.ResponseRecorder.Flush()
	b := r.Body.Bytes()
	r.flushes = append(r.flushes, flush{time.Since(r.start), string(b[r.flushed:])})
	r.flushed = len(b)
}

// TestServePace serves a recording on a fake clock: the headers at once,
// then each message at its recorded time, or, after a Last-Event-ID, the
// next message after its recorded gap.
func TestServePace(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	start := "id: 1\nevent: start\ndata: {}\n\n"
	own := "id: 3\ndata: a\ndata: b\n\n"
	done := "id: 4\ndata: [DONE]\n\n"
	tests := []struct {
		name   string
		timing recording.Timing
		lastID string
		want   []flush
	}{
		{"from the start", recording.Timing{}, "", []flush{{0, ""}, {0, start}, {80 * ms, own}, {120 * ms, done}}},
		{"speed", recording.Timing{Speed: 2}, "", []flush{{0, ""}, {0, start}, {40 * ms, own}, {60 * ms, done}}},
		{"after 1", recording.Timing{}, "1", []flush{{0, ""}, {80 * ms, own}, {120 * ms, done}}},
		{"after 3", recording.Timing{}, "3", []flush{{0, ""}, {40 * ms, done}}},
		{"unknown id", recording.Timing{}, "unknown", []flush{{0, ""}, {0, start}, {80 * ms, own}, {120 * ms, done}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, err := recording.NewHandler(strings.NewReader(served), nil, tt.timing)
			if err != nil {
				t.Fatal(err)
			}
			synctest.Test(t, func(t *testing.T) {
				req := httptest.NewRequestWithContext(t.Context(), "GET", "/", nil)
				if tt.lastID != "" {
					req.Header.Set("Last-Event-ID", tt.lastID)
				}
				w := &flushRecorder{ResponseRecorder: httptest.NewRecorder(), start: time.Now()}
				h.ServeHTTP(w, req)
				if diff := cmp.Diff(tt.want, w.flushes); diff != "" {
					t.Errorf("flushes (-want +got):\n%s", diff)
				}
			})
		})
	}
}

func TestServePlainHTTP(t *testing.T) {
	t.Parallel()
	srv := serve(t, served, recording.Timing{NoDelay: true})
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status %s", resp.Status)
	}
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	want := "id: 1\nevent: start\ndata: {}\n\nid: 3\ndata: a\ndata: b\n\nid: 4\ndata: [DONE]\n\n"
	if diff := cmp.Diff(want, string(body)); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
}

func TestServeLastEventID(t *testing.T) {
	t.Parallel()
	srv := serve(t, served, recording.Timing{NoDelay: true})
	tests := []struct {
		lastID     string
		wantStatus int
		want       []msg
	}{
		{"1", 200, servedMessages[1:]},
		{"3", 200, servedMessages[2:]},
		{"2", 200, servedMessages[1:]}, // the keep-alive, not served
		{"own", 200, servedMessages},   // no position: from the start
		{"9", 200, servedMessages},     // past the end: from the start
		{"4", 204, nil},
	}
	for _, tt := range tests {
		t.Run(tt.lastID, func(t *testing.T) {
			t.Parallel()
			req, _ := http.NewRequestWithContext(t.Context(), "GET", srv.URL, nil)
			req.Header.Set("Last-Event-ID", tt.lastID)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if diff := cmp.Diff(tt.want, messages(t, resp.Body)); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

func TestServeNDJSON(t *testing.T) {
	t.Parallel()
	h, err := recording.NewHandler(strings.NewReader("{\"a\":1}\n\n{\"a\":2}\n"), nil,
		recording.Timing{NoDelay: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	want := []msg{{"1", "", `{"a":1}`}, {"3", "", `{"a":2}`}}
	if diff := cmp.Diff(want, messages(t, resp.Body)); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func TestServeNeedsTiming(t *testing.T) {
	t.Parallel()
	_, err := recording.NewHandler(strings.NewReader("data: x\n\n"), nil, recording.Timing{})
	if err == nil {
		t.Error("no error for a recording without timing")
	}
}
