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
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/source"
	"github.com/agentstream/agentstream/source/sessions"
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
	follow        *followOptions // --follow, on the commands that have it
	http          httpOptions
	sessions      sessionOptions
	// fs is where the flags were defined, to tell which were given.
	fs *pflag.FlagSet
	// writes is the output format, whose options the input flags may
	// set too (--nonce for an output format that uses it).
	writes []convert.Format
	// emptyFails makes an input with no event of its format fail the
	// command (exit 2, verify) rather than be a problem (exit 1).
	emptyFails bool
	// onEmpty, when set, is told of such an input instead (validate).
	onEmpty func(e *emptyError) error
	// open opens an input (source.Open when nil): replay --to reads its
	// recording through it.
	open func(ctx context.Context, name string, opts *source.Options) (io.ReadCloser, error)
	// live says the input opened arrives as it is played (replay --to
	// with its timing), whatever the file it is read from.
	live bool
	// flush, when set, writes out the command's buffered output; it is
	// called whenever a live input has nothing more buffered (see
	// convert.FlushOnIdle).
	flush func() error
}

func addInputFlags(fs *pflag.FlagSet, o *inputOptions) {
	fs.StringVarP(&o.from, "from", "f", "auto", "input format (auto detects it; see 'agentstream formats')")
	fs.BoolVar(&o.strict, "strict", false, "stop at the first problem in the input (exit 2)")
	// --agent selects the agents shown or counted (assemble, usage);
	// this names the agent of a source that names none.
	fs.StringVar(&o.agent, "default-agent", "", "agent id for sources that carry none")
	addReadFlags(fs, o, "")
	addHTTPFlags(fs, &o.http)
	addSessionFlags(fs, &o.sessions)
}

// addReadFlags adds the flags that say how to read an input in its format.
func addReadFlags(fs *pflag.FlagSet, o *inputOptions, prefix string) {
	o.fs = fs
	addMaxEventBytesFlag(fs, &o.maxEventBytes, prefix)
	addXMLEscapingFlag(fs, &o.xmlEscaping, prefix)
	addToolsFlags(fs, &o.tools)
}

