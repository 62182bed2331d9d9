package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/pflag"
)

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestHelpWriteError: help that cannot be written is a failure, as
// `--help > /dev/full` must be.
func TestHelpWriteError(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"convert", "--help"}, {"--version"}} {
		var errb strings.Builder
		code := Run(t.Context(), args, &IOStreams{In: strings.NewReader(""), Out: failWriter{}, Err: &errb})
		if code != ExitFailure {
			t.Errorf("%q: exit %d, want %d", args, code, ExitFailure)
		}
		if !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("%q: stderr %q, want the write error", args, errb.String())
		}
	}
}

// TestLostConnectionExitCode: a connection lost in the middle of an event
// ends the command as one lost between events does: exit 2, with the
// network error, not a truncation.
func TestLostConnectionExitCode(t *testing.T) {
	t.Parallel()
	for _, tail := range []string{"", `data: {"type":"te`} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, strings.SplitAfter(sampleRun, "\n\n")[0]+tail)
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}))
		for _, command := range []string{"convert", "assemble", "validate"} {
			code, _, stderr := runCLI(t, "", command, srv.URL)
			if code != ExitFailure || !strings.Contains(stderr, "connection lost") || strings.Contains(stderr, "ended inside") {
				t.Errorf("%s, cut %q: exit %d, stderr %q; want 2 and the lost connection", command, tail, code, stderr)
			}
		}
		srv.Close()
	}
}

// TestRecordStdinCancelled: Ctrl-C ends `record -` while the producer is
// silent, keeping what arrived. Without it the test waits forever.
func TestRecordStdinCancelled(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	rec := filepath.Join(t.TempDir(), "run.sse")
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		o := &recordOptions{output: rec, maxEventBytes: 1 << 20}
		addHTTPFlags(pflag.NewFlagSet("record", pflag.ContinueOnError), &o.http)
		done <- runRecord(ctx, &IOStreams{In: pr, Out: io.Discard, Err: io.Discard}, o, "-")
	}()
	// The write returns once record has read it; the producer then stays
	// silent, with the pipe open.
	if _, err := pw.Write([]byte("data: one\n\n")); err != nil {
		t.Fatal(err)
	}
	waitForRecorded(t, rec, "data: one\n\n", done)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("record: %v", err)
	}
	b, err := os.ReadFile(rec)
	if err != nil || !strings.Contains(string(b), "data: one\n\n") {
		t.Errorf("recording %q, %v; want the event that arrived", b, err)
	}
}

// TestRequestBodyStdinCancelled: Ctrl-C ends `record -d @- URL` while the
// body's producer is silent, as it ends `record -`: nothing is requested.
// Without it the test waits forever.
func TestRequestBodyStdinCancelled(t *testing.T) {
	t.Parallel()
	requested := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requested <- struct{}{}
	}))
	defer srv.Close()
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		o := &recordOptions{output: filepath.Join(t.TempDir(), "run.sse"), maxEventBytes: 1 << 20}
		fs := pflag.NewFlagSet("record", pflag.ContinueOnError)
		addHTTPFlags(fs, &o.http)
		if err := fs.Parse([]string{"-d", "@-"}); err != nil {
			done <- err
			return
		}
		done <- runRecord(ctx, &IOStreams{In: pr, Out: io.Discard, Err: io.Discard}, o, srv.URL)
	}()
	// The write returns once the body reader has taken it; the producer
	// then stays silent, with the pipe open.
	if _, err := pw.Write([]byte(`{"prompt":`)); err != nil {
		t.Fatal(err)
	}
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "reading the request body from stdin") {
		t.Errorf("record: %v; want the body's read cancelled", err)
	}
	select {
	case <-requested:
		t.Error("the request was sent with half a body")
	default:
	}
}

// TestLongMessagesBounded: a message naming everything a hostile input
// holds is cut on stderr, at a character boundary, saying how much.
func TestLongMessagesBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	rep := newReporter(&b, false)
	long := "stream ended inside " + strings.Repeat(`text block of agent "é", `, 100000)
	rep.problem(errors.New(long))
	got := b.String()
	if len(got) > maxMessage+100 || !strings.HasSuffix(got, " bytes more)\n") {
		t.Errorf("stderr is %d bytes ending %q, want at most %d ending with what was cut", len(got), got[max(0, len(got)-40):], maxMessage+100)
	}
	if !utf8.ValidString(got) {
		t.Error("a character was split")
	}
}

// TestAssembleOpenCap: a stream opening a block for more agents than the
// cap stops the transcript with a clear error; -o json closes the oldest
// early, reports it once, and goes on.
func TestAssembleOpenCap(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	for i := range 1100 {
		fmt.Fprintf(&in, "data: {\"type\":\"text\",\"agent\":\"a%d\",\"final\":false,\"delta\":\"x\"}\n\n", i)
	}
	code, _, stderr := runCLI(t, in.String(), "assemble")
	if code != ExitFailure || !strings.Contains(stderr, `too many blocks open at once: more than 1024`) ||
		!strings.Contains(stderr, `agent "a1024" is one too many; the transcript stops here`) {
		t.Errorf("text: exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr := runCLI(t, in.String(), "assemble", "-o", "json")
	if code != ExitNo || strings.Count(stderr, "too many blocks open at once") != 1 {
		t.Errorf("json: exit %d, stderr %q; want 1 and the cap reported once", code, stderr)
	}
	if n := strings.Count(stdout, `"type":"text"`); n != 1100 {
		t.Errorf("json: %d text blocks, want 1100: none dropped", n)
	}
}
