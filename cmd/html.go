package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/render"
	"github.com/agentstream/agentstream/render/htmlview"
	"github.com/agentstream/agentstream/usage"
)

// runAssembleHTML writes the inputs as one self-contained HTML page: one
// run a page as it always was, several runs (a directory of session logs,
// several files) one page with an index of the runs at the top and a
// section per run. It is written block by block, each run's section as the
// run is read, flushing whenever the input has nothing more buffered so
// that a page written from a live run can be opened at any time.
func runAssembleHTML(ctx context.Context, ios *IOStreams, o *assembleOptions, inputs []string) error {
	if o.agent != "all" && o.agent != "" {
		return failure(errors.New("--agent is not supported with -o html (the page shows every agent, subagents collapsible)"))
	}
	prices, err := usage.Default()
	if err != nil {
		return failure(err)
	}
	// The page says how many runs it holds before the first is read: a
	// page of several has an index.
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	runs, err := o.in.sessions.expand(inputs)
	if err != nil {
		return failure(err)
	}
	title := inputs[0]
	switch {
	case len(runs) > 1:
		title = fmt.Sprintf("%d runs: %s", len(runs), strings.Join(inputs, ", "))
	case title == "-":
		title = "agent run (stdin)"
	}
	w := bufio.NewWriterSize(ios.Out, 64<<10)
	page := htmlview.NewPage(w, htmlview.PageOptions{Title: title, Runs: len(runs)})
	rep := newReporter(ios.Err, o.in.strict)
	o.in.flush = w.Flush
	err = eachInput(ctx, ios, &o.in, rep, runs, func(in *input) error {
		name, dec := in.name, in.decoder()
		title := name
		if name == "-" {
			title = "agent run (stdin)"
		}
		run := page.Run(htmlview.Options{
			Title: title, NoThinking: o.noThinking, MaxBlockBytes: o.in.maxEventBytes, Prices: prices,
			Verbose: o.verbose, TurnEndsRun: turnEndsRun(in), Agent: in.format.Name, Time: modTime(name),
		})
		return writeView(name, dec, rep, w, run, nil)
	})
	if cerr := page.Close(); err == nil && cerr != nil {
		err = failure(cerr)
	}
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = failure(ferr)
	}
	if err != nil {
		return err
	}
	return rep.result()
}

// modTime is when the file name was last written, for the index of runs
// ("" for stdin, a URL or a file that cannot be read).
func modTime(name string) string {
	if name == "-" || strings.Contains(name, "://") {
		return ""
	}
	st, err := os.Stat(name)
	if err != nil {
		return ""
	}
	return st.ModTime().UTC().Format("2006-01-02 15:04 UTC")
}

// eventView is a view written event by event: the transcript, the HTML
// page.
type eventView interface {
	Event(event.Event) error
	Close() error
}

// writeView writes the events of dec to v, and flushes w at the end (the
// caller's input flushes it whenever it has nothing more buffered, which
// is what makes a live view live: inputOptions.flush); check, when set, may stop the input before an
// event reaches v. A block over the cap, or one closed early because too
// many are open, is reported and the view goes on; what was read is
// written even when the input stopped early, and a truncation the view
// reports on Close is the decoder's to report on stderr.
func writeView(name string, dec event.Decoder, rep *reporter, w *bufio.Writer, v eventView, check func(event.Event) error) error {
	stop := eachEvent(dec, rep, func(ev event.Event) error {
		if check != nil {
			if err := check(ev); err != nil {
				return err
			}
		}
		err := v.Event(ev)
		if errors.Is(err, assemble.ErrBlockTooLarge) || errors.Is(err, assemble.ErrTooManyOpen) || errors.Is(err, htmlview.ErrTooManyAgents) || errors.Is(err, render.ErrTooManyAgents) ||
			errors.Is(err, render.ErrTooManyCalls) {
			if !rep.problem(fmt.Errorf("%s: %w", name, err)) {
				return errStrictStop
			}
			err = nil
		}
		if err != nil {
			return failure(err)
		}
		return nil
	})
	if err := v.Close(); err != nil && !errors.Is(err, event.ErrTruncated) {
		return failure(err)
	}
	if err := w.Flush(); err != nil {
		return failure(err)
	}
	return readError(stop)
}
