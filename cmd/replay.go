package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/recording"
	"github.com/agentstream/agentstream/serve"
	"github.com/agentstream/agentstream/source"
)

type replayOptions struct {
	speed      float64
	maxGap     time.Duration
	noDelay    bool
	interval   time.Duration
	timingFile string
	serve      string
	fixtures   string
	conv       convertOptions // --to and the flags convert has for it

	// ready, when set, is called with the address being served (tests).
	ready func(addr string)
}

func newReplayCmd(ios *IOStreams) *cobra.Command {
	o := &replayOptions{}
	c := &cobra.Command{
		Use:   "replay FILE",
		Short: "Play a recording with its original timing, or serve it as an SSE endpoint",
		Long: `Replay writes the recording FILE (made by 'agentstream record') to stdout
with its original timing: scaled by --speed, with gaps capped by --max-gap,
or none with --no-delay. --to converts it on the way, as convert does.
Recordings without timing (any SSE or NDJSON file) replay with --no-delay
or a fixed --interval.

--serve ADDR serves the recording as an SSE endpoint instead: every client
that connects gets the whole replay from the start, or from the event after
its Last-Event-ID. An address without a host (8080 or :8080) listens on
127.0.0.1. Ctrl-C or SIGTERM stops the server (exit 0).

--serve ADDR --fixtures FIXTURES answers each request with the recording
of the first fixture it matches (method, path, the last user message of
its body, the n-th call), as recorded or converted (the fixture's "to"),
and with 404 and a JSON body naming what was asked when none matches.
--serve ADDR DIR serves the recording NAME of the directory DIR at /NAME.
Both serve the recorded bytes or what --to writes (not SSE messages
renumbered), with --to as the default format. See docs/recording.md.`,
		Example: `  agentstream replay run.sse --speed 4 --max-gap 1s
  agentstream replay run.sse --no-delay --to jsonenv --framing ndjson
  agentstream replay run.sse --serve 8080
  agentstream replay --serve 8080 --fixtures fixtures.json
  agentstream replay recordings/ --serve 8080 --no-delay`,
		Args: usageArgs(cobra.RangeArgs(0, 1)),
		RunE: func(c *cobra.Command, args []string) error {
			// SIGINT and SIGTERM end c.Context() (Main).
			ctx := c.Context()
			file := ""
			if len(args) > 0 {
				file = args[0]
			}
			return runReplay(ctx, ios, o, file)
		},
	}
	fs := c.Flags()
	fs.Float64Var(&o.speed, "speed", 1, "play faster (2) or slower (0.5) than recorded")
	fs.DurationVar(&o.maxGap, "max-gap", 0, "longest wait between two events (0: no cap)")
	fs.BoolVar(&o.noDelay, "no-delay", false, "play without waiting")
	fs.DurationVar(&o.interval, "interval", 0, "a fixed wait between events instead of the recorded timing")
	fs.StringVar(&o.timingFile, "timing", "", "timing sidecar of an NDJSON recording (default FILE.timing when it exists)")
	fs.StringVar(&o.serve, "serve", "", "serve the recording as an SSE endpoint at ADDR instead (host defaults to 127.0.0.1)")
	fs.StringVar(&o.fixtures, "fixtures", "", "with --serve: answer requests with the recordings of this fixtures file (no FILE)")
	// --to and its companions: the flags of convert, with the same meaning.
	fs.StringVarP(&o.conv.to, "to", "t", "", "convert to this format on the way (see 'agentstream formats')")
	addOutputFlags(fs, &o.conv, "with --to %s: ")
	in := &o.conv.in
	fs.StringVarP(&in.from, "from", "f", "auto", "with --to: the recording's format (auto detects it)")
	fs.BoolVar(&in.strict, "strict", false, "with --to: stop at the first problem in the input (exit 2)")
	fs.StringVar(&in.agent, "default-agent", "", "with --to: agent id for sources that carry none")
	addReadFlags(fs, in, "with --to: ")
	return c
}

