package recording_test

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
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

// A replayed message may not come early, but it may come late: the
// machine may be busy with other tests.
const (
	early = 5 * time.Millisecond
	late  = 400 * time.Millisecond
)

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

func recordURL(t *testing.T, url string) string {
	t.Helper()
	rc, err := source.Open(t.Context(), url, nil)
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

func TestRecordURLThenReplay(t *testing.T) {
	t.Parallel()
	rec := recordURL(t, runServer(t).URL)

	// The recorded times: never before the server sent each message.
	var recorded []time.Duration
	p := recording.NewPlayer(strings.NewReader(rec), nil)
	var sent time.Duration
	for i := 0; ; i++ {
		c, err := p.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		sent += run[i].at
		if c.At < sent-time.Millisecond {
			t.Errorf("message %d recorded at %v, before it was sent (%v)", i, c.At, sent)
		}
		recorded = append(recorded, c.At)
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
	if len(w.writes) != len(recorded) {
		t.Fatalf("%d writes, want %d", len(w.writes), len(recorded))
	}
	for i, want := range recorded {
		if d := w.writes[i] - want; d < -early || d > late {
			t.Errorf("message %d replayed at %v, recorded at %v", i, w.writes[i], want)
		}
	}
}

func TestReplaySpeed(t *testing.T) {
	t.Parallel()
	rec := recording.Header + "\n:t=0\ndata: a\n\n:t=2000\ndata: b\n\n:t=62000\ndata: c\n\n"
	w := &stampWriter{start: time.Now()}
	err := recording.Play(t.Context(), recording.NewPlayer(strings.NewReader(rec), nil),
		recording.Timing{Speed: 8, MaxGap: 400 * time.Millisecond},
		func(c recording.Chunk) error { _, err := w.Write(c.Data); return err })
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{0, 250 * time.Millisecond, 650 * time.Millisecond}
	if len(w.writes) != len(want) {
		t.Fatalf("%d writes, want %d", len(w.writes), len(want))
	}
	for i := range want {
		if d := w.writes[i] - want[i]; d < -early || d > late {
			t.Errorf("message %d at %v, want about %v", i, w.writes[i], want[i])
		}
	}
}

func decodeAll(t *testing.T, r io.Reader) []event.Event {
	t.Helper()
	br := bufio.NewReader(r)
	f, _, err := convert.Detect(br)
	if err != nil {
		t.Fatal(err)
	}
	dec := f.NewDecoder(br, &convert.Options{})
	var evs []event.Event
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return evs
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
	h, err := recording.NewHandler(recording.NewPlayer(strings.NewReader(rec), nil), timing)
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

var servedMessages = []msg{
	{"1", "start", "{}"},
	{"own", "", "a\nb"},
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
	start := time.Now()
	got := messages(t, rc)
	if diff := cmp.Diff(servedMessages, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if d := time.Since(start); d < 120*time.Millisecond-early {
		t.Errorf("the whole replay took %v, want about 120ms", d)
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
	want := "id: 1\nevent: start\ndata: {}\n\nid: own\ndata: a\ndata: b\n\nid: 4\ndata: [DONE]\n\n"
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
		{"own", 200, servedMessages[2:]},
		{"unknown", 200, servedMessages},
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
	h, err := recording.NewHandler(recording.NewPlayer(strings.NewReader("{\"a\":1}\n\n{\"a\":2}\n"), nil),
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
	_, err := recording.NewHandler(recording.NewPlayer(strings.NewReader("data: x\n\n"), nil), recording.Timing{})
	if err == nil {
		t.Error("no error for a recording without timing")
	}
}
