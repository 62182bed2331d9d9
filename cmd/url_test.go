package cmd

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/source"
)

const sampleRun = "data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"Hel\"}\n\n" +
	": keep-alive\n\n" +
	"data: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"lo\"}\n\n" +
	"data: [DONE]\n\n"

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(t.Context(), args, &IOStreams{In: strings.NewReader(stdin), Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

// agentServer answers POST requests that carry the expected token with
// sampleRun, and reports what it was sent.
func agentServer(t *testing.T) (*httptest.Server, chan string) {
	t.Helper()
	reqs := make(chan string, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		reqs <- r.Method + " " + r.Header.Get("Authorization") + " " + r.Header.Get("Content-Type") + " " + string(body)
		if r.Header.Get("Authorization") != "Bearer k" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":"unauthorized"}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, m := range strings.SplitAfter(sampleRun, "\n\n") {
			io.WriteString(w, m)
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, reqs
}

func TestConvertURL(t *testing.T) {
	t.Parallel()
	srv, reqs := agentServer(t)
	dir := t.TempDir()
	body := filepath.Join(dir, "body.json")
	os.WriteFile(body, []byte(`{"query":"hi"}`), 0o644)

	code, stdout, stderr := runCLI(t, "", "convert", "--framing", "ndjson", srv.URL,
		"-H", "Authorization: Bearer k", "-d", "@"+body)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, want := <-reqs, `POST Bearer k application/json {"query":"hi"}`; got != want {
		t.Errorf("request %q, want %q", got, want)
	}
	want := `{"type":"text","agent":"a","final":false,"delta":"Hel"}` + "\n" +
		`{"type":"text","agent":"a","final":false,"delta":"lo"}` + "\n" +
		`{"type":"text","agent":"a","final":true,"delta":""}` + "\n"
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}

	// -d @- reads the body from stdin
	code, _, stderr = runCLI(t, `{"q":1}`, "assemble", srv.URL, "-H", "Authorization: Bearer k", "-d", "@-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, want := <-reqs, `POST Bearer k application/json {"q":1}`; got != want {
		t.Errorf("request %q, want %q", got, want)
	}

	// an error answer: the status and the start of the body, exit 2
	code, _, stderr = runCLI(t, "", "convert", srv.URL, "-X", "put")
	<-reqs
	if code != ExitFailure {
		t.Errorf("exit %d", code)
	}
	if want := "agentstream: PUT " + srv.URL + `: 401 Unauthorized: {"error":"unauthorized"}` + "\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

func TestRecordURLThenReadIt(t *testing.T) {
	t.Parallel()
	srv, reqs := agentServer(t)
	rec := filepath.Join(t.TempDir(), "run.sse")
	code, _, stderr := runCLI(t, "", "record", srv.URL, "-o", rec, "-H", "Authorization: Bearer k", "-d", "{}")
	if code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	<-reqs
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), ":agentstream-recording v1\n:t=") {
		t.Errorf("recording starts %q", b[:min(len(b), 40)])
	}

	// replay gives back the bytes, and convert and assemble read the
	// recording as they read the stream
	code, stdout, stderr := runCLI(t, "", "replay", rec, "--max-gap", "10ms")
	if code != 0 || stdout != sampleRun {
		t.Errorf("replay: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, args := range [][]string{{"convert", "--framing", "ndjson"}, {"assemble", "-o", "json"}} {
		_, fromRec, _ := runCLI(t, "", append(args, rec)...)
		_, fromStream, _ := runCLI(t, sampleRun, append(args, "-")...)
		if fromRec == "" || fromRec != fromStream {
			t.Errorf("%s: recording gives %q, stream gives %q", args[0], fromRec, fromStream)
		}
	}
}

func TestReplayServe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.sse")
	if code, _, stderr := runCLI(t, sampleRun, "record", "-", "-o", rec); code != 0 {
		t.Fatalf("record: %s", stderr)
	}
	ctx, cancel := context.WithCancel(t.Context())
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	var errb bytes.Buffer
	go func() {
		o := &replayOptions{speed: 1, serve: "127.0.0.1:0", ready: func(a string) { addrs <- a }}
		done <- runReplay(ctx, &IOStreams{Out: io.Discard, Err: &errb}, o, rec)
	}()
	var url string
	select {
	case a := <-addrs:
		url = "http://" + a + "/"
	case err := <-done:
		t.Fatalf("replay --serve ended: %v", err)
	}

	// our own URL input
	code, stdout, stderr := runCLI(t, "", "convert", "--framing", "ndjson", url)
	if code != 0 || !strings.Contains(stdout, `"delta":"lo"`) {
		t.Errorf("convert %s: exit %d, stdout %q, stderr %q", url, code, stdout, stderr)
	}
	// a plain HTTP client
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	want := "id: 1\ndata: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"Hel\"}\n\n" +
		"id: 3\ndata: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"lo\"}\n\n" +
		"id: 4\ndata: [DONE]\n\n"
	if diff := cmp.Diff(want, string(body)); diff != "" {
		t.Errorf("served body (-want +got):\n%s", diff)
	}

	// Ctrl-C: a clean shutdown, with a client still connected
	slow, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("replay --serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("replay --serve did not stop")
	}
	if !strings.Contains(errb.String(), "agentstream: serving "+rec+" at http://127.0.0.1:") {
		t.Errorf("stderr %q", errb.String())
	}
}

func TestHTTPFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	body := filepath.Join(dir, "b.json")
	os.WriteFile(body, []byte(`{"x":1}`), 0o644)
	const url = "http://127.0.0.1:1/run"
	tests := []struct {
		name    string
		args    []string
		inputs  []string
		stdin   string
		want    source.Options
		wantErr string
	}{
		{
			"defaults", nil,
			[]string{url},
			"",
			source.Options{ConnectTimeout: 30 * time.Second, IdleTimeout: 5 * time.Minute, Retry: 3},
			"",
		},
		{
			"retry max wait",
			[]string{"--retry-max-wait", "5s"},
			[]string{url},
			"",
			source.Options{ConnectTimeout: 30 * time.Second, IdleTimeout: 5 * time.Minute, Retry: 3, MaxRetryDelay: 5 * time.Second},
			"",
		},
		{
			"post body: no retry",
			[]string{"-d", "hi"},
			[]string{url},
			"",
			source.Options{Data: []byte("hi"), ConnectTimeout: 30 * time.Second, IdleTimeout: 5 * time.Minute},
			"",
		},
		{
			"empty body is a body",
			[]string{"-d", ""},
			[]string{url},
			"",
			source.Options{Data: []byte{}, ConnectTimeout: 30 * time.Second, IdleTimeout: 5 * time.Minute},
			"",
		},
		{
			"explicit retry",
			[]string{"-X", "post", "--retry", "2"},
			[]string{url},
			"",
			source.Options{Method: "POST", ConnectTimeout: 30 * time.Second, IdleTimeout: 5 * time.Minute, Retry: 2},
			"",
		},
		{
			"get with a body",
			[]string{"-X", "GET", "-d", "@" + body},
			[]string{url},
			"",
			source.Options{Method: "GET", Data: []byte(`{"x":1}`), ConnectTimeout: 30 * time.Second, IdleTimeout: 5 * time.Minute, Retry: 3},
			"",
		},
		{
			"timeout sets both",
			[]string{"--timeout", "10s"},
			[]string{url},
			"",
			source.Options{ConnectTimeout: 10 * time.Second, IdleTimeout: 10 * time.Second, Retry: 3},
			"",
		},
		{
			"timeout and one of them",
			[]string{"--timeout", "10s", "--idle-timeout", "0"},
			[]string{url},
			"",
			source.Options{ConnectTimeout: 10 * time.Second, Retry: 3},
			"",
		},
		{
			"headers",
			[]string{"-H", "Authorization: Bearer k", "-H", "X-A:1", "-H", "X-A: 2"},
			[]string{url},
			"",
			source.Options{
				Header:         http.Header{"Authorization": {"Bearer k"}, "X-A": {"1", "2"}},
				ConnectTimeout: 30 * time.Second, IdleTimeout: 5 * time.Minute, Retry: 3,
			},
			"",
		},
		{
			"body from stdin",
			[]string{"-d", "@-"},
			[]string{url},
			"q",
			source.Options{Data: []byte("q"), ConnectTimeout: 30 * time.Second, IdleTimeout: 5 * time.Minute},
			"",
		},
		{
			"body and input from stdin",
			[]string{"-d", "@-"},
			[]string{url, "-"},
			"",
			source.Options{},
			"-d @- and an input both read stdin",
		},
		{"bad header", []string{"-H", "nocolon"}, []string{url}, "", source.Options{}, `-H "nocolon": want 'Name: value'`},
		{"no URL", []string{"-d", "x"}, []string{"file.sse"}, "", source.Options{}, "--data applies to URL inputs only"},
		{"no URL, no HTTP flags", []string{"--timeout", "1s"}, []string{"file.sse"}, "", source.Options{}, ""},
		{"missing body file", []string{"-d", "@" + filepath.Join(dir, "none")}, []string{url}, "", source.Options{}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			var o httpOptions
			addHTTPFlags(fs, &o)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			var got source.Options
			err := o.apply(t.Context(), &got, strings.NewReader(tt.stdin), tt.inputs)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

// waitForRecorded waits until the recording rec, being written (as
// rec.partial), holds want, failing if the recording (which reports on
// done) ends first.
func waitForRecorded(t *testing.T, rec, want string, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(rec + ".partial")
		if strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q was not recorded: %q", want, b)
		}
		select {
		case err := <-done:
			t.Fatalf("record ended early: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestRecordInterrupted stops a recording of a stalled stream, as Ctrl-C
// does: what arrived is kept, even the event cut off, and the command
// succeeds.
func TestRecordInterrupted(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: one\n\ndata: par")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	rec := filepath.Join(t.TempDir(), "run.sse")
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		o := &recordOptions{output: rec, maxEventBytes: 1 << 20}
		fs := pflag.NewFlagSet("record", pflag.ContinueOnError)
		addHTTPFlags(fs, &o.http)
		done <- runRecord(ctx, &IOStreams{Out: io.Discard, Err: io.Discard}, o, srv.URL)
	}()
	waitForRecorded(t, rec, "data: one\n\n", done)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("record: %v", err)
	}
	b, _ := os.ReadFile(rec)
	if !regexp.MustCompile(`\ndata: one\n\n:t=[0-9]+\ndata: par$`).Match(b) {
		t.Errorf("recording %q does not end with what arrived", b)
	}
}