func (o *replayOptions) timing() recording.Timing {
	return recording.Timing{Speed: o.speed, MaxGap: o.maxGap, NoDelay: o.noDelay, Interval: o.interval}
}

func runReplay(ctx context.Context, ios *IOStreams, o *replayOptions, file string) error {
	switch {
	case o.speed <= 0:
		return failure(fmt.Errorf("--speed must be above 0, not %v", o.speed))
	case o.maxGap < 0 || o.interval < 0:
		return failure(errors.New("--max-gap and --interval cannot be negative"))
	case o.fixtures != "" && o.serve == "":
		return failure(errors.New("--fixtures needs --serve ADDR"))
	case o.fixtures != "" && file != "":
		return failure(errors.New("--fixtures names the recordings: give no FILE"))
	case o.fixtures == "" && file == "":
		return failure(errors.New("replay needs a FILE (or --serve with --fixtures)"))
	}
	if o.serve != "" {
		return serveReplay(ctx, ios, o, file)
	}
	p, closeRec, err := openRecording(ios, file, o.timingFile)
	if err != nil {
		return failure(err)
	}
	defer closeRec()
	timed, err := p.Timed()
	if err != nil {
		return failure(fmt.Errorf("%s: %w", file, err))
	}
	if !timed && !o.noDelay && o.interval == 0 {
		return failure(fmt.Errorf("%s: %w", file, recording.ErrNoTiming))
	}
	if o.conv.to != "" {
		return replayConverted(ctx, ios, o, file, p)
	}
	err = recording.Play(ctx, p, o.timing(), func(c recording.Chunk) error {
		_, err := ios.Out.Write(c.Data)
		return err
	})
	if err != nil && ctx.Err() == nil {
		return failure(fmt.Errorf("%s: %w", file, err))
	}
	if ierr := interrupted(ctx); ierr != nil {
		// What was played stays; the output is not the whole
		// recording, as convert's is not the whole input (exit 1).
		return &exitError{code: ExitNo, err: fmt.Errorf("%s: %v: the input ends here", file, ierr)}
	}
	return nil
}

// openRecording opens file ("-" for stdin) and its timing sidecar: the one
// named, or FILE.timing when it exists.
func openRecording(ios *IOStreams, file, timingFile string) (*recording.Player, func(), error) {
	var closers []io.Closer
	closeAll := func() {
		for _, c := range closers {
			c.Close()
		}
	}
	var r io.Reader = ios.In
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, nil, err
		}
		closers = append(closers, f)
		r = f
	}
	var side io.Reader
	if name := sidecarName(file, timingFile); name != "" {
		f, err := os.Open(name)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		closers = append(closers, f)
		side = f
	}
	return recording.NewPlayer(r, side), closeAll, nil
}

// sidecarName is the timing sidecar of file: the one named, or
// FILE.timing when it exists; "" for none.
func sidecarName(file, timingFile string) string {
	if timingFile != "" || file == "-" {
		return timingFile
	}
	if _, err := os.Stat(file + ".timing"); err != nil {
		return ""
	}
	return file + ".timing"
}

// replayConverted plays the recording through convert: each event is
// written when the recorded bytes that complete it are played.
func replayConverted(ctx context.Context, ios *IOStreams, o *replayOptions, file string, p *recording.Player) error {
	conv := o.conv
	conv.in.open = func(ctx context.Context, _ string, _ *source.Options) (io.ReadCloser, error) {
		return recording.Reader(ctx, p, o.timing()), nil
	}
	// Played with its timing, the recording arrives as a live input
	// does: what the abandon hold keeps leaves whenever the player waits.
	conv.in.live = !o.timing().NoDelay
	err := runConvert(ctx, ios, &conv, []string{file})
	if err != nil && ctx.Err() != nil && interrupted(ctx) == nil {
		return nil // ended by the caller
	}
	// A signal ends the recording's input as it ends convert's (exit 1).
	return err
}

// serveAddr gives an address without a host the loopback host.
func serveAddr(addr string) string {
	if !strings.Contains(addr, ":") {
		return "127.0.0.1:" + addr
	}
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}

