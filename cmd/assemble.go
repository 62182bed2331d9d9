package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/render"
)

type assembleOptions struct {
	in     inputOptions
	output string
	color  colorMode
	// live: nil decides from the terminal.
	live           *bool
	agent          string
	maxOutputLines int
	full           bool
	noThinking     bool
}

func newAssembleCmd(ios *IOStreams) *cobra.Command {
	o := &assembleOptions{}
	var live bool
	c := &cobra.Command{
		Use:   "assemble [INPUT...]",
		Short: "Print agent streams as a readable transcript, or as assembled blocks",
		Long: `Assemble reads each INPUT and prints it as a transcript (-o text, the
default, or -o markdown) or as one JSON object per assembled block (-o json,
schema in docs/blocks.md).

The transcript shows text and thinking, tool calls by what they do (shell
commands, file edits as diffs, reads, writes, todo lists, searches, MCP
calls) with each result under its call, subagents nested under the call
that started them, notices, and a summary of the run.

On a terminal, or with --live, text and thinking appear as they stream and
every other block as soon as it is complete; subagent output is indented
where it arrives. Otherwise whole blocks are printed, and a subagent's
output waits until the call that started it has its result, so that it
prints nested under that call (docs/assemble.md).

A stream cut off mid-block prints what it had, then reports the truncation.`,
		Example: `  agentstream assemble testdata/jsonenv/tooluse.sse
  agentstream assemble --agent main --no-thinking run.jsonl
  agentstream assemble -o markdown run.jsonl > run.md
  agentstream assemble -o json < run.sse | jq -r 'select(.type=="text").text'`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			if c.Flags().Changed("live") {
				o.live = &live
			}
			return runAssemble(c.Context(), ios, o, args)
		},
	}
	fs := c.Flags()
	addAssembleInputFlags(fs, &o.in)
	fs.StringVarP(&o.output, "output", "o", "text", "output: text, markdown or json")
	fs.BoolVar(&live, "live", false, "stream text as it arrives (default: when stdout is a terminal)")
	fs.StringVar(&o.agent, "agent", "all", "agents to show: all, main, or an agent id (or id prefix)")
	fs.IntVar(&o.maxOutputLines, "max-output-lines", render.DefaultMaxOutputLines, "lines of tool output shown (first and last halves)")
	fs.BoolVar(&o.full, "full", false, "show all tool output and whole lines")
	fs.BoolVar(&o.noThinking, "no-thinking", false, "hide thinking")
	addColorFlag(fs, &o.color)
	return c
}

// addAssembleInputFlags adds the input flags, with the input one named
// --agent renamed --default-agent: on assemble, --agent filters the agents
// shown, which is what people reading a transcript reach for.
func addAssembleInputFlags(fs *pflag.FlagSet, o *inputOptions) {
	in := pflag.NewFlagSet("input", pflag.ContinueOnError)
	addInputFlags(in, o)
	in.VisitAll(func(f *pflag.Flag) {
		if f.Name == "agent" {
			g := *f
			g.Name = "default-agent"
			f = &g
		}
		fs.AddFlag(f)
	})
}

