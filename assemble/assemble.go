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
	"github.com/agentstream/agentstream/internal/slab"
)

// Assembler builds blocks from events. Memory is bounded by the open
// blocks: one per (agent, kind) being streamed, plus the last text block of
// each agent, held until it is known whether citations follow it: at the
// agent's next event, or, for a subagent (a SessionStart naming its
// parent), at its parent's next event after the block (the parent goes on
// once its subagent is done; a subagent often ends with its answer and no
// event after it). Both count towards MaxOpen: beyond it the
// block opened longest ago is closed early (a held text block is released,
// a streamed one ends marked truncated) and Add reports ErrTooManyOpen,
// once.
type Assembler struct {
	// MaxOpen caps the blocks held at once (DefaultMaxOpen if <= 0).
	MaxOpen int
	// Reuse, set before the first Add, lets the Assembler write its next
	// blocks into those it returned: the blocks and the slice Add and Flush
	// return are then valid only until the next call of either. It suits a
	// consumer that writes each block at once (`assemble -o json`), which
	// then allocates nothing per block.
	Reuse bool

	max    int
	blocks *Lifecycle[*item]
	// held is the last completed text block per agent, waiting for
	// citations; order keeps agents in the order their blocks completed.
	held  smallMap[string, *item]
	order []string
	// parents maps the last MaxOpen subagents started to their parent
	// (porder, oldest first); waiting holds, by parent, its subagents
	// whose text block is held; last is the agent of the last event.
	parents map[string]string
	porder  []string
	waiting map[string][]string
	last    string

	out      []*Block // blocks completed by the event being added
	lent     []*item  // with Reuse, the items of out, taken back at the next call
	spare    []*item  // with Reuse, zeroed items for the next blocks
	evicted  int      // blocks closed early to stay within MaxOpen
	reported bool     // ErrTooManyOpen was returned
	// changes holds file changes that have started, by agent and id,
	// until they complete.
	changes map[openKey]*item
	// free holds closed blocks' text buffers for the next blocks.
	free [][]byte
	// texts holds the short texts of blocks of several deltas.
	texts slab.Strings
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

// item is a block with room for what its pointer fields point at and,
// while it streams, for its text: one allocation per block, which an
// Assembler with Reuse recycles.
type item struct {
	Block
	content string
	usage   Usage
	in, out int64
	// The streamed text: one, while the block has had a single delta (its
	// text is then the delta's string, not copied); buf, not nil, from a
	// second delta on.
	one  string
	buf  []byte
	over bool
}

// textLen returns the length of the text so far.
func (it *item) textLen() int {
	if it.buf != nil {
		return len(it.buf)
	}
	return len(it.one)
}

// write appends a delta's text.
func (it *item) write(a *Assembler, s string) {
	switch {
	case s == "":
	case it.buf != nil:
		it.buf = append(it.buf, s...)
	case it.one == "":
		it.one = s
	default:
		it.buf = append(append(a.buffer(), it.one...), s...) // not nil: s is not empty
		it.one = ""
	}
}

// text returns the block's text and gives its buffer back for the next
// block: the string is made once, of its final size, where a
// strings.Builder grew it by doubling (an allocation and a copy each
// time); a short one is copied into a slab shared with the next ones
// (a stream has many short blocks), not allocated alone.
func (it *item) text(a *Assembler) string {
	if it.buf == nil {
		return it.one
	}
	s := a.texts.String(it.buf)
	it.release(a)
	return s
}

// release gives the block's buffer back for the next block.
func (it *item) release(a *Assembler) {
	if it.buf == nil {
		return
	}
	if cap(it.buf) <= maxKeptBuffer && len(a.free) < maxFreeBuffers {
		a.free = append(a.free, it.buf[:0])
	}
	it.buf = nil
}

// item returns an empty item, a spare one if there is one.
func (a *Assembler) item() *item {
	if n := len(a.spare); n > 0 {
		it := a.spare[n-1]
		a.spare = a.spare[:n-1]
		return it
	}
	return new(item)
}

// emit adds it to the blocks the current call returns.
func (a *Assembler) emit(it *item) {
	a.out = append(a.out, &it.Block)
	if a.Reuse {
		a.lent = append(a.lent, it)
	}
}

// begin starts a call of Add or Flush: with Reuse, the blocks the last
// one returned are taken back.
func (a *Assembler) begin() {
	if !a.Reuse {
		a.out = nil
		return
	}
	for i, it := range a.lent {
		if len(a.spare) < maxSpare {
			*it = item{}
			a.spare = append(a.spare, it)
		}
		// A loop, not clear: an event returns a block or two, and clear
		// calls the runtime.
		a.lent[i], a.out[i] = nil, nil
	}
	a.lent, a.out = a.lent[:0], a.out[:0]
}

// done ends a call of Add or Flush, returning its blocks.
func (a *Assembler) done() []*Block {
	out := a.out
	if !a.Reuse {
		a.out = nil
	}
	return out
}

// maxSpare caps the spare items of an Assembler with Reuse: an event
// completes a few blocks at most, Flush up to MaxOpen.
const maxSpare = 64

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
	a := &Assembler{max: max, changes: map[openKey]*item{}}
	a.blocks = NewLifecycle(Hooks[*item]{Open: a.startBlock, End: a.finish, Abandon: func(it *item) { it.release(a) }})
	return a
}

