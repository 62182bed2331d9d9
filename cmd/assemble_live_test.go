package cmd

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// signalWriter keeps what is written to it and signals each write.
type signalWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf.Write(p)
	w.mu.Unlock()
	select {
	case w.wrote <- struct{}{}:
	default: // a signal is already pending
	}
	return len(p), nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestAssembleLiveThroughPipe feeds envelopes one at a time through a pipe
// into the real command and proves that the text of a block reaches stdout
// before the block ends: each step waits for the output it needs before
// the next envelope is written, so a command that held the block back
// would never get the end marker.
func TestAssembleLiveThroughPipe(t *testing.T) {
	t.Parallel()
	const agent = "11111111-aaaa-4aaa-8aaa-000000000001"
	env := func(typ string, final bool, delta string) string {
		f := "false"
		if final {
			f = "true"
		}
		return `data: {"type":"` + typ + `","agent":"` + agent + `","final":` + f + `,"delta":"` + delta + `"}` + "\n\n"
	}
	pr, pw := io.Pipe()
	out := &signalWriter{wrote: make(chan struct{}, 1)}
	var stderr bytes.Buffer
	ios := &IOStreams{In: pr, Out: out, Err: &stderr, Getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() {
		done <- Run(t.Context(), []string{"assemble", "--live", "--color", "never"}, ios)
		pr.Close()
	}()
	// The guard only turns a hang into a failure; nothing is timed.
	guard := time.After(time.Minute)
	waitFor := func(s string) {
		t.Helper()
		for !strings.Contains(out.String(), s) {
			select {
			case <-out.wrote:
			case code := <-done:
				t.Fatalf("command ended (exit %d) before %q was on stdout; stdout %q, stderr %q", code, s, out.String(), stderr.String())
			case <-guard:
				t.Fatalf("%q not on stdout while the block is open; stdout %q", s, out.String())
			}
		}
	}
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(pw, s); err != nil {
			t.Fatal(err)
		}
	}

	send(env("thinking", false, "Pondering"))
	waitFor("┊ Pondering")
	send(env("thinking", true, ""))
	send(env("text", false, "Hello, "))
	waitFor("Hello, ")
	send(env("text", false, "world"))
	waitFor("Hello, world")
	// Only now does the block end.
	send(env("text", true, ""))
	send("data: [DONE]\n\n")
	pw.Close()
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if got, want := out.String(), "┊ Pondering\n\nHello, world\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// TestAssembleTerminalDefaults: on a terminal, assemble is live and
// coloured unless NO_COLOR or TERM=dumb say otherwise; elsewhere it is
// neither. Each case must print what the explicit flags print.
func TestAssembleTerminalDefaults(t *testing.T) {
	t.Parallel()
	const input = "../testdata/jsonenv/hand-interleaved.sse"
	run := func(tty bool, env map[string]string, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		ios := &IOStreams{Out: &out, Err: &errb, OutTTY: tty, Getenv: func(k string) string { return env[k] }}
		if code := Run(t.Context(), append([]string{"assemble"}, append(args, input)...), ios); code != ExitOK {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return out.String()
	}
	tests := []struct {
		name string
		tty  bool
		env  map[string]string
		args []string
		same []string // the flags that print the same when not on a terminal
	}{
		{"terminal", true, nil, nil, []string{"--live", "--color", "always"}},
		{"terminal with NO_COLOR", true, map[string]string{"NO_COLOR": "1"}, nil, []string{"--live", "--color", "never"}},
		{"dumb terminal", true, map[string]string{"TERM": "dumb"}, nil, []string{"--live", "--color", "never"}},
		{"not a terminal", false, nil, nil, []string{"--live=false", "--color", "never"}},
		{"terminal, piped view asked", true, nil, []string{"--live=false"}, []string{"--color", "always"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := run(tt.tty, tt.env, tt.args...)
			want := run(false, nil, tt.same...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-%v +default):\n%s", tt.same, diff)
			}
		})
	}
	// The cases differ from one another: live is not piped, colour is not plain.
	if run(false, nil, "--live") == run(false, nil) {
		t.Error("--live prints what the piped view prints for a stream with an interleaved subagent")
	}
}