// check checks the flags' values before any input is read.
func (o *inputOptions) check() error {
	if err := checkMaxEventBytes(o.maxEventBytes); err != nil {
		return err
	}
	if err := checkXMLEscaping(o.xmlEscaping); err != nil {
		return err
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
	return nil
}

// checkFormat rejects the input flags that f, the output format and the
// --tools-protocol all ignore.
func (o *inputOptions) checkFormat(f convert.Format) error {
	fs := append([]convert.Format{f}, o.writes...)
	if p, ok := convert.Lookup(o.tools.protocol); ok {
		fs = append(fs, p)
	}
	role := "--from " + f.Name
	if len(o.writes) > 0 {
		role += " --to " + o.writes[0].Name
	}
	return checkUses(changedIn(o.fs), role, fs, format.OptXMLEscaping, format.OptTools, format.OptNonce)
}

// decodeOptions returns the convert options for reading input name.
func (o *inputOptions) decodeOptions(name string, warn func(error)) *format.Options {
	co := &format.Options{
		Source: name, MaxEventBytes: o.maxEventBytes, Agent: o.agent,
		XMLEscaping: o.xmlEscaping, Warn: warn, StopAtDone: source.IsURL(name),
	}
	o.tools.apply(co)
	co.Subagent = sessions.Subagents(name)
	return co
}

// input is one opened input whose format is known.
type input struct {
	name   string
	format convert.Format
	r      *bufio.Reader // the input, from its first byte
	opts   *format.Options
	o      *inputOptions
	hint   string // what the input looks like, when not its format
	// foreign: the input's head is another format's, which the forced
	// format's own detection rejects.
	foreign bool
	// other: detection, which tries the formats that share a shape in
	// order (a session log before stream-json), says the input is in
	// another format than the one forced.
	other bool
	count *countingDecoder
	// live: a read may wait for data not yet arrived (source.Live, or
	// a file followed with -F).
	live bool
}

// newDecoder returns the input format's decoder over r (the input, or
// what a checker hands on of it), read in the --tools-protocol if given.
func (in *input) newDecoder(r io.Reader) event.Decoder {
	dec := in.format.NewDecoder(r, in.opts)
	if in.o.tools.protocol != "" {
		p, _ := convert.Lookup(in.o.tools.protocol)
		dec = p.Wrap(dec, in.opts)
	}
	return dec
}

// decoder returns the decoder over the input. It counts the events of the
// format it yields, so that an input holding none is reported.
func (in *input) decoder() event.Decoder {
	in.count = &countingDecoder{dec: in.o.follow.decoder(in.newDecoder(in.r), in.format)}
	return in.count
}

// countingDecoder counts the events its decoder yields that are of the
// format read (not event.Unknown).
type countingDecoder struct {
	dec event.Decoder
	n   int
}

func (c *countingDecoder) Next() (event.Event, error) {
	ev, err := c.dec.Next()
	if _, unknown := ev.(*event.Unknown); err == nil && !unknown {
		c.n++
	}
	return ev, err
}

// emptyError is an input that holds no event of the format read.
type emptyError struct {
	name, format, hint string
}

func (e *emptyError) Error() string {
	if e.format == "" {
		return e.name + ": " + e.hint
	}
	return fmt.Sprintf("%s: no %s event in the input (%s)", e.name, e.format, e.hint)
}

// eachInput opens each input in turn (stdin when there are none), finds
// its format and calls fn with it. Inputs that cannot be opened or
// detected stop the command (exit 2); an input that holds no event of its
// format is a problem (exit 1), or a failure with emptyFails.
func eachInput(ctx context.Context, ios *IOStreams, o *inputOptions, rep *reporter, inputs []string,
	fn func(in *input) error,
) error {
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	inputs, err := o.sessions.expand(inputs)
	if err != nil {
		return failure(err)
	}
	if err := o.check(); err != nil {
		return err
	}
	sopts := o.source
	sopts.Stdin = ios.In
	sopts.MaxEventBytes = o.maxEventBytes
	if err := o.http.apply(ctx, &sopts, ios.In, inputs); err != nil {
		return failure(err)
	}
	// An input that cannot be opened or detected is reported and the next
	// one read (so one missing file does not hide the others); the
	// command still ends with exit 2. --strict stops there.
	unreadable := false
	for _, name := range inputs {
		err := readInput(ctx, o, &sopts, rep, name, fn)
		var ue *unreadableError
		var ee *emptyError
		switch {
		case errors.As(err, &ee) && o.emptyFails:
			return failure(ee)
		case errors.As(err, &ee) && o.onEmpty != nil:
			if err := o.onEmpty(ee); err != nil {
				return err
			}
		case errors.As(err, &ee):
			if !rep.problem(ee) {
				return errStrictStop
			}
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
	fn func(in *input) error,
) error {
	open := o.open
	if open == nil {
		open = o.follow.opener()
	}
	so := *sopts
	so.Warn = func(msg string) { rep.note("%s", msg) }
	rc, err := open(ctx, name, &so)
	if err != nil {
		return unreadable(err)
	}
	defer rc.Close()
	var r io.Reader = rc
	if o.follow == nil || !o.follow.on {
		// -F ends at a stop signal as tail -F does; anything else ends
		// there as a cut input.
		r = &stopReader{ctx: ctx, r: rc, name: name, rep: rep}
	}
	// The output is flushed whenever a live input has nothing more
	// buffered (convert.FlushOnIdle). A regular file never makes the
	// program wait for more: its output leaves in full buffers, and what
	// remains of it at the end or before the next input's first read.
	live := o.live || (o.follow != nil && o.follow.on) || source.Live(name, sopts.Stdin)
	flush := o.flush
	if !live {
		flush = nil
	}
	br := bufio.NewReaderSize(convert.FlushOnIdle(r, flush), 64<<10)
	// Detection reads only the first unit, which stays in br.
	detected, guessed, derr := convert.Detect(br)
	in := &input{name: name, r: br, o: o, live: live}
	var unknown *convert.UnknownError
	switch {
	case errors.Is(derr, convert.ErrEmpty):
		in.hint = "the input is empty"
	case errors.As(derr, &unknown) && unknown.Looks != "":
		in.hint = "it looks like " + unknown.Looks
	case errors.Is(derr, convert.ErrUnknownFormat):
		in.hint = "it is in none of the formats agentstream reads"
	case derr != nil:
		return unreadable(withName(name, derr))
	}
	if o.from == "auto" {
		switch {
		case errors.Is(derr, convert.ErrEmpty):
			return &emptyError{name: name, hint: in.hint}
		case errors.Is(derr, convert.ErrUnknownFormat):
			return unreadable(fmt.Errorf("%s: %w (use --from: one of %s)", name, derr, strings.Join(convert.Names(true), ", ")))
		case derr != nil:
			return unreadable(withName(name, derr))
		case guessed:
			rep.note("%s: guessed input format %s (use --from to choose)", name, detected.Name)
		}
		in.format = detected
	} else {
		in.format, _ = convert.Lookup(o.from)
		if o.tools.protocol != "" && in.format.Wrap != nil {
			return failure(fmt.Errorf("%s: --tools-protocol reads the text blocks of another format; the input is already %s", name, in.format.Name))
		}
		if derr == nil && detected.Name != in.format.Name {
			in.hint = fmt.Sprintf("it looks like %s: try --from %s", detected.Name, detected.Name)
			in.other = !guessed
			if in.format.Wrap != nil && !guessed {
				// Model text formats read any text: a stream of another
				// format would pass as text.
				return &emptyError{name: name, format: in.format.Name, hint: in.hint + fmt.Sprintf(", or --tools-protocol %s to read its text blocks", in.format.Name)}
			}
			if !guessed && in.format.Detect != nil && !convert.Accepts(br, in.format) {
				// A decoder may read another format's lines as its own
				// (the Claude session log and stream-json share line
				// types): the head says which it is.
				in.foreign = true
			}
		} else if errors.Is(derr, convert.ErrUnknownFormat) && in.format.Wrap == nil && in.format.Detect != nil && !convert.Accepts(br, in.format) {
			// In no format detection knows, and its head is not the
			// forced format's either (a Gemini API body read as xml):
			// whatever the decoder makes of it, it is not that format.
			in.other, in.foreign = true, true
		}
	}
	if in.hint == "" {
		in.hint = "it holds nothing of the format"
	}
	if o.tools.protocol != "" && in.format.Wrap != nil {
		return failure(fmt.Errorf("%s: --tools-protocol reads the text blocks of another format; the input is already %s", name, in.format.Name))
	}
	if err := o.checkFormat(in.format); err != nil {
		return err
	}
	in.opts = o.decodeOptions(name, rep.warn)
	problems := rep.count()
	if err := fn(in); err != nil {
		return err
	}
	switch {
	case in.count != nil && in.count.n == 0:
		return &emptyError{name: name, format: in.format.Name, hint: in.hint}
	case in.foreign && rep.count() == problems:
		// Read without a problem, but not in the format forced.
		if !rep.problem(fmt.Errorf("%s: not %s input (%s)", name, in.format.Name, in.hint)) {
			return errStrictStop
		}
	case rep.count() > problems && o.from != "auto" && derr == nil && detected.Name != in.format.Name:
		// Read with problems in a format it does not look like.
		rep.note("%s: %s", name, in.hint)
	}
	return nil
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
