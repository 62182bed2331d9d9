package cmd

import (
	"bufio"
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/textlist"
	"github.com/agentstream/agentstream/render"
	"github.com/agentstream/agentstream/usage"
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
	verbose        bool
	follow         followOptions
}

func newAssembleCmd(ios *IOStreams) *cobra.Command {
	o := &assembleOptions{}
	var live bool
	c := &cobra.Command{
		Use:   "assemble [INPUT...]",
		Short: "Print agent streams as a readable transcript, or as assembled blocks",
		Long: `Assemble reads each INPUT and prints it as a transcript (-o text, the
default, or -o markdown) or as one JSON object per assembled block (-o json,
schema in docs/blocks.md). A directory or glob INPUT reads every session log
in it (Claude Code's ~/.claude/projects/..., Codex's ~/.codex/sessions/...),
oldest first, each its own run, subagent transcripts inside their parent;
--since, --until and --session select.

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
  agentstream assemble -o json < run.sse | jq -r 'select(.type=="text").text'
  agentstream assemble --since 24h ~/.claude/projects/-home-me-src-app/
  agentstream assemble -o html run.jsonl > run.html
  agentstream assemble -o html ~/.codex/sessions/ > runs.html
  agentstream assemble -o html -F --until-end live.jsonl > live.html`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			if c.Flags().Changed("live") {
				o.live = &live
			}
			return runAssemble(c.Context(), ios, o, args)
		},
	}
	fs := c.Flags()
	addInputFlags(fs, &o.in)
	fs.StringVarP(&o.output, "output", "o", "text", "output: text, markdown, json or html (one self-contained page of every run, docs/assemble.md)")
	fs.BoolVar(&live, "live", false, "stream text as it arrives (default: when stdout is a terminal)")
	fs.StringVar(&o.agent, "agent", "all", "agents to show: all, main, or an agent id (or id prefix)")
	fs.IntVar(&o.maxOutputLines, "max-output-lines", render.DefaultMaxOutputLines, "lines of tool output shown (first and last halves)")
	fs.BoolVar(&o.full, "full", false, "show all tool output and whole lines")
	fs.BoolVar(&o.noThinking, "no-thinking", false, "hide thinking")
	fs.BoolVar(&o.verbose, "verbose", false, "text, markdown and html: show the producers' bookkeeping lines too (queued prompts, skill listings, thinking token counts, Codex's world state; docs/assemble.md)")
	addColorFlag(fs, &o.color)
	o.in.follow = &o.follow
	addFollowFlags(fs, &o.follow)
	return c
}

func runAssemble(ctx context.Context, ios *IOStreams, o *assembleOptions, inputs []string) error {
	ctx, stop, err := o.follow.start(ctx, inputs)
	if err != nil {
		return err
	}
	defer stop()
	switch o.output {
	case "text", "markdown", "md":
	case "json":
		return runAssembleJSON(ctx, ios, o, inputs)
	case "html":
		return runAssembleHTML(ctx, ios, o, inputs)
	default:
		return failure(fmt.Errorf("-o must be text, markdown, json or html, not %q", o.output))
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
		Verbose:        o.verbose,
	}
	// The summary line prices the run as `agentstream usage` does.
	if ropts.Prices, err = usage.Default(); err != nil {
		return failure(err)
	}
	if o.live != nil {
		ropts.Live = *o.live
	}
	rep := newReporter(ios.Err, o.in.strict)
	o.in.flush = w.Flush
	err = eachInput(ctx, ios, &o.in, rep, inputs, func(in *input) error {
		name := in.name
		// The transcript keeps state per open block and cannot close one
		// early: beyond the cap it stops, with what it had printed.
		limit := assemble.NewOpenLimit(0)
		ropts := ropts
		ropts.TurnEndsRun = turnEndsRun(in)
		tr := render.NewTranscript(w, ropts)
		err := writeView(name, in.decoder(), rep, w, tr, func(ev event.Event) error {
			if err := limit.Add(ev); err != nil {
				return failure(fmt.Errorf("%s: %w; the transcript stops here (-o json closes the oldest early and goes on)", name, err))
			}
			return nil
		})
		if err == nil {
			noAgentMatched(rep, name, o.agent, tr.Agents())
		}
		return err
	})
	if err != nil {
		return err
	}
	return rep.result()
}

