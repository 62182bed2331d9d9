package cmd

import (
	"bufio"
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/source"
	"github.com/agentstream/agentstream/verify"
)

type verifyOptions struct {
	fromA, fromB string
	ignore       []string
	usage        bool
	strict       bool
	json         bool
	in           inputOptions // how to read each side (not --from)
}

func newVerifyCmd(ios *IOStreams) *cobra.Command {
	o := &verifyOptions{}
	c := &cobra.Command{
		Use:   "verify A B",
		Short: "Check that two agent streams carry the same content",
		Long: `Verify reads streams A and B, in any formats, assembles them and compares
their content per agent, in order: text, thinking, tool calls (input as
JSON values), tool results, citations, errors, file lists and the final
stop reason. Transport never matters: chunking, escaping, framing, key
order. Fields one side's format cannot carry are not compared (the report
says so) unless --strict.

Exit status: 0 equal, 1 different, 2 unreadable input. The fields, the
--ignore names and the --json schema are in docs/verify.md.`,
		Example: `  agentstream verify legacy.sse envelope.sse
  agentstream verify --ignore ids,thinking --json a.sse b.jsonl`,
		Args: usageArgs(cobra.ExactArgs(2)),
		RunE: func(c *cobra.Command, args []string) error {
			return runVerify(c.Context(), ios, o, args[0], args[1])
		},
	}
	fs := c.Flags()
	fs.StringVar(&o.fromA, "from-a", "auto", "format of A (auto detects it; see 'agentstream formats')")
	fs.StringVar(&o.fromB, "from-b", "auto", "format of B")
	fs.StringSliceVar(&o.ignore, "ignore", nil, "do not compare these: ids, agent-ids, thinking, whitespace, meta, or a field name")
	fs.BoolVar(&o.usage, "usage", false, "compare token usage and cost too")
	fs.BoolVar(&o.strict, "strict", false, "compare the fields one side's format cannot carry too")
	fs.BoolVar(&o.json, "json", false, "write the report as JSON")
	addReadFlags(fs, &o.in, "")
	addHTTPFlags(fs, &o.in.http)
	return c
}

func runVerify(ctx context.Context, ios *IOStreams, o *verifyOptions, a, b string) error {
	if a == "-" && b == "-" {
		return failure(errors.New("inputs a and b cannot both be stdin"))
	}
	if !source.IsURL(a) && !source.IsURL(b) {
		// Request flags without a URL are a mistake (apply says so).
		if err := o.in.http.apply(&source.Options{}, nil, []string{a, b}); err != nil {
			return failure(err)
		}
	}
	if err := verify.CheckIgnore(o.ignore); err != nil {
		return failure(err)
	}
	rep := newReporter(ios.Err, false)
	sa, err := readSide(ctx, ios, o, o.fromA, a, rep)
	if err != nil {
		return err
	}
	sb, err := readSide(ctx, ios, o, o.fromB, b, rep)
	if err != nil {
		return err
	}
	r := verify.Compare(sa, sb, &verify.Options{Ignore: o.ignore, Usage: o.usage, Strict: o.strict})
	w := bufio.NewWriter(ios.Out)
	if o.json {
		err = verify.WriteJSON(w, r)
	} else {
		err = verify.WriteText(w, r)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return failure(err)
	}
	if !r.Equal {
		return errNo
	}
	return nil
}

// readSide reads and assembles one input. Problems in it are reported and
// skipped; what could not be opened or read at all, or holds no event of
// its format, exits 2: verify never answers equal about nothing.
func readSide(ctx context.Context, ios *IOStreams, o *verifyOptions, from, name string, rep *reporter) (verify.Side, error) {
	in := o.in
	in.from = from
	in.emptyFails = true
	if !source.IsURL(name) {
		in.http = httpOptions{} // request flags apply to the URL side(s) only
	}
	var side verify.Side
	err := eachInput(ctx, ios, &in, rep, []string{name}, func(in *input) error {
		side = verify.Side{Name: in.name, Format: in.format.Name, Lacks: in.format.Lacks}
		stop := assembleInput(in, rep, nil, func(bs []*assemble.Block) error {
			side.Blocks = append(side.Blocks, bs...)
			return nil
		})
		if stop != nil && !errors.Is(stop, errStrictStop) {
			return failure(stop)
		}
		return nil
	})
	return side, err
}
