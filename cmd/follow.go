package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"

	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/source"
)

// followOptions are --follow and --until-end, on the commands that read
// a growing file: convert, assemble and usage.
type followOptions struct {
	on       bool
	untilEnd bool
	// current is the file being followed.
	current *source.Follower
}

func addFollowFlags(fs *pflag.FlagSet, o *followOptions) {
	fs.BoolVarP(&o.on, "follow", "F", false, "keep reading what is appended to file inputs, as tail -F does, until interrupted")
	fs.BoolVar(&o.untilEnd, "until-end", false, "with --follow: stop at the stream's own end (its run end; a Codex turn end)")
}

// start checks the inputs and returns the context the command reads
// under: with --follow, one that Ctrl-C cancels, which ends the inputs
// as if they stopped there.
func (o *followOptions) start(ctx context.Context, inputs []string) (context.Context, func(), error) {
	if o == nil || !o.on {
		if o != nil && o.untilEnd {
			return ctx, func() {}, failure(fmt.Errorf("--until-end needs --follow"))
		}
		return ctx, func() {}, nil
	}
	if len(inputs) == 0 {
		return ctx, func() {}, failure(fmt.Errorf("--follow reads files: name one"))
	}
	for _, in := range inputs {
		if in == "-" || source.IsURL(in) {
			return ctx, func() {}, failure(fmt.Errorf("--follow reads files, not %s", in))
		}
	}
	if len(inputs) > 1 && !o.untilEnd {
		return ctx, func() {}, failure(fmt.Errorf("--follow with more than one input needs --until-end"))
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	return ctx, stop, nil
}

// opener returns how inputs are opened: followed when --follow is on.
func (o *followOptions) opener() func(ctx context.Context, name string, opts *source.Options) (io.ReadCloser, error) {
	if o == nil || !o.on {
		return source.Open
	}
	return func(ctx context.Context, name string, _ *source.Options) (io.ReadCloser, error) {
		f, err := source.Follow(ctx, name)
		if err != nil {
			return nil, err
		}
		o.current = f
		return f, nil
	}
}

// decoder wraps dec so that, with --until-end, the stream's own end stops
// the following at the next end of the file: the run end of a top-level
// agent, or, in a format that has no run end (Codex: one exec is one
// turn), the turn end of a top-level agent.
func (o *followOptions) decoder(dec event.Decoder, f convert.Format) event.Decoder {
	if o == nil || !o.on || !o.untilEnd || o.current == nil {
		return dec
	}
	return &untilEnd{Decoder: dec, f: o.current, sub: map[string]bool{}, turnEnds: slices.Contains(f.Lacks, format.MetaFinal)}
}

type untilEnd struct {
	event.Decoder
	f        *source.Follower
	sub      map[string]bool // subagents
	turnEnds bool            // the format has no run end: a turn end ends the stream
}

func (u *untilEnd) Next() (event.Event, error) {
	ev, err := u.Decoder.Next()
	switch e := ev.(type) {
	case *event.SessionStart:
		if e.ParentAgent != "" && e.ParentAgent != e.Agent {
			u.sub[e.Agent] = true
		}
	case *event.RunEnd:
		if !u.sub[e.Agent] {
			u.f.Stop()
		}
	case *event.TurnEnd:
		if u.turnEnds && !u.sub[e.Agent] {
			u.f.Stop()
		}
	}
	return ev, err
}
