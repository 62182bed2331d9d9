package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/recording"
	"github.com/agentstream/agentstream/source"
)

type recordOptions struct {
	output        string
	maxEventBytes int
	http          httpOptions

	// file, when set, replaces the file system operations of the
	// recording's files (tests make each fail).
	file *recording.FileOptions
	// now, when set, is the recording's clock (tests fix it, so that two
	// recordings of one input are the same bytes).
	now func() time.Time
}

func newRecordCmd(ios *IOStreams) *cobra.Command {
	o := &recordOptions{}
	c := &cobra.Command{
		Use:   "record INPUT -o FILE",
		Short: "Save a stream byte for byte, with the arrival time of every event",
		Long: `Record reads INPUT (an SSE URL, a file, or - for stdin) and saves what
arrives in FILE, byte for byte, with the arrival time of every event, writing
each event as soon as it is complete. FILE is written as FILE.partial and
renamed into place when the recording ends: until then, and on any
failure, FILE holds what it held. Ctrl-C or SIGTERM ends a recording
cleanly (exit 0), keeping every event that arrived; a killed recording
leaves them in FILE.partial.

An SSE recording is the stream itself with comment lines added (":t=<ms>"
before each event), which every SSE parser ignores; an NDJSON recording is
the stream unchanged, with its timing in FILE.timing. convert and assemble
read recordings like any other input; replay plays them back.
See docs/recording.md.`,
		Example: `  agentstream record https://agent.example/run -d '{"query":"hi"}' -o run.sse
  producer | agentstream record - -o run.ndjson`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			// SIGINT and SIGTERM end c.Context() (Main).
			return runRecord(c.Context(), ios, o, args[0])
		},
	}
	fs := c.Flags()
	fs.StringVarP(&o.output, "output", "o", "", "the recording to write (required; - for stdout, without timing for NDJSON)")
	addMaxEventBytesFlag(fs, &o.maxEventBytes, "")
	addHTTPFlags(fs, &o.http)
	return c
}

// runRecord records input into o.output. A cancelled ctx (Ctrl-C,
// SIGTERM) ends the recording cleanly: what arrived is saved and the
// command succeeds.
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

	var out io.Writer = ios.Out
	var file *recording.File   // a recording saved when complete
	var inPlace io.WriteCloser // a device or pipe named by -o, written as stdout is
	noTiming := "on stdout (use -o FILE)"
	cfg := &recording.Config{MaxEventBytes: o.maxEventBytes, Now: o.now}
	if o.output != "-" {
		if st, err := os.Stat(o.output); err == nil && !st.Mode().IsRegular() {
			f, err := os.OpenFile(o.output, os.O_WRONLY, 0)
			if err != nil {
				return failure(err)
			}
			inPlace, out = f, f
			noTiming = "in " + o.output + ", which is not a regular file"
		} else {
			file, err = recording.CreateFile(o.output, o.file)
			if err != nil {
				return failure(err)
			}
			out, cfg.Timing = file, file.Timing
		}
	}
	framing, err := recording.Record(out, rc, cfg)
	if framing == recording.Lines && cfg.Timing == nil {
		rep.note("the input is line-framed: its timing is not kept %s", noTiming)
	}
	// Stopped by a signal (err != nil, ctx done) or at the end of the
	// input: what arrived is saved. Any other error fails the recording.
	interrupted := err != nil && ctx.Err() != nil
	if err != nil && !interrupted {
		err = fmt.Errorf("%s: %w", input, err)
	} else {
		err = nil
	}
	if inPlace != nil {
		// A write the file system only reports at close is a failed
		// recording too.
		if cerr := inPlace.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	if file != nil {
		err = o.save(rep, file, err, interrupted)
	}
	if err != nil {
		return failure(err)
	}
	return nil
}

// save saves the recording file, or keeps what was recorded beside
// o.output when the recording failed (err) or cannot be saved. A
// recording interrupted before anything arrived leaves o.output as it
// was.
func (o *recordOptions) save(rep *reporter, file *recording.File, err error, interrupted bool) error {
	nothing := interrupted && file.Written() == 0
	if err == nil && !nothing {
		if err = file.Commit(); err == nil {
			return nil
		}
	}
	kept, aerr := file.Abort()
	switch {
	case nothing && aerr == nil:
		rep.note("nothing was recorded: %s is left as it was", o.output)
		return nil
	case err == nil:
		err = aerr
	case len(kept) > 0 && file.Placed():
		err = fmt.Errorf("%w (its timing is in %s)", err, kept[0])
	case len(kept) > 0:
		err = fmt.Errorf("%w (%s is left as it was; what was recorded is in %s)", err, o.output, strings.Join(kept, " and "))
	}
	return err
}
