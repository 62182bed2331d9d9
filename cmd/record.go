package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/recording"
	"github.com/agentstream/agentstream/source"
)

type recordOptions struct {
	output        string
	maxEventBytes int
	http          httpOptions

	// create, when set, opens the recording and its sidecar instead of
	// os.Create (tests).
	create func(name string) (io.WriteCloser, error)
}

func newRecordCmd(ios *IOStreams) *cobra.Command {
	o := &recordOptions{}
	c := &cobra.Command{
		Use:   "record INPUT -o FILE",
		Short: "Save a stream byte for byte, with the arrival time of every event",
		Long: `Record reads INPUT (an SSE URL, a file, or - for stdin) and saves what
arrives in FILE, byte for byte, with the arrival time of every event, writing
each event as soon as it is complete: a recording stopped by Ctrl-C, or
killed, keeps every event that arrived.

An SSE recording is the stream itself with comment lines added (":t=<ms>"
before each event), which every SSE parser ignores; an NDJSON recording is
the stream unchanged, with its timing in FILE.timing. convert and assemble
read recordings like any other input; replay plays them back.
See docs/recording.md.`,
		Example: `  agentstream record https://agent.example/run -d '{"query":"hi"}' -o run.sse
  producer | agentstream record - -o run.ndjson`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(c.Context(), stopSignals...)
			defer stop()
			return runRecord(ctx, ios, o, args[0])
		},
	}
	fs := c.Flags()
	fs.StringVarP(&o.output, "output", "o", "", "the recording to write (required; - for stdout, without timing for NDJSON)")
	addMaxEventBytesFlag(fs, &o.maxEventBytes, "")
	addHTTPFlags(fs, &o.http)
	return c
}

// runRecord records input into o.output. A cancelled ctx (Ctrl-C) ends the
// recording cleanly: what arrived is kept and the command succeeds.
func runRecord(ctx context.Context, ios *IOStreams, o *recordOptions, input string) error {
	if o.output == "" {
		return failure(errors.New("record needs -o FILE"))
	}
	if err := checkMaxEventBytes(o.maxEventBytes); err != nil {
		return err
	}
	rep := newReporter(ios.Err, false)
	sopts := &source.Options{Stdin: ios.In, MaxEventBytes: o.maxEventBytes, Warn: func(msg string) { rep.note("%s", msg) }}
	if err := o.http.apply(ctx, sopts, ios.In, []string{input}); err != nil {
		return failure(err)
	}
	rc, err := source.Open(ctx, input, sopts)
	if err != nil {
		return failure(err)
	}
	defer rc.Close()

	create := o.create
	if create == nil {
		create = func(name string) (io.WriteCloser, error) { return os.Create(name) }
	}
	var out io.Writer = ios.Out
	var files []io.WriteCloser // the recording and its sidecar, closed in that order
	cfg := &recording.Config{MaxEventBytes: o.maxEventBytes}
	if o.output != "-" {
		f, err := create(o.output)
		if err != nil {
			return failure(err)
		}
		files = append(files, f)
		out = f
		// A sidecar left by an earlier recording must not time this one.
		if err := os.Remove(o.output + ".timing"); err != nil && !errors.Is(err, os.ErrNotExist) {
			f.Close()
			return failure(err)
		}
		cfg.Timing = func() (io.Writer, error) {
			side, err := create(o.output + ".timing")
			if err != nil {
				return nil, err
			}
			files = append(files, side)
			return side, nil
		}
	}
	framing, err := recording.Record(out, rc, cfg)
	// A write the file system only reports at close is a failed
	// recording too: every file is closed, and the first error counts.
	var closeErr error
	for _, f := range files {
		if cerr := f.Close(); cerr != nil && closeErr == nil {
			closeErr = cerr
		}
	}
	if framing == recording.Lines && cfg.Timing == nil {
		rep.note("the input is line-framed: its timing is not kept on stdout (use -o FILE)")
	}
	if err != nil && ctx.Err() == nil {
		return failure(fmt.Errorf("%s: %w", input, err))
	}
	// Stopped by Ctrl-C (err != nil, ctx done) or at the end of the input:
	// what arrived is saved, if the files closed cleanly.
	if closeErr != nil {
		return failure(closeErr)
	}
	return nil
}
