package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/source"
)

// inputOptions are the flags of every command that reads INPUT.
type inputOptions struct {
	from          string
	strict        bool
	maxEventBytes int
	agent         string
	xmlEscaping   string
	tools         toolsOptions
	source        source.Options
	http          httpOptions
	// open opens an input (source.Open when nil): replay --to reads its
	// recording through it.
	open func(ctx context.Context, name string, opts *source.Options) (io.ReadCloser, error)
	// flush, when set, writes out the command's buffered output; it is
	// called whenever the input has nothing more buffered (see
	// convert.FlushOnIdle).
	flush func() error
}

func addInputFlags(fs *pflag.FlagSet, o *inputOptions) {
	fs.StringVarP(&o.from, "from", "f", "auto", "input format (auto detects it; see 'agentstream formats')")
	fs.BoolVar(&o.strict, "strict", false, "stop at the first problem in the input (exit 2)")
	fs.IntVar(&o.maxEventBytes, "max-event-bytes", event.DefaultMaxBytes, "cap on one SSE message, NDJSON line or block, in bytes")
	fs.StringVar(&o.agent, "agent", "", "agent id for sources that carry none")
	fs.StringVar(&o.xmlEscaping, "xml-escaping", "auto", "xml input: escaping generation (auto, none, newline, full)")
	addToolsFlags(fs, &o.tools)
	addHTTPFlags(fs, &o.http)
}

// decodeOptions returns the convert options for reading input name.
func (o *inputOptions) decodeOptions(name string, warn func(error)) *convert.Options {
	co := &convert.Options{
		Source: name, MaxEventBytes: o.maxEventBytes, Agent: o.agent,
		XMLEscaping: o.xmlEscaping, Warn: warn, StopAtDone: source.IsURL(name),
	}
	o.tools.apply(co)
	return co
}

// eachInput opens each input in turn (stdin when there are none), finds
// its format and calls fn with a decoder over it. Inputs that cannot be
// opened or detected stop the command (exit 2).
func eachInput(ctx context.Context, ios *IOStreams, o *inputOptions, rep *reporter, inputs []string,
	fn func(name string, f convert.Format, dec event.Decoder) error,
) error {
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	if o.maxEventBytes <= 0 {
		return failure(fmt.Errorf("--max-event-bytes must be positive, not %d", o.maxEventBytes))
	}
	switch o.xmlEscaping {
	case "auto", "none", "newline", "full":
	default:
		return failure(fmt.Errorf("--xml-escaping must be auto, none, newline or full, not %q", o.xmlEscaping))
	}
	if o.from != "auto" {
		f, ok := convert.Lookup(o.from)
		if !ok || f.NewDecoder == nil {
			return failure(fmt.Errorf("unknown input format %q (one of %s)", o.from, strings.Join(convert.Names(true), ", ")))
		}
	}
	if err := o.tools.check(); err != nil {
		return failure(err)
	}
	sopts := o.source
	sopts.Stdin = ios.In
	sopts.MaxEventBytes = o.maxEventBytes
	if err := o.http.apply(&sopts, ios.In, inputs); err != nil {
		return failure(err)
	}
	// An input that cannot be opened or detected is reported and the next
	// one read (so one missing file does not hide the others); the
	// command still ends with exit 2. --strict stops there.
	unreadable := false
	for _, name := range inputs {
		err := readInput(ctx, o, &sopts, rep, name, fn)
		var ue *unreadableError
		switch {
		case errors.As(err, &ue) && !o.strict && len(inputs) > 1:
			rep.note("%v", ue.err)
			unreadable = true
		case err != nil:
			return err
		}
	}
	if unreadable {
		return &exitError{code: ExitFailure}
	}
	return nil
}

// unreadableError is an input that could not be opened or whose format
// could not be found.
type unreadableError struct{ err error }

func (e *unreadableError) Error() string { return e.err.Error() }

func unreadable(err error) error {
	return &exitError{code: ExitFailure, err: &unreadableError{err}}
}

func readInput(ctx context.Context, o *inputOptions, sopts *source.Options, rep *reporter, name string,
	fn func(name string, f convert.Format, dec event.Decoder) error,
) error {
	open := o.open
	if open == nil {
		open = source.Open
	}
	so := *sopts
	so.Warn = func(msg string) { rep.note("%s", msg) }
	rc, err := open(ctx, name, &so)
	if err != nil {
		return unreadable(err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(convert.FlushOnIdle(rc, o.flush), 64<<10)
	var f convert.Format
	if o.from == "auto" {
		var guessed bool
		f, guessed, err = convert.Detect(br)
		if err != nil {
			return unreadable(withName(name, err))
		}
		if guessed {
			rep.note("%s: guessed input format %s (use --from to choose)", name, f.Name)
		}
	} else {
		f, _ = convert.Lookup(o.from)
	}
	co := o.decodeOptions(name, rep.warn)
	dec, err := o.tools.wrap(f, f.NewDecoder(br, co), co)
	if err != nil {
		return failure(fmt.Errorf("%s: %w", name, err))
	}
	return fn(name, f, dec)
}

// withName prefixes err with the input's name, unless err names it
// already: a URL's errors name their request ("GET URL: ...").
func withName(name string, err error) error {
	var se *source.StreamError
	var he *source.HTTPError
	if errors.As(err, &se) || errors.As(err, &he) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// readError turns a fatal decoder error into the command's error.
func readError(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	var perr *event.ParseError
	if errors.As(err, &perr) {
		return &exitError{code: ExitFailure} // already reported; --strict stop
	}
	if errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return failure(err)
}
