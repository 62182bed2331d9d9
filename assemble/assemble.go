// Package assemble turns a canonical event stream into whole blocks: the
// text of a block with its citations, a tool call, a tool result with its
// images. It is what `agentstream assemble` prints and what `verify`
// compares.
package assemble

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
)

// Assembler builds blocks from events. Memory is bounded by the open
// blocks: one per (agent, kind) being streamed, plus the last text block of
// each agent, held until it is known whether citations follow it. Both
// count towards MaxOpen: beyond it the block opened longest ago is closed
// early (a held text block is released, a streamed one ends marked
// truncated) and Add reports ErrTooManyOpen, once.
type Assembler struct {
	// MaxOpen caps the blocks held at once (DefaultMaxOpen if <= 0).
	MaxOpen int

	max    int
	blocks *Lifecycle[*openBlock]
	// held is the last completed text block per agent, waiting for
	// citations; order keeps agents in the order their blocks completed.
	held     map[string]*Block
	order    []string
	out      []*Block // blocks completed by the event being added
	evicted  int      // blocks closed early to stay within MaxOpen
	reported bool     // ErrTooManyOpen was returned
	// changes holds file changes that have started, by agent and id,
	// until they complete.
	changes map[openKey]*Block
	// free holds closed blocks' text buffers for the next blocks.
	free [][]byte
}

// statusInProgress is the status of a file change that has only started.
const statusInProgress = "in_progress"

// DefaultMaxOpen is the default cap on the blocks an Assembler holds at
// once: far more agents streaming at the same time than any real run has,
// few enough that a hostile stream opening a block for each of millions
// of agents cannot make it hold them all.
const DefaultMaxOpen = 1024

// ErrTooManyOpen is returned by Add the first time a block is closed early
// because MaxOpen blocks were open; the blocks closed early are marked
// truncated.
var ErrTooManyOpen = errors.New("too many blocks open at once")

type openKey struct {
	agent string
	kind  event.BlockKind
}

type openBlock struct {
	block *Block
	// The text: one, while the block has had a single delta (its text is
	// then the delta's string, not copied); buf, not nil, from a second
	// delta on.
	one  string
	buf  []byte
	over bool
}

// textLen returns the length of the text so far.
func (ob *openBlock) textLen() int {
	if ob.buf != nil {
		return len(ob.buf)
	}
	return len(ob.one)
}

// write appends a delta's text.
func (ob *openBlock) write(a *Assembler, s string) {
	switch {
	case s == "":
	case ob.buf != nil:
		ob.buf = append(ob.buf, s...)
	case ob.one == "":
		ob.one = s
	default:
		ob.buf = append(append(a.buffer(), ob.one...), s...) // not nil: s is not empty
		ob.one = ""
	}
}

// text returns the block's text and gives its buffer back for the next
// block: the string is made once, of its final size, where a
// strings.Builder grew it by doubling (an allocation and a copy each
// time).
func (ob *openBlock) text(a *Assembler) string {
	if ob.buf == nil {
		return ob.one
	}
	s := string(ob.buf)
	ob.release(a)
	return s
}

// release gives the block's buffer back for the next block.
func (ob *openBlock) release(a *Assembler) {
	if ob.buf == nil {
		return
	}
	if cap(ob.buf) <= maxKeptBuffer && len(a.free) < maxFreeBuffers {
		a.free = append(a.free, ob.buf[:0])
	}
	ob.buf = nil
}

// buffer returns an empty text buffer, a freed one if there is one.
func (a *Assembler) buffer() []byte {
	if n := len(a.free); n > 0 {
		b := a.free[n-1]
		a.free = a.free[:n-1]
		return b
	}
	return nil
}

// The freed text buffers an Assembler keeps: a few (blocks streamed at
// once are few), none larger than maxKeptBuffer, so that one huge block
// does not stay in memory after it.
const (
	maxFreeBuffers = 8
	maxKeptBuffer  = 64 << 10
)

// New returns an assembler whose open blocks may grow to max bytes each
// (event.DefaultMaxBytes if max <= 0).
func New(max int) *Assembler {
	if max <= 0 {
		max = event.DefaultMaxBytes
	}
	a := &Assembler{max: max, held: map[string]*Block{}, changes: map[openKey]*Block{}}
	a.blocks = NewLifecycle(Hooks[*openBlock]{Open: a.startBlock, End: a.finish, Abandon: func(ob *openBlock) { ob.release(a) }})
	return a
}

// ErrBlockTooLarge is returned by Add when a block outgrows the cap; the
// rest of that block's text is dropped and the block marked truncated.
var ErrBlockTooLarge = fmt.Errorf("block %w", event.ErrTooLarge)