// turnEndsRun reports whether the format of in has no run end, so that an
// agent's last turn, ended, ends its run (Codex exec, a raw API response).
func turnEndsRun(in *input) bool { return slices.Contains(in.format.Lacks, format.MetaFinal) }

// errStrictStop ends a command that --strict stopped at a problem it has
// already reported (exit 2).
var errStrictStop = &exitError{code: ExitFailure}

// eachEvent calls fn with each event of dec, through convert.Pipe: parse
// errors are reported and skipped (stopping with --strict); it returns the
// error that stopped the input early, or nil at a clean end.
func eachEvent(dec event.Decoder, rep *reporter, fn func(event.Event) error) error {
	return convert.Pipe(dec, eventFunc(fn), &convert.PipeOptions{Problem: rep.problem})
}

// eventFunc is an event.Encoder that hands each event to a function.
type eventFunc func(event.Event) error

func (f eventFunc) Encode(ev event.Event) error { return f(ev) }
func (eventFunc) Close() error                  { return nil }

func runAssembleJSON(ctx context.Context, ios *IOStreams, o *assembleOptions, inputs []string) error {
	w := bufio.NewWriterSize(ios.Out, 64<<10)
	bw := render.NewJSON(w)
	rep := newReporter(ios.Err, o.in.strict)
	// Output goes out when the input has nothing more buffered: at once
	// on a live pipe, in large writes from a file.
	o.in.flush = w.Flush
	err := eachInput(ctx, ios, &o.in, rep, inputs, func(in *input) error {
		keep := render.NewAgentFilter(o.agent)
		seen, all := keep.Event, keep.All()
		if all {
			seen = nil // it shows every block and has no agent to look for
		}
		// Each block is written before the next event: the assembler may
		// reuse them.
		stop := assembleInput(in, rep, seen, true, func(bs []*assemble.Block) error {
			for _, b := range bs {
				if !all && !keep.Shows(b.Agent) {
					continue
				}
				if err := bw.Block(b); err != nil {
					return failure(err)
				}
			}
			return nil
		})
		if err := w.Flush(); err != nil {
			return failure(err)
		}
		if stop == nil {
			noAgentMatched(rep, in.name, o.agent, keep)
		}
		return readError(stop)
	})
	if err != nil {
		return err
	}
	return rep.result()
}

// noAgentMatched reports an --agent that matched no agent of the input.
func noAgentMatched(rep *reporter, name, want string, f *render.AgentFilter) {
	if f.Matched() || len(f.Seen()) == 0 {
		return
	}
	ids := make([]string, 0, len(f.Seen()))
	for _, id := range f.Seen() {
		ids = append(ids, fmt.Sprintf("%q", id))
	}
	rep.problem(fmt.Errorf("%s: no agent matched --agent %s (agents: %s)", name, want, textlist.Join(ids, ", ")))
}

// assembleInput reads the events of in through eachEvent and assembles
// them, calling seen with each event and write with each group of blocks
// as it completes (valid only during the call when reuse is set:
// assemble.Assembler.Reuse); what was assembled is written even when the
// input stopped early. It returns what stopped the input, or nil.
func assembleInput(in *input, rep *reporter, seen func(event.Event), reuse bool, write func([]*assemble.Block) error) error {
	asm := assemble.New(in.o.maxEventBytes)
	asm.Reuse = reuse
	stop := eachEvent(in.decoder(), rep, func(ev event.Event) error {
		if seen != nil {
			seen(ev)
		}
		bs, aerr := asm.Add(ev)
		var stop error
		if aerr != nil && !rep.problem(fmt.Errorf("%s: %w", in.name, aerr)) {
			stop = errStrictStop
		}
		if len(bs) > 0 {
			if err := write(bs); err != nil {
				return err
			}
		}
		return stop
	})
	if err := write(asm.Flush()); err != nil {
		return err
	}
	return stop
}