func runAssemble(ctx context.Context, ios *IOStreams, o *assembleOptions, inputs []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	switch o.output {
	case "text", "markdown", "md":
	case "json":
		return runAssembleJSON(ctx, ios, o, inputs)
	default:
		return failure(fmt.Errorf("-o must be text, markdown or json, not %q", o.output))
	}
	if o.maxOutputLines <= 0 {
		return failure(fmt.Errorf("--max-output-lines must be at least 1"))
	}
	w := bufio.NewWriterSize(ios.Out, 64<<10)
	ropts := render.Options{
		Live:           ios.OutTTY,
		Agent:          o.agent,
		MaxOutputLines: o.maxOutputLines,
		Full:           o.full,
		NoThinking:     o.noThinking,
		Width:          termWidth(ios),
		Styles:         render.NewStyles(o.color.enabled(ios)),
		Markdown:       o.output != "text",
		MaxBlockBytes:  o.in.maxEventBytes,
	}
	if o.live != nil {
		ropts.Live = *o.live
	}
	rep := newReporter(ios.Err, o.in.strict)
	err := eachInput(ctx, ios, &o.in, rep, inputs, func(name string, _ convert.Format, dec event.Decoder) error {
		tr := render.NewTranscript(w, ropts)
		// The transcript keeps state per open block and cannot close one
		// early: beyond the cap it stops, with what it had printed.
		limit := assemble.NewOpenLimit(0)
		stop := eachEvent(dec, rep, func(ev event.Event) error {
			if err := limit.Add(ev); err != nil {
				return failure(fmt.Errorf("%s: %w; the transcript stops here (-o json closes the oldest early and goes on)", name, err))
			}
			err := tr.Event(ev)
			if errors.Is(err, assemble.ErrBlockTooLarge) {
				if !rep.problem(fmt.Errorf("%s: %w", name, err)) {
					return errStrictStop
				}
				err = nil
			}
			if err != nil {
				return failure(err)
			}
			// Flush after every event: this is what makes --live live.
			if err := w.Flush(); err != nil {
				return failure(err)
			}
			return nil
		})
		// What was read is printed even when the input stopped early. A
		// truncation Close reports is shown in the transcript, and the
		// decoder reports it on stderr.
		if err := tr.Close(); err != nil && !errors.Is(err, event.ErrTruncated) {
			return failure(err)
		}
		if err := w.Flush(); err != nil {
			return failure(err)
		}
		return readError(stop)
	})
	if err != nil {
		return err
	}
	return rep.result()
}

// errStrictStop ends a command that --strict stopped at a problem it has
// already reported (exit 2).
var errStrictStop = &exitError{code: ExitFailure}

// eachEvent calls fn with each event of dec, through convert.Pipe: parse
// errors are reported and skipped (stopping with --strict); it returns the
// error that stopped the input early, or nil at a clean end.
func eachEvent(dec event.Decoder, rep *reporter, fn func(event.Event) error) error {
	return convert.Pipe(dec, eventFunc(fn), nil, rep.problem)
}

// eventFunc is an event.Encoder that hands each event to a function.
type eventFunc func(event.Event) error

func (f eventFunc) Encode(ev event.Event) error { return f(ev) }
func (eventFunc) Close() error                  { return nil }

func runAssembleJSON(ctx context.Context, ios *IOStreams, o *assembleOptions, inputs []string) error {
	w := bufio.NewWriterSize(ios.Out, 64<<10)
	bw := render.NewJSON(w)
	rep := newReporter(ios.Err, o.in.strict)
	err := eachInput(ctx, ios, &o.in, rep, inputs, func(name string, _ convert.Format, dec event.Decoder) error {
		asm := assemble.New(o.in.maxEventBytes)
		keep := newAgentFilter(o.agent)
		write := func(bs []*assemble.Block) error {
			for _, b := range bs {
				if !keep.block(b) {
					continue
				}
				if err := bw.Block(b); err != nil {
					return err
				}
			}
			return w.Flush()
		}
		stop := eachEvent(dec, rep, func(ev event.Event) error {
			keep.event(ev)
			bs, aerr := asm.Add(ev)
			var stop error
			if aerr != nil && !rep.problem(fmt.Errorf("%s: %w", name, aerr)) {
				stop = errStrictStop
			}
			if err := write(bs); err != nil {
				return failure(err)
			}
			return stop
		})
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

// agentFilter is --agent for -o json: all, main (the first agent started
// without a parent, or else the first agent seen), or an id or id prefix.
type agentFilter struct {
	want    string
	main    string
	hasMain bool
	mainSet bool
}

func newAgentFilter(want string) *agentFilter { return &agentFilter{want: want} }

func (f *agentFilter) event(ev event.Event) {
	if !f.hasMain {
		f.main, f.hasMain = ev.AgentID(), true
	}
	if s, ok := ev.(*event.SessionStart); ok && s.ParentAgent == "" && !f.mainSet {
		f.main, f.mainSet = s.Agent, true
	}
}

func (f *agentFilter) block(b *assemble.Block) bool {
	switch f.want {
	case "", "all":
		return true
	case "main":
		return b.Agent == f.main
	}
	return b.Agent == f.want || (b.Agent != "" && strings.HasPrefix(b.Agent, f.want))
}
