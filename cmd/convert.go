package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

type convertOptions struct {
	in             inputOptions
	to             string
	maxChunkBytes  int
	framing        string
	partial        bool
	mcpBeta        bool
	lateSignatures bool
	follow         followOptions
	fs             *pflag.FlagSet // where the output flags were defined
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
	fs.StringVarP(&o.to, "to", "t", convert.Names(false)[0], "output format (see 'agentstream formats')")
	addOutputFlags(fs, o, "%s output: ")
	o.in.follow = &o.follow
	addFollowFlags(fs, &o.follow)
	return c
}

// addOutputFlags adds the flags of the output formats (convert's, and
// replay's with --to); prefix, given the formats that read a flag, starts
// its help.
func addOutputFlags(fs *pflag.FlagSet, o *convertOptions, prefix string) {
	o.fs = fs
	for_ := func(opt format.Option) string { return fmt.Sprintf(prefix, usedBy(opt)) }
	addMaxChunkBytesFlag(fs, &o.maxChunkBytes, for_(format.OptMaxChunkBytes)+"cap on one envelope's JSON text, in bytes")
	fs.StringVar(&o.framing, "framing", "sse", for_(format.OptFraming)+"framing, sse or ndjson")
	fs.BoolVar(&o.partial, "partial", false, for_(format.OptPartial)+"write stream_event lines, as --include-partial-messages does")
	fs.BoolVar(&o.lateSignatures, "late-signatures", false, for_(format.OptLateSignature)+"write the thinking signatures the envelope gives only in meta_final as signature_delta events after their block (clients take them; the API never sends them so late)")
	fs.BoolVar(&o.mcpBeta, "mcp-beta", false, for_(format.OptMCPBeta)+"write MCP tool calls and results as the MCP connector beta's mcp_tool_use and mcp_tool_result blocks")
}

func runConvert(ctx context.Context, ios *IOStreams, o *convertOptions, inputs []string) error {
	out, ok := convert.Lookup(o.to)
	if !ok || out.NewEncoder == nil {
		return failure(fmt.Errorf("unknown output format %q (one of %s)", o.to, strings.Join(convert.Names(false), ", ")))
	}
	if err := checkMaxChunkBytes(o.maxChunkBytes); err != nil {
		return err
	}
	if o.framing != "sse" && o.framing != "ndjson" {
		return failure(fmt.Errorf("--framing must be sse or ndjson, not %q", o.framing))
	}
	if err := checkUses(changedIn(o.fs), "--to "+out.Name, []convert.Format{out}, format.OptMaxChunkBytes, format.OptFraming, format.OptPartial, format.OptMCPBeta, format.OptLateSignature); err != nil {
		return err
	}
	o.in.writes = []convert.Format{out}
	ctx, stop, err := o.follow.start(ctx, inputs)
	if err != nil {
		return err
	}
	defer stop()
	rep := newReporter(ios.Err, o.in.strict)
	written := &countingWriter{w: ios.Out}
	w := bufio.NewWriterSize(written, 64<<10)
	eo := &format.Options{
		Agent: o.in.agent, MaxChunkBytes: o.maxChunkBytes,
		Framing: o.framing, Partial: o.partial, MCPBeta: o.mcpBeta, LateSignatures: o.lateSignatures, Warn: rep.warn,
	}
	o.in.tools.apply(eo)
	// What a source abandons is dropped for a target that cannot mark
	// it; each input says whether its format can abandon (SetSource).
	hold := convert.HoldAbandoned(out.NewEncoder(w, eo), format.Format{}, out, rep.warn)
	enc := convert.Guard(hold, out, rep.warn)
	read := false // some input held an event
	cut := false  // an input was cut off
	problem := func(err error) bool {
		cut = cut || errors.Is(err, event.ErrTruncated)
		return rep.problem(err)
	}
	flush := func() error {
		if err := convert.FlushEncoder(enc); err != nil {
			return err
		}
		return w.Flush()
	}
	o.in.flush = flush
	err = eachInput(ctx, ios, &o.in, rep, inputs, func(in *input) error {
		hold.SetSource(in.format.Format)
		hold.SetLive(in.live)
		err := convert.Pipe(in.decoder(), enc, &convert.PipeOptions{Problem: problem})
		read = read || in.count.n > 0
		return readError(err)
	})
	// A stop signal ended the input where it came: a cut, whatever the
	// decoder could tell.
	cut = cut || interrupted(ctx) != nil
	if err == nil && read {
		// The end marker ([DONE], a closing result line) is written only
		// for a stream that was read to its end, and never for nothing
		// (a result line would say an empty or foreign input succeeded):
		// a cut input stays cut in the output.
		if cerr := event.End(enc, cut); cerr != nil {
			if !cut || !errors.Is(cerr, event.ErrTruncated) {
				rep.problem(cerr)
			}
		}
	}
	if ferr := flush(); ferr != nil && err == nil {
		err = failure(ferr)
	}
	if err != nil {
		return err
	}
	if read && written.n == 0 {
		// An error-only run in a model text format, say: exit 0 and
		// nothing written would pass for a run that said nothing.
		rep.problem(fmt.Errorf("nothing the input holds can be written as %s: the output is empty", out.Name))
	}
	return rep.result()
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
