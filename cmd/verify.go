package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"iter"

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
	allowCut     bool
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

A or B may be a directory or glob of session logs (as for assemble): each
stands for its sessions, oldest first, and the runs are compared pair by
pair, in order (both sides must hold as many), with a report per pair.

The two are compared as they are read, holding only what is not matched
yet: past 16384 agents open at once (an agent both sides have gone on from
is compared and let go of), or 16384 blocks (64 MiB) waiting for the other
side's, verify cannot compare them.

A side cut off (it ended without its format's end: no [DONE], message_stop,
result line, ...) is not a whole run: verify says so, and exits 1 even when
the content is equal, unless --allow-cut.

Exit status: 0 equal, 1 different or cut, 2 unreadable input or past a cap. The
fields, the --ignore names and the --json schema are in docs/verify.md.`,
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
	fs.BoolVar(&o.strict, "compare-all", false, "compare the fields one side's format cannot carry too")
	fs.BoolVar(&o.allowCut, "allow-cut", false, "say equal of equal content even when a side was cut off (ended without its format's end)")
	fs.BoolVar(&o.json, "json", false, "write the report as JSON")
	addReadFlags(fs, &o.in, "")
	addSessionFlags(fs, &o.in.sessions)
	addHTTPFlags(fs, &o.in.http)
	return c
}

func runVerify(ctx context.Context, ios *IOStreams, o *verifyOptions, a, b string) error {
	if a == "-" && b == "-" {
		return failure(errors.New("inputs a and b cannot both be stdin"))
	}
	if !source.IsURL(a) && !source.IsURL(b) {
		// Request flags without a URL are a mistake (apply says so).
		if err := o.in.http.apply(ctx, &source.Options{}, nil, []string{a, b}); err != nil {
			return failure(err)
		}
	}
	if err := verify.CheckIgnore(o.ignore); err != nil {
		return failure(fmt.Errorf("--ignore: %w", err))
	}
	runsA, runsB, err := verifyRuns(&o.in, a, b)
	if err != nil {
		return err
	}
	rep := newReporter(ios.Err, false)
	w := bufio.NewWriter(ios.Out)
	var reports []*verify.Report
	for i := range runsA {
		r, err := verifyPair(ctx, ios, o, runsA[i], runsB[i], rep)
		if err != nil {
			return err
		}
		if len(runsA) > 1 && !o.json {
			// One report per pair, as it is done.
			fmt.Fprintf(w, "run %d: %s vs %s\n", i+1, runsA[i], runsB[i])
			if err := verify.WriteText(w, r); err != nil {
				return failure(err)
			}
			if err := w.Flush(); err != nil {
				return failure(err)
			}
		}
		reports = append(reports, r)
	}
	switch {
	case len(reports) == 1 && o.json:
		err = verify.WriteJSON(w, reports[0])
	case len(reports) == 1:
		err = verify.WriteText(w, reports[0])
	case o.json:
		err = verify.WriteRunsJSON(w, reports)
	default:
		err = verify.WriteRunsText(w, reports)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return failure(err)
	}
	for _, r := range reports {
		if !r.Equal {
			return errNo
		}
	}
	return nil
}

// verifyRuns expands A and B (a directory or glob of session logs stands
// for each session in it, oldest first) into the runs compared, paired in
// order: both sides must hold as many.
func verifyRuns(o *inputOptions, a, b string) (runsA, runsB []string, err error) {
	if runsA, err = o.sessions.expand([]string{a}); err != nil {
		return nil, nil, failure(err)
	}
	if runsB, err = o.sessions.expand([]string{b}); err != nil {
		return nil, nil, failure(err)
	}
	if len(runsA) != len(runsB) {
		return nil, nil, failure(fmt.Errorf("%s holds %s, %s %s: runs are compared pair by pair, in order",
			a, runs(len(runsA)), b, runs(len(runsB))))
	}
	return runsA, runsB, nil
}

func runs(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

// verifyPair reads and compares one run of each side, as the two are
// assembled (verify.Stream): it holds only what one side has not matched
// yet, within verify's caps; past one it exits 2, neither equal nor
// different.
func verifyPair(ctx context.Context, ios *IOStreams, o *verifyOptions, a, b string, rep *reporter) (*verify.Report, error) {
	var sides [2]*sideReader
	for i, name := range []string{a, b} {
		from := o.fromA
		if i == 1 {
			from = o.fromB
		}
		sides[i] = readSide(ctx, ios, o, from, name, rep)
		defer sides[i].stop()
		// The first item says the side's format, or that it has none.
		if _, ok := sides[i].pull(rep); !ok && sides[i].err != nil {
			return nil, sides[i].err
		}
	}
	s := verify.NewStream(sides[0].side, sides[1].side, &verify.Options{
		Ignore: o.ignore, Usage: o.usage, Strict: o.strict, AllowCut: o.allowCut,
		MaxAgents: verify.DefaultMaxAgents, MaxHeld: verify.DefaultMaxHeld, MaxHeldBytes: verify.DefaultMaxHeldBytes,
	})
	for k, side := range sides {
		if side.cut {
			s.Cut(k) // (cut before its first block)
		}
	}
	var done [2]bool
	for !done[0] || !done[1] {
		k := s.Next()
		if done[k] {
			k = 1 - k
		}
		bl, ok := sides[k].pull(rep)
		if sides[k].cut {
			s.Cut(k)
		}
		if !ok {
			done[k] = true
			if sides[k].err != nil {
				return nil, sides[k].err
			}
			continue
		}
		if err := s.Add(k, bl); err != nil {
			return nil, failure(err)
		}
	}
	return s.Report(), nil
}

// sideReader gives one side's assembled blocks one by one: a nil block
// first, once side holds its name and format, then its blocks. err is
// why the input could not be read, when next says there is no more.
type sideReader struct {
	side verify.Side
	cut  bool // its reader reported it cut off (event.ErrTruncated)
	err  error
	next func() (*assemble.Block, bool)
	stop func()
}

// pull returns the side's next item, as next does, and notes whether
// its reader said, while reading up to it, that the input was cut off
// (the two sides are read in turn, in this goroutine's steps, so what
// rep is told meanwhile is this side's).
func (r *sideReader) pull(rep *reporter) (*assemble.Block, bool) {
	n := rep.cutCount()
	bl, ok := r.next()
	r.cut = r.cut || rep.cutCount() > n
	return bl, ok
}

// errStopped ends a side's reading when the comparison stops early.
var errStopped = errors.New("stopped")

// readSide reads and assembles one input. Problems in it are reported and
// skipped; what could not be opened or read at all, holds no event of its
// format, or is in another format than --from-a/--from-b says, exits 2:
// verify never answers equal about nothing.
func readSide(ctx context.Context, ios *IOStreams, o *verifyOptions, from, name string, rep *reporter) *sideReader {
	in := o.in
	in.from = from
	in.emptyFails = true
	if !source.IsURL(name) {
		in.http = httpOptions{} // request flags apply to the URL side(s) only
	}
	r := &sideReader{}
	r.next, r.stop = iter.Pull(func(yield func(*assemble.Block) bool) {
		err := eachInput(ctx, ios, &in, rep, []string{name}, func(in *input) error {
			if in.other {
				// Whatever its decoder makes of it, it is not the format
				// given: nothing to compare.
				return failure(fmt.Errorf("%s: not %s input (%s)", in.name, in.format.Name, in.hint))
			}
			r.side = verify.Side{Name: in.name, Format: in.format.Name, Lacks: in.format.Lacks}
			if !yield(nil) {
				return errStopped
			}
			stop := assembleInput(in, rep, nil, false, func(bs []*assemble.Block) error {
				for _, b := range bs {
					if b != nil && !yield(b) {
						return errStopped
					}
				}
				return nil
			})
			if stop != nil && !errors.Is(stop, errStrictStop) {
				return failure(stop)
			}
			return nil
		})
		if !errors.Is(err, errStopped) {
			r.err = err
		}
	})
	return r
}