// serveReplay serves the fixtures, the directory or the recording file
// until ctx is done.
func serveReplay(ctx context.Context, ios *IOStreams, o *replayOptions, file string) error {
	var h http.Handler
	what := file
	if st, err := os.Stat(file); o.fixtures != "" || (err == nil && st.IsDir()) {
		srv, err := newFixtureServer(ios, o, file)
		if err != nil {
			return err
		}
		defer srv.Close()
		h = srv
		if o.fixtures != "" {
			what = o.fixtures
		}
	} else {
		rh, closeRec, err := recordingHandler(o, file)
		if err != nil {
			return err
		}
		defer closeRec()
		h = rh
	}
	ln, err := net.Listen("tcp", serveAddr(o.serve))
	if err != nil {
		return failure(err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		// Requests end with ctx: streams being played stop at Ctrl-C.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	addr := ln.Addr().String()
	fmt.Fprintf(ios.Err, "agentstream: serving %s at http://%s/ (Ctrl-C to stop)\n", what, addr)
	if o.ready != nil {
		o.ready(addr)
	}
	select {
	case err := <-served:
		return failure(err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return failure(err)
	}
	return nil
}

// newFixtureServer returns the server of the fixtures file, or of the
// directory dir, with the command's timing and --to.
func newFixtureServer(ios *IOStreams, o *replayOptions, dir string) (*serve.Server, error) {
	conv := &o.conv
	if conv.to != "" {
		if f, ok := convert.Lookup(conv.to); !ok || f.NewEncoder == nil {
			return nil, failure(fmt.Errorf("unknown output format %q (one of %s)", conv.to, strings.Join(convert.Names(false), ", ")))
		}
	}
	if err := checkMaxChunkBytes(conv.maxChunkBytes); err != nil {
		return nil, err
	}
	if err := conv.in.check(); err != nil {
		return nil, err
	}
	rep := newReporter(ios.Err, false)
	so := &serve.Options{
		Timing: o.timing(), To: conv.to, Framing: conv.framing, From: conv.in.from,
		Decode: format.Options{MaxEventBytes: conv.in.maxEventBytes, Agent: conv.in.agent, XMLEscaping: conv.in.xmlEscaping},
		Encode: format.Options{
			Agent: conv.in.agent, MaxChunkBytes: conv.maxChunkBytes,
			Partial: conv.partial, MCPBeta: conv.mcpBeta, LateSignatures: conv.lateSignatures,
		},
		Warn: rep.warn,
	}
	var srv *serve.Server
	var err error
	if o.fixtures != "" {
		srv, err = serve.New(o.fixtures, so)
	} else {
		srv, err = serve.NewDir(dir, so)
	}
	if err != nil {
		return nil, failure(err)
	}
	return srv, nil
}

// recordingHandler returns the SSE endpoint of one recording file. The
// file is read for each client as it is played, so stdin cannot be
// served.
func recordingHandler(o *replayOptions, file string) (http.Handler, func(), error) {
	if o.conv.to != "" {
		return nil, nil, failure(errors.New("--to cannot be used with --serve FILE: the recording is served as it is (serve a directory or --fixtures to convert)"))
	}
	if file == "-" {
		return nil, nil, failure(errors.New("--serve needs a recording file, not - (stdin can be read only once)"))
	}
	rec, err := os.Open(file)
	if err != nil {
		return nil, nil, failure(err)
	}
	closers := []io.Closer{rec}
	closeAll := func() {
		for _, c := range closers {
			c.Close()
		}
	}
	var side io.ReaderAt
	if name := sidecarName(file, o.timingFile); name != "" {
		f, err := os.Open(name)
		if err != nil {
			closeAll()
			return nil, nil, failure(err)
		}
		closers = append(closers, f)
		side = f
	}
	h, err := recording.NewHandler(rec, side, o.timing())
	if err != nil {
		closeAll()
		return nil, nil, failure(fmt.Errorf("%s: %w", file, err))
	}
	return h, closeAll, nil
}
