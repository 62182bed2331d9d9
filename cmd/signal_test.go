//go:build unix

package cmd

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// started is an agentstream process a test runs, with what it wrote.
type started struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan error // its exit, once
}

// start runs agentstream (the test binary, as testscript installs it)
// with args in dir.
func start(t *testing.T, dir string, stdin io.Reader, stdout io.Writer, args ...string) *started {
	t.Helper()
	p := &started{cmd: exec.Command("agentstream", args...), done: make(chan error, 1)}
	p.cmd.Dir, p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = dir, stdin, stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
	})
	return p
}

// stop sends sig and returns the exit code.
func (p *started) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(time.Minute): // a guard against a hang, not a measure
		t.Fatalf("%s did not end on %s", p.cmd.Args[1], sig)
	}
	return p.cmd.ProcessState.ExitCode()
}

var oneEvent = "data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"Hel\"}\n\n"

// TestRecordSignals ends `record` on stdin, a FIFO and a URL, each
// stalled after one event, with SIGINT and SIGTERM (saved: exit 0, the
// event in FILE) and SIGKILL (FILE whole as an earlier run left it, the
// event in FILE.partial).
func TestRecordSignals(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, oneEvent)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	saved := regexp.MustCompile(`^:agentstream-recording v1\n:t=[0-9]+\n` + regexp.QuoteMeta(oneEvent) + `$`)
	for _, input := range []string{"stdin", "fifo", "url"} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
			t.Run(input+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				rec := filepath.Join(dir, "run.sse")
				writeFile(t, rec, "an earlier recording\n")
				var p *started
				var feed io.WriteCloser
				switch input {
				case "stdin":
					pr, pw, err := os.Pipe()
					if err != nil {
						t.Fatal(err)
					}
					p = start(t, dir, pr, nil, "record", "-", "-o", "run.sse")
					pr.Close()
					feed = pw
				case "fifo":
					fifo := filepath.Join(dir, "in.fifo")
					if err := syscall.Mkfifo(fifo, 0o600); err != nil {
						t.Fatal(err)
					}
					p = start(t, dir, nil, nil, "record", "in.fifo", "-o", "run.sse")
					f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for record to open it
					if err != nil {
						t.Fatal(err)
					}
					feed = f
				case "url":
					p = start(t, dir, nil, nil, "record", srv.URL, "-o", "run.sse")
				}
				if feed != nil {
					defer feed.Close() // open: the producer is silent, not gone
					if _, err := io.WriteString(feed, oneEvent); err != nil {
						t.Fatal(err)
					}
				}
				waitForRecorded(t, rec, oneEvent, p.done)
				code := p.stop(t, sig)
				partial := readOrNone(rec + ".partial")
				if sig == syscall.SIGKILL {
					if got := readOrNone(rec); got != "an earlier recording\n" {
						t.Errorf("killed: %s is %q, want the earlier recording whole", rec, got)
					}
					if !saved.MatchString(partial) {
						t.Errorf("killed: run.sse.partial is %q, want the event that arrived", partial)
					}
					return
				}
				if code != 0 || p.stderr.Len() != 0 {
					t.Errorf("exit %d, stderr %q; want 0 and nothing", code, p.stderr.String())
				}
				if got := readOrNone(rec); !saved.MatchString(got) {
					t.Errorf("%s is %q, want the event that arrived", rec, got)
				}
				if partial != "<none>" {
					t.Errorf("run.sse.partial left: %q", partial)
				}
			})
		}
	}
}

// TestReplaySignals ends `replay` waiting for its second event, with and
// without --to, with SIGINT and SIGTERM, as convert ends: what was played
// (converted) is written out, with no end the recording did not reach,
// the stop is reported, and the command exits 1 (the output is not the
// whole recording).
func TestReplaySignals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "run.sse"), ":agentstream-recording v1\n:t=0\n"+oneEvent+
		":t=3600000\ndata: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"lo\"}\n\n")
	tests := []struct {
		name  string
		args  []string
		first string // the output of the first event
	}{
		{"as recorded", []string{"replay", "run.sse"}, oneEvent},
		{"converted", []string{"replay", "run.sse", "--to", "jsonenv", "--framing", "ndjson"}, `{"type":"text","agent":"a","final":false,"delta":"Hel"}` + "\n"},
	}
	for _, tt := range tests {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tt.name+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				pr, pw, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				p := start(t, dir, nil, pw, tt.args...)
				pw.Close()
				out := bufio.NewReader(pr)
				first := make([]byte, len(tt.first))
				if _, err := io.ReadFull(out, first); err != nil || string(first) != tt.first {
					t.Fatalf("first output %q, %v; want %q", first, err, tt.first)
				}
				code := p.stop(t, sig)
				rest, _ := io.ReadAll(out)
				stop := "agentstream: run.sse: interrupted by " + signalName(sig) + ": the input ends here\n"
				if code != ExitNo || !strings.HasPrefix(p.stderr.String(), stop) || len(rest) != 0 {
					t.Errorf("exit %d, stderr %q, then %q; want exit %d, %q and nothing more", code, p.stderr.String(), rest, ExitNo, stop)
				}
			})
		}
	}
}
