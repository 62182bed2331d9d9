package cmd

import (
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are the testscript commands of the CLI scripts beyond the
// standard ones.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"sse-server":    sseServerCmd,
	"waitfor":       waitForCmd,
	"replay-server": replayServerCmd,
	"stop-server":   stopServerCmd,
	"http":          httpCmd,
	"repeat":        repeatCmd,
}

// sseServerCmd is `sse-server VAR FILE`: it serves FILE as an SSE stream
// on the loopback, to every request, then drops the connection without
// ending the response (a lost connection), and sets VAR to its URL. The
// server stops with the script.
func sseServerCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sse-server VAR FILE")
	}
	body, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))
	ts.Defer(srv.Close)
	ts.Setenv(args[0], srv.URL)
}
