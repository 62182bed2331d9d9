package cmd

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// servers are the servers replay-server started, by script and variable.
var servers sync.Map // serverKey -> *scriptServer

type serverKey struct {
	ts  *testscript.TestScript
	env string
}

type scriptServer struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	done   chan struct{} // stderr read to its end
}

var servingLine = regexp.MustCompile(`^agentstream: serving .* at (http://[^ ]+)/ \(Ctrl-C to stop\)$`)

// replayServerCmd is `replay-server VAR ARGS...`: it starts
// `agentstream replay ARGS...` (a --serve command) in the background, in
// the script's directory, waits for the address it prints and sets VAR to
// its URL (no trailing slash). `stop-server VAR` ends it; the script's end kills
// it if it still runs.
func replayServerCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: replay-server VAR ARGS...")
	}
	cmd := exec.Command("agentstream", append([]string{"replay"}, args[1:]...)...)
	cmd.Dir = ts.Getenv("WORK")
	pr, err := cmd.StderrPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	s := &scriptServer{cmd: cmd, stderr: &bytes.Buffer{}, done: make(chan struct{})}
	ts.Defer(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	lines := bufio.NewReader(pr)
	url := make(chan string, 1)
	go func() {
		defer close(s.done)
		for {
			line, err := lines.ReadString('\n')
			s.stderr.WriteString(line)
			if m := servingLine.FindStringSubmatch(strings.TrimSuffix(line, "\n")); m != nil {
				url <- m[1]
			}
			if err != nil {
				close(url)
				return
			}
		}
	}()
	u, ok := <-url
	if !ok {
		<-s.done
		cmd.Wait()
		ts.Fatalf("replay ended without serving: %s", s.stderr)
	}
	servers.Store(serverKey{ts, args[0]}, s)
	ts.Setenv(args[0], u)
}

// stopServerCmd is `stop-server VAR [INT|TERM]`: it sends the server that replay-server
// started as VAR the signal (TERM when none), waits for it to end, and
// writes its stderr to the script's stderr. It fails if the server's exit
// code is not 0 (with !, if it is).
func stopServerCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: stop-server VAR [INT|TERM]")
	}
	v, ok := servers.LoadAndDelete(serverKey{ts, args[0]})
	if !ok {
		ts.Fatalf("no server %s", args[0])
	}
	s := v.(*scriptServer)
	sig := syscall.SIGTERM
	if len(args) == 2 && args[1] == "INT" {
		sig = syscall.SIGINT
	}
	ts.Check(s.cmd.Process.Signal(sig))
	<-s.done
	err := s.cmd.Wait()
	ts.Stderr().Write(s.stderr.Bytes())
	if (err != nil) != neg {
		ts.Fatalf("server exited: %v", err)
	}
}

// httpCmd is `http [-H 'Name: value']... [-d BODY|@FILE] METHOD URL`: it
// writes the response body to stdout, and its status and headers (but
// Date, Content-Length and Transfer-Encoding) to stderr, one a line:
// "HTTP 200", "Content-Type: text/event-stream".
func httpCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! http")
	}
	header := http.Header{}
	var body io.Reader
	for len(args) > 2 {
		switch args[0] {
		case "-H":
			k, v, _ := strings.Cut(args[1], ":")
			header.Add(k, strings.TrimSpace(v))
		case "-d":
			d := args[1]
			if name, ok := strings.CutPrefix(d, "@"); ok {
				b, err := os.ReadFile(ts.MkAbs(name))
				ts.Check(err)
				d = string(b)
			}
			body = strings.NewReader(d)
		default:
			ts.Fatalf("usage: http [-H 'Name: value']... [-d BODY|@FILE] METHOD URL")
		}
		args = args[2:]
	}
	if len(args) != 2 {
		ts.Fatalf("usage: http [-H 'Name: value']... [-d BODY|@FILE] METHOD URL")
	}
	req, err := http.NewRequest(args[0], args[1], body)
	ts.Check(err)
	req.Header = header
	client := &http.Client{Timeout: time.Minute}
	res, err := client.Do(req)
	ts.Check(err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	ts.Check(err)
	fmt.Fprintf(ts.Stderr(), "HTTP %d\n", res.StatusCode)
	for _, k := range slices.Sorted(maps.Keys(res.Header)) {
		if k == "Date" || k == "Content-Length" || k == "Transfer-Encoding" {
			continue
		}
		for _, v := range res.Header[k] {
			fmt.Fprintf(ts.Stderr(), "%s: %s\n", k, v)
		}
	}
	ts.Stdout().Write(b)
}
