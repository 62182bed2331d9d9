// Package assemble turns a canonical event stream into whole blocks: the
// text of a block with its citations, a tool call, a tool result with its
// images. It is what `agentstream assemble` prints and what `verify`
// compares.
package assemble

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
)

// Assembler builds blocks from events. Memory is bounded by the open
// blocks: one per (agent, kind) being streamed, plus the last text block of
// each agent, held until it is known whether citations follow it.
type Assembler struct {
	max  int
	open map[openKey]*openBlock
	// held is the last completed text block per agent, waiting for
	// citations; order keeps agents in the order their blocks completed.
	held  map[string]*Block
	order []string
}

type openKey struct {
	agent string
	kind  event.BlockKind
}

type openBlock struct {
	block *Block
	text  strings.Builder
	over  bool
}

// New returns an assembler whose open blocks may grow to max bytes each
// (event.DefaultMaxBytes if max <= 0).
func New(max int) *Assembler {
	if max <= 0 {
		max = event.DefaultMaxBytes
	}
	return &Assembler{max: max, open: map[openKey]*openBlock{}, held: map[string]*Block{}}
}

// ErrBlockTooLarge is returned by Add when a block outgrows the cap; the
// rest of that block's text is dropped and the block marked truncated.
var ErrBlockTooLarge = fmt.Errorf("block %w", event.ErrTooLarge)

// Add feeds one event and returns the blocks it completed, in order.
func (a *Assembler) Add(ev event.Event) ([]*Block, error) {
	var out []*Block
	agent := ev.AgentID()
	if _, ok := ev.(*event.Citations); !ok {
		out = a.release(agent, out)
	}
	var err error
	switch ev := ev.(type) {
	case *event.BlockStart:
		k := openKey{agent, ev.Kind}
		if ob := a.open[k]; ob != nil {
			// A block opened twice: the first one ended without its end.
			out = append(out, a.finish(k, true)...)
		}
		a.open[k] = &openBlock{block: &Block{Agent: agent, Type: string(ev.Kind)}}
	case *event.Delta:
		k := openKey{agent, ev.Kind}
		ob := a.open[k]
		if ob == nil {
			ob = &openBlock{block: &Block{Agent: agent, Type: string(ev.Kind)}}
			a.open[k] = ob
		}
		if ob.over {
			break
		}
		if ob.text.Len()+len(ev.Text) > a.max {
			ob.over = true
			ob.block.Truncated = true
			err = fmt.Errorf("%w: %s block of agent %q is over %d bytes; the rest is dropped", ErrBlockTooLarge, ev.Kind, agent, a.max)
			break
		}
		ob.text.WriteString(ev.Text)
	case *event.BlockEnd:
		k := openKey{agent, ev.Kind}
		if ob := a.open[k]; ob != nil {
			ob.block.Signature = ev.Signature
		}
		out = append(out, a.finish(k, false)...)
	case *event.Citations:
		b := a.held[agent]
		if b == nil {
			// No text block to attach to: keep the citations in an empty one.
			b = &Block{Agent: agent, Type: TypeText}
			a.hold(b)
		}
		for _, c := range ev.Items {
			b.Citations = append(b.Citations, Citation{
				Type: c.Type, CitedText: c.CitedText,
				DocumentIndex: c.DocumentIndex, DocumentTitle: c.DocumentTitle,
				StartCharIndex: c.StartCharIndex, EndCharIndex: c.EndCharIndex,
				StartPageNumber: c.StartPageNumber, EndPageNumber: c.EndPageNumber, URL: c.URL, Title: c.Title,
			})
		}
	default:
		if b := FromEvent(ev); b != nil {
			out = append(out, b)
		}
	}
	return out, err
}

// finish closes the open block k; a text block is held for citations.
func (a *Assembler) finish(k openKey, truncated bool) []*Block {
	ob := a.open[k]
	if ob == nil {
		return nil
	}
	delete(a.open, k)
	ob.block.Text = ob.text.String()
	ob.block.Truncated = ob.block.Truncated || truncated
	if k.kind == event.Text && !truncated {
		a.hold(ob.block)
		return nil
	}
	return []*Block{ob.block}
}

func (a *Assembler) hold(b *Block) {
	a.held[b.Agent] = b
	a.order = append(a.order, b.Agent)
}

// release emits the held text block of agent.
func (a *Assembler) release(agent string, out []*Block) []*Block {
	b := a.held[agent]
	if b == nil {
		return out
	}
	delete(a.held, agent)
	for i, ag := range a.order {
		if ag == agent {
			a.order = append(a.order[:i], a.order[i+1:]...)
			break
		}
	}
	return append(out, b)
}

// Flush returns what is left at the end of the stream: held text blocks,
// then blocks still open, marked truncated, in a deterministic order.
func (a *Assembler) Flush() []*Block {
	var out []*Block
	for len(a.order) > 0 {
		out = a.release(a.order[0], out)
	}
	var keys []openKey
	for k := range a.open {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y openKey) int {
		return cmp.Or(strings.Compare(x.agent, y.agent), strings.Compare(string(x.kind), string(y.kind)))
	})
	for _, k := range keys {
		ob := a.open[k]
		delete(a.open, k)
		ob.block.Text = ob.text.String()
		ob.block.Truncated = true
		out = append(out, ob.block)
	}
	return out
}