// Add feeds one event and returns the blocks it completed, in order.
func (a *Assembler) Add(ev event.Event) ([]*Block, error) {
	a.out = nil
	agent := ev.AgentID()
	if _, ok := ev.(*event.Citations); !ok {
		a.release(agent)
	}
	var err error
	switch ev := ev.(type) {
	case *event.BlockStart, *event.BlockEnd:
		a.blocks.Event(ev)
	case *event.Delta:
		ob := a.blocks.Delta(ev)
		if ob.over {
			break
		}
		if ob.textLen()+len(ev.Text) > a.max {
			ob.over = true
			ob.block.Truncated = true
			err = fmt.Errorf("%w: %s block of agent %q is over %d bytes; the rest is dropped", ErrBlockTooLarge, ev.Kind, agent, a.max)
			break
		}
		ob.write(a, ev.Text)
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
	case *event.Notice, *event.Error:
		// An abandon drops the agent's open blocks (given up and begun
		// again: the notice says so); an error cuts them short, before it.
		a.blocks.Event(ev)
		a.out = append(a.out, FromEvent(ev))
	case *event.FileChange:
		k := openKey{agent, event.BlockKind(ev.ID)}
		if ev.Status == statusInProgress && (len(a.changes) < a.maxOpen() || a.changes[k] != nil) {
			// Its start: the block is the completed change, which
			// replaces it; one never completed comes out at the end.
			// Beyond MaxOpen started changes, a start is a block.
			a.changes[k] = FromEvent(ev)
			break
		}
		delete(a.changes, k)
		a.out = append(a.out, FromEvent(ev))
	default:
		if b := FromEvent(ev); b != nil {
			a.out = append(a.out, b)
		}
	}
	if err == nil && a.evicted > 0 && !a.reported {
		a.reported = true
		err = fmt.Errorf("%w: more than %d (agents and kinds of block being streamed, and text blocks waiting for "+
			"citations); the oldest are closed early and marked truncated", ErrTooManyOpen, a.maxOpen())
	}
	out := a.out
	a.out = nil
	return out, err
}

func (a *Assembler) maxOpen() int {
	if a.MaxOpen <= 0 {
		return DefaultMaxOpen
	}
	return a.MaxOpen
}

// startBlock opens a block, closing the oldest block first if MaxOpen are
// held already.
func (a *Assembler) startBlock(agent string, kind event.BlockKind) *openBlock {
	a.makeRoom()
	return &openBlock{block: &Block{Agent: agent, Type: string(kind)}}
}

// makeRoom closes held or open blocks, oldest first, until one more fits.
// A held text block is complete: releasing it early only means citations
// that would have followed it start a block of their own.
func (a *Assembler) makeRoom() {
	for a.blocks.Len()+len(a.held) >= a.maxOpen() {
		a.evicted++
		if len(a.order) > 0 {
			a.release(a.order[0])
			continue
		}
		a.blocks.CutOldest()
	}
}

// finish closes an open block, at its end e or cut short (e nil); a text
// block that ended is held for citations.
func (a *Assembler) finish(ob *openBlock, e *event.BlockEnd) {
	if e != nil {
		ob.block.Signature = e.Signature
	}
	ob.block.Text = ob.text(a)
	ob.block.Truncated = ob.block.Truncated || e == nil
	if ob.block.Type == TypeText && e != nil {
		a.hold(ob.block)
		return
	}
	a.out = append(a.out, ob.block)
}

func (a *Assembler) hold(b *Block) {
	a.makeRoom()
	a.held[b.Agent] = b
	a.order = append(a.order, b.Agent)
}

// release emits the held text block of agent.
func (a *Assembler) release(agent string) {
	if len(a.held) == 0 {
		// Most events come with no text block held: no lookup.
		return
	}
	b := a.held[agent]
	if b == nil {
		return
	}
	delete(a.held, agent)
	if i := slices.Index(a.order, agent); i >= 0 {
		a.order = slices.Delete(a.order, i, i+1)
	}
	a.out = append(a.out, b)
}

// Flush returns what is left at the end of the stream: held text blocks,
// then blocks still open, marked truncated, in a deterministic order.
func (a *Assembler) Flush() []*Block {
	a.out = nil
	for len(a.order) > 0 {
		a.release(a.order[0])
	}
	a.blocks.CutAll(func(x, y *openBlock) int {
		return cmp.Or(strings.Compare(x.block.Agent, y.block.Agent), strings.Compare(x.block.Type, y.block.Type))
	})
	out := a.out
	a.out = nil
	for _, k := range slices.SortedFunc(maps.Keys(a.changes), func(x, y openKey) int {
		return cmp.Or(strings.Compare(x.agent, y.agent), strings.Compare(string(x.kind), string(y.kind)))
	}) {
		b := a.changes[k]
		delete(a.changes, k)
		b.Truncated = true
		out = append(out, b)
	}
	return out
}
