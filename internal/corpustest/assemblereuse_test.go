package corpustest

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/render"
)

// TestAssembleReuse: an Assembler with Reuse, whose blocks are written as
// each call returns them (as `assemble -o json` does), gives every
// recording the blocks and errors an Assembler without it gives, also when
// a small MaxOpen closes blocks early.
func TestAssembleReuse(t *testing.T) {
	t.Parallel()
	for _, rec := range recordings(t) {
		var evs []event.Event
		dec := rec.f.NewDecoder(bytes.NewReader(rec.data), &format.Options{Source: rec.path})
		for {
			ev, err := dec.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			var perr *event.ParseError
			if errors.As(err, &perr) {
				continue
			}
			if err != nil {
				break
			}
			evs = append(evs, ev)
		}
		for _, maxOpen := range []int{0, 1, 2} {
			kept, keptErrs := assembleAll(evs, maxOpen, false)
			reused, reusedErrs := assembleAll(evs, maxOpen, true)
			if d := cmp.Diff(string(kept), string(reused)); d != "" {
				t.Errorf("%s, MaxOpen %d: blocks with Reuse differ (-without +with):\n%s", rec.path, maxOpen, d)
			}
			if d := cmp.Diff(keptErrs, reusedErrs); d != "" {
				t.Errorf("%s, MaxOpen %d: errors with Reuse differ (-without +with):\n%s", rec.path, maxOpen, d)
			}
		}
	}
}

// assembleAll assembles evs and returns the blocks written as
// `assemble -o json` writes them, in order, and the errors' texts.
func assembleAll(evs []event.Event, maxOpen int, reuse bool) ([]byte, []string) {
	a := assemble.New(0)
	a.MaxOpen, a.Reuse = maxOpen, reuse
	var out bytes.Buffer
	w := render.NewJSON(&out)
	var errs []string
	keep := func(bs []*assemble.Block) {
		for _, b := range bs {
			if err := w.Block(b); err != nil {
				errs = append(errs, err.Error())
			}
		}
	}
	for _, ev := range evs {
		bs, err := a.Add(ev)
		if err != nil {
			errs = append(errs, err.Error())
		}
		keep(bs)
	}
	keep(a.Flush())
	return out.Bytes(), errs
}
