package cmd

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/emit/jsonenv"
	"github.com/agentstream/agentstream/event"
)

// minChunkBytes is the smallest --max-chunk-bytes: below it the fixed
// fields of an envelope leave no room for content.
const minChunkBytes = 128

type convertOptions struct {
	in            inputOptions
	to            string
	maxChunkBytes int
	framing       string
	partial       bool
}

func newConvertCmd(ios *IOStreams) *cobra.Command {
	o := &convertOptions{}
	c := &cobra.Command{
		Use:   "convert [INPUT...]",
		Short: "Convert agent streams from one wire format to another, event by event",
		Long: `Convert reads each INPUT (a file, - for stdin, or an SSE URL; stdin when
none is given) and writes it in the --to format on stdout, event by event,
flushing as it goes. What the target cannot carry is reported once as a
warning on stderr.`,
		Example: `  agentstream convert testdata/jsonenv/tooluse.sse --to jsonenv --framing ndjson
  cat run.sse | agentstream convert --from jsonenv --to jsonenv --max-chunk-bytes 1024`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			return runConvert(c.Context(), ios, o, args)
		},
	}
	fs := c.Flags()
	addInputFlags(fs, &o.in)
	fs.StringVarP(&o.to, "to", "t", "jsonenv", "output format (see 'agentstream formats')")
	fs.IntVar(&o.maxChunkBytes, "max-chunk-bytes", jsonenv.DefaultMaxChunkBytes, "jsonenv output: cap on one envelope's JSON text, in bytes")
	fs.StringVar(&o.framing, "framing", "sse", "jsonenv output framing: sse or ndjson")
	fs.BoolVar(&o.partial, "partial", false, "claude output: write stream_event lines, as --include-partial-messages does")
	return c
}

func runConvert(ctx context.Context, ios *IOStreams, o *convertOptions, inputs []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	out, ok := convert.Lookup(o.to)
	if !ok || out.NewEncoder == nil {
		return failure(fmt.Errorf("unknown output format %q (one of %s)", o.to, strings.Join(convert.Names(false), ", ")))
	}
	if o.maxChunkBytes < minChunkBytes {
		return failure(fmt.Errorf("--max-chunk-bytes must be at least %d, not %d", minChunkBytes, o.maxChunkBytes))
	}
	if o.framing != "sse" && o.framing != "ndjson" {
		return failure(fmt.Errorf("--framing must be sse or ndjson, not %q", o.framing))
	}
	rep := newReporter(ios.Err, o.in.strict)
	w := bufio.NewWriterSize(ios.Out, 64<<10)
	eo := &convert.Options{
		Agent: o.in.agent, MaxChunkBytes: o.maxChunkBytes,
		Framing: o.framing, Partial: o.partial, Warn: rep.warn,
	}
	o.in.tools.apply(eo)
	enc := out.NewEncoder(w, eo)
	o.in.flush = w.Flush
	err := eachInput(ctx, ios, &o.in, rep, inputs, func(name string, _ convert.Format, dec event.Decoder) error {
		return readError(convert.Pipe(dec, enc, nil, rep.problem))
	})
	if err == nil {
		// The end marker ([DONE], a closing result line) is written only
		// for a stream that was read to its end.
		if cerr := enc.Close(); cerr != nil {
			rep.problem(cerr)
		}
	}
	if ferr := w.Flush(); ferr != nil && err == nil {
		err = failure(ferr)
	}
	if err != nil {
		return err
	}
	return rep.result()
}
