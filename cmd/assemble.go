package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/render"
)

type assembleOptions struct {
	in     inputOptions
	output string
	color  colorMode
}

func newAssembleCmd(ios *IOStreams) *cobra.Command {
	o := &assembleOptions{}
	c := &cobra.Command{
		Use:   "assemble [INPUT...]",
		Short: "Print the assembled blocks of agent streams",
		Long: `Assemble reads each INPUT and prints its blocks (text, thinking, tool calls
with their results, metadata) as soon as each is complete: -o text for
people, -o json for one JSON object per block (schema in docs/blocks.md).
A stream cut off mid-block prints what it had, then reports the truncation.`,
		Example: `  agentstream assemble testdata/jsonenv/tooluse.sse
  agentstream assemble -o json < run.sse | jq -r 'select(.type=="text").text'`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			return runAssemble(c.Context(), ios, o, args)
		},
	}
	fs := c.Flags()
	addInputFlags(fs, &o.in)
	fs.StringVarP(&o.output, "output", "o", "text", "output: text or json")
	addColorFlag(fs, &o.color)
	return c
}

// blockWriter is what the renderers implement.
type blockWriter interface {
	Block(*assemble.Block) error
}

func runAssemble(ctx context.Context, ios *IOStreams, o *assembleOptions, inputs []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	w := bufio.NewWriterSize(ios.Out, 64<<10)
	var bw blockWriter
	switch o.output {
	case "text":
		bw = render.NewText(w, render.NewStyles(o.color.enabled(ios)))
	case "json":
		bw = render.NewJSON(w)
	default:
		return failure(fmt.Errorf("-o must be text or json, not %q", o.output))
	}
	rep := newReporter(ios.Err, o.in.strict)
	err := eachInput(ctx, ios, &o.in, rep, inputs, func(name string, _ convert.Format, dec event.Decoder) error {
		asm := assemble.New(o.in.maxEventBytes)
		write := func(bs []*assemble.Block) error {
			for _, b := range bs {
				if err := bw.Block(b); err != nil {
					return err
				}
			}
			return w.Flush()
		}
		var stop error
		for {
			ev, err := dec.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				var perr *event.ParseError
				if errors.As(err, &perr) {
					if !rep.problem(err) {
						stop = err
						break
					}
					continue
				}
				stop = err
				break
			}
			bs, aerr := asm.Add(ev)
			if aerr != nil && !rep.problem(fmt.Errorf("%s: %w", name, aerr)) {
				stop = aerr
			}
			if err := write(bs); err != nil {
				return failure(err)
			}
			if stop != nil {
				break
			}
		}
		// What was assembled is printed even when the input stopped early.
		if err := write(asm.Flush()); err != nil {
			return failure(err)
		}
		return readError(stop)
	})
	if err != nil {
		return err
	}
	return rep.result()
}
