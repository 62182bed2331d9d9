package source_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/source"
)

// FuzzURLReconnect: a server whose connections drop at fuzzed points, and
// that resumes after Last-Event-ID as an SSE server should, is read with
// every event exactly once, in order.
func FuzzURLReconnect(f *testing.F) {
	f.Add(uint8(5), uint8(0), "\x05\x11\x00\x30")
	f.Add(uint8(20), uint8(1), "\xff\x01\x02")
	f.Add(uint8(3), uint8(2), "")
	f.Add(uint8(8), uint8(3), "\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15")
	f.Fuzz(func(t *testing.T, n, style uint8, drops string) {
		n %= 40
		drops = drops[:min(len(drops), 30)]
		ends := []string{"\n", "\r\n", "\r"}
		end := ends[int(style)%len(ends)]
		// Event i: an id, a data line whose length varies with i, and for
		// some a comment and a second data line.
		event := func(i int) string {
			s := "id: " + strconv.Itoa(i) + end + "data: " + strings.Repeat(string(rune('a'+i%26)), i%7) + strconv.Itoa(i) + end
			if i%3 == 0 {
				s = ": c" + end + s + "data: more" + end
			}
			return s + end
		}
		var want []string
		for i := range int(n) {
			d := strings.Repeat(string(rune('a'+i%26)), i%7) + strconv.Itoa(i)
			if i%3 == 0 {
				d += "\nmore"
			}
			want = append(want, d)
		}
		var requests atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			req := int(requests.Add(1))
			if req > len(drops)+2 {
				w.WriteHeader(http.StatusNoContent)
				return
			}
			from := 0
			if id := r.Header.Get("Last-Event-ID"); id != "" {
				k, err := strconv.Atoi(id)
				if err != nil {
					http.Error(w, "bad id", http.StatusBadRequest)
					return
				}
				from = k + 1
			}
			var body strings.Builder
			for i := from; i < int(n); i++ {
				body.WriteString(event(i))
			}
			w.Header().Set("Content-Type", "text/event-stream")
			if req <= len(drops) {
				b := body.String()
				io.WriteString(w, b[:int(drops[req-1])%(len(b)+1)])
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler)
			}
			io.WriteString(w, body.String())
		}))
		defer srv.Close()
		opts := &source.Options{Retry: len(drops) + 1}
		noSleep(opts)
		got, problems, err := messages(t, srv.URL, opts, 0)
		if err != nil {
			t.Fatalf("error %v after %d requests", err, requests.Load())
		}
		if problems != nil {
			t.Errorf("problems %q", problems)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
	})
}
