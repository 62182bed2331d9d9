package recording_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/recording"
)

// TestServeMixedIDs: a recording that mixes messages with and without
// id: (recorded ids 3, none, 3, 4) is served with unique, increasing ids,
// and a client resuming after any of them gets exactly the rest.
func TestServeMixedIDs(t *testing.T) {
	t.Parallel()
	rec := recording.Header + "\n" +
		":t=0\nid: 3\ndata: a\n\n" +
		":t=1\ndata: b\n\n" +
		":t=2\nid: 3\ndata: c\n\n" +
		":t=3\nid: 4\ndata: d\n\n"
	srv := serve(t, rec, recording.Timing{NoDelay: true})
	all := []msg{{"1", "", "a"}, {"2", "", "b"}, {"3", "", "c"}, {"4", "", "d"}}
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	got := messages(t, resp.Body)
	resp.Body.Close()
	if diff := cmp.Diff(all, got); diff != "" {
		t.Fatalf("messages (-want +got):\n%s", diff)
	}
	for i, m := range all[:len(all)-1] {
		req, _ := http.NewRequestWithContext(t.Context(), "GET", srv.URL, nil)
		req.Header.Set("Last-Event-ID", m.ID)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got := messages(t, resp.Body)
		resp.Body.Close()
		if diff := cmp.Diff(all[i+1:], got); diff != "" {
			t.Errorf("after %s (-want +got):\n%s", m.ID, diff)
		}
	}
}

// countingReaderAt counts the bytes read from it.
type countingReaderAt struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestServeReadsTheFilePerClient: the handler holds no copy of the
// recording: every client's replay is read from the file as it is played.
func TestServeReadsTheFilePerClient(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(recording.Header + "\n")
	for i := range 1000 {
		b.WriteString(":t=0\ndata: " + strconv.Itoa(i) + strings.Repeat("x", 100) + "\n\n")
	}
	rec := &countingReaderAt{r: strings.NewReader(b.String())}
	h, err := recording.NewHandler(rec, nil, recording.Timing{NoDelay: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for client := range 3 {
		before := rec.n.Load()
		resp, err := http.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		n := len(messages(t, resp.Body))
		resp.Body.Close()
		if n != 1000 {
			t.Errorf("client %d: %d messages, want 1000", client, n)
		}
		if read := rec.n.Load() - before; read < int64(b.Len()) {
			t.Errorf("client %d: %d bytes of the recording read, want all %d: it must be read per client", client, read, b.Len())
		}
	}
}

// TestPlayerParts: a message or line over the player's cap comes in
// parts that together are its bytes, played without a wait between them;
// the player never holds more than the cap.
func TestPlayerParts(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 25)
	tests := []struct {
		name, rec, timing, want string
	}{
		{
			"sse", recording.Header + "\n:t=0\ndata: a\n\n:t=5\ndata: " + long + "\r\n\r\n:t=9\ndata: b\n\n", "",
			"data: a\n\ndata: " + long + "\r\n\r\ndata: b\n\n",
		},
		{
			"lines", "{\"a\":1}\n" + long + "\n{\"b\":2}\n", recording.TimingHeader + "\n1 0\n2 5\n3 9\n",
			"{\"a\":1}\n" + long + "\n{\"b\":2}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var side io.Reader
			if tt.timing != "" {
				side = strings.NewReader(tt.timing)
			}
			p := recording.NewPlayer(strings.NewReader(tt.rec), side)
			p.MaxChunkBytes = 10
			var got strings.Builder
			var ats []time.Duration
			parts := 0
			for {
				c, err := p.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(c.Data) > 11 { // a CRLF may end a part one byte over
					t.Errorf("chunk of %d bytes, over the cap", len(c.Data))
				}
				if c.More {
					parts++
				}
				got.WriteString(string(c.Data))
				ats = append(ats, c.At)
			}
			if got.String() != tt.want {
				t.Errorf("played %q, want %q", got.String(), tt.want)
			}
			if parts == 0 {
				t.Error("no chunk in parts")
			}
			if ats[len(ats)-1] != 9*time.Millisecond || ats[1] != 5*time.Millisecond || ats[2] != 5*time.Millisecond {
				t.Errorf("times %v, want the long unit's parts at 5ms", ats)
			}
		})
	}
	_, err := recording.NewHandler(strings.NewReader(recording.Header+"\n:t=0\ndata: "+strings.Repeat("x", 17<<20)+"\n\n"), nil,
		recording.Timing{NoDelay: true})
	if err == nil || !strings.Contains(err.Error(), "too large to serve") {
		t.Errorf("serving a message over the cap: %v, want too large to serve", err)
	}
}