// ErrBlockTooLarge is returned by Add when a block outgrows the cap; the
// rest of that block's text is dropped and the block marked truncated.
var ErrBlockTooLarge = fmt.Errorf("block %w", event.ErrTooLarge)

// Add feeds one event and returns the blocks it completed, in order.
func (a *Assembler) Add(ev event.Event) ([]*Block, error) {
	a.begin()
	agent := ev.AgentID()
	_, cites := ev.(*event.Citations)
	if len(a.waiting) > 0 && agent != a.last {
		a.releaseFamily(agent, !cites)
	} else if !cites {
		a.release(agent)
	}
	a.last = agent
	var err error
	switch ev := ev.(type) {
	case *event.BlockStart, *event.BlockEnd:
		a.blocks.Event(ev)
	case *event.Delta:
		it := a.blocks.Delta(ev)
		if it.over {
			break
		}
		if it.textLen()+len(ev.Text) > a.max {
			it.over = true
			it.Truncated = true
			err = fmt.Errorf("%w: %s block of agent %q is over %d bytes; the rest is dropped", ErrBlockTooLarge, ev.Kind, agent, a.max)
			break
		}
		it.write(a, ev.Text)
	case *event.Citations:
		b := a.held.get(agent)
		if b == nil {
			// No text block to attach to: keep the citations in an empty one.
			b = a.item()
			b.Agent, b.Type = agent, TypeText
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
	case *event.SessionStart:
		if p := ev.ParentAgent; p != "" && p != agent {
			a.adopt(agent, p)
		}
		a.emit(a.from(ev))
	case *event.Notice, *event.Error:
		// An abandon drops the agent's open blocks (given up and begun
		// again: the notice says so); an error cuts them short, before it.
		a.blocks.Event(ev)
		a.emit(a.from(ev))
	case *event.FileChange:
		k := openKey{agent, event.BlockKind(ev.ID)}
		if ev.Status == statusInProgress && (len(a.changes) < a.maxOpen() || a.changes[k] != nil) {
			// Its start: the block is the completed change, which
			// replaces it; one never completed comes out at the end.
			// Beyond MaxOpen started changes, a start is a block.
			a.changes[k] = a.from(ev)
			break
		}
		delete(a.changes, k)
		a.emit(a.from(ev))
	default:
		if it := a.from(ev); it != nil {
			a.emit(it)
		}
	}
	if err == nil && a.evicted > 0 && !a.reported {
		a.reported = true
		err = fmt.Errorf("%w: more than %d (agents and kinds of block being streamed, and text blocks waiting for "+
			"citations); the oldest are closed early and marked truncated", ErrTooManyOpen, a.maxOpen())
	}
	return a.done(), err
}

func (a *Assembler) maxOpen() int {
	if a.MaxOpen <= 0 {
		return DefaultMaxOpen
	}
	return a.MaxOpen
}

// startBlock opens a block, closing the oldest block first if MaxOpen are
// held already.
func (a *Assembler) startBlock(agent string, kind event.BlockKind) *item {
	a.makeRoom()
	it := a.item()
	it.Agent, it.Type = agent, string(kind)
	return it
}

// makeRoom closes held or open blocks, oldest first, until one more fits.
// A held text block is complete: releasing it early only means citations
// that would have followed it start a block of their own.
func (a *Assembler) makeRoom() {
	for a.blocks.Len()+a.held.len() >= a.maxOpen() {
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
func (a *Assembler) finish(it *item, e *event.BlockEnd) {
	if e != nil {
		it.Signature = e.Signature
	}
	it.Text = it.text(a)
	it.Truncated = it.Truncated || e == nil
	if it.Type == TypeText && e != nil {
		a.hold(it)
		return
	}
	a.emit(it)
}

func (a *Assembler) hold(b *item) {
	a.makeRoom()
	a.held.set(b.Agent, b)
	a.order = append(a.order, b.Agent)
	if p, ok := a.parents[b.Agent]; ok {
		a.waiting[p] = append(a.waiting[p], b.Agent)
	}
}

// release emits the held text block of agent.
func (a *Assembler) release(agent string) {
	if a.held.len() == 0 {
		// Most events come with no text block held: no lookup.
		return
	}
	b := a.held.get(agent)
	if b == nil {
		return
	}
	a.held.delete(agent)
	if i := slices.Index(a.order, agent); i >= 0 {
		a.order = slices.Delete(a.order, i, i+1)
	}
	a.unwait(agent)
	a.emit(b)
}

// adopt notes that child is a subagent of parent. Only the last MaxOpen
// are kept: the oldest is forgotten (its held block, if any, then waits
// for its own next event or Flush).
func (a *Assembler) adopt(child, parent string) {
	if a.parents == nil {
		a.parents, a.waiting = map[string]string{}, map[string][]string{}
	}
	if _, ok := a.parents[child]; ok {
		a.unwait(child)
		a.porder = slices.DeleteFunc(a.porder, func(c string) bool { return c == child })
	} else if len(a.porder) >= a.maxOpen() {
		a.unwait(a.porder[0])
		delete(a.parents, a.porder[0])
		a.porder = a.porder[1:]
	}
	a.parents[child] = parent
	a.porder = append(a.porder, child)
	if a.held.get(child) != nil {
		a.waiting[parent] = append(a.waiting[parent], child)
	}
}

// unwait takes child out of its parent's waiting list.
func (a *Assembler) unwait(child string) {
	p, ok := a.parents[child]
	if !ok {
		return
	}
	kids := a.waiting[p]
	if i := slices.Index(kids, child); i >= 0 {
		kids = slices.Delete(kids, i, i+1)
	}
	if len(kids) == 0 {
		delete(a.waiting, p)
	} else {
		a.waiting[p] = kids
	}
}

// releaseFamily emits the held text blocks of agent's subagents, and of
// theirs (agent goes on, so they are done), with agent's own if self, in
// the order the blocks completed.
func (a *Assembler) releaseFamily(agent string, self bool) {
	var set []string
	if self {
		set = append(set, agent)
	}
	set = a.family(agent, set)
	if len(set) > 1 {
		slices.SortFunc(set, func(x, y string) int {
			return cmp.Compare(slices.Index(a.order, x), slices.Index(a.order, y))
		})
	}
	for _, x := range set {
		a.release(x)
	}
}

// family appends to set the subagents of parent whose text block is held,
// and theirs, taking them out of waiting.
func (a *Assembler) family(parent string, set []string) []string {
	kids := a.waiting[parent]
	delete(a.waiting, parent)
	for _, c := range kids {
		set = append(set, c)
		set = a.family(c, set)
	}
	return set
}

// Flush returns what is left at the end of the stream: held text blocks,
// then blocks still open, marked truncated, in a deterministic order.
func (a *Assembler) Flush() []*Block {
	a.begin()
	for len(a.order) > 0 {
		a.release(a.order[0])
	}
	a.blocks.CutAll(func(x, y *item) int {
		return cmp.Or(strings.Compare(x.Agent, y.Agent), strings.Compare(x.Type, y.Type))
	})
	for _, k := range slices.SortedFunc(maps.Keys(a.changes), func(x, y openKey) int {
		return cmp.Or(strings.Compare(x.agent, y.agent), strings.Compare(string(x.kind), string(y.kind)))
	}) {
		b := a.changes[k]
		delete(a.changes, k)
		b.Truncated = true
		a.emit(b)
	}
	return a.done()
}
