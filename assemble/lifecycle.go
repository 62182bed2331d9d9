package assemble

import (
	"slices"

	"github.com/agentstream/agentstream/event"
)

// Lifecycle decides where the streamed blocks of a stream (text and
// thinking) start and end. A block opens at its BlockStart or first Delta,
// one at a time for each agent and kind. It ends at its BlockEnd, or is cut
// short: when a block of its agent and kind starts again, when its agent
// has an error, when its user closes it early (CutOldest, CutAgent) or at
// the end of the stream (CutAll). It is given up when its producer abandons
// it (event.NoticeAbandoned). The Assembler and the transcript views
// (package render) keep their blocks through one, so that they agree on
// where every block ends; what a user keeps of a block (B) and writes of it
// are its own (Hooks). Memory: the open blocks, which the user caps.
type Lifecycle[B any] struct {
	hooks Hooks[B]
	open  smallMap[openKey, *slot[B]]
	// order holds the open blocks in the order they opened, and stale
	// entries of blocks ended since (dropped at the front, or all at once
	// when they outnumber the open blocks).
	order []opened[B]
	// spare holds slots of ended blocks for the next blocks; an entry of
	// order whose slot was reused since is stale, its seq not the slot's.
	spare []*slot[B]
	// last is the block the last Delta went to: most deltas go to the
	// block of the delta before, which is then not looked up in open (a
	// map keyed by two strings, hashed per delta).
	last *slot[B]
	seq  uint64
}

// Hooks are what a Lifecycle's user does as blocks open and end.
type Hooks[B any] struct {
	// Open returns what the user keeps of a block agent opens.
	Open func(agent string, kind event.BlockKind) B
	// End ends block b: at its BlockEnd e, or cut short when e is nil.
	End func(b B, e *event.BlockEnd)
	// Abandon ends block b, which its producer gave up; when nil, such a
	// block ends cut short (End with nil).
	Abandon func(b B)
	// ThinkingFirst ends an agent's thinking block before its text block
	// when both end together (at its error, its abandon, CutAgent); else
	// they end in the order they opened.
	ThinkingFirst bool
}

type slot[B any] struct {
	key   openKey
	seq   uint64 // 0 once ended
	block B
}

// opened is an entry of Lifecycle.order: the block of s opened seq-th,
// still open while s.seq is seq.
type opened[B any] struct {
	s   *slot[B]
	seq uint64
}

func (o opened[B]) open() bool { return o.s.seq == o.seq }

// NewLifecycle returns a Lifecycle calling h.
func NewLifecycle[B any](h Hooks[B]) *Lifecycle[B] {
	return &Lifecycle[B]{hooks: h}
}

// Event applies what ev does to the blocks of its agent and returns the
// open block a Delta goes to (ok is false for other events).
func (l *Lifecycle[B]) Event(ev event.Event) (b B, ok bool) {
	switch ev := ev.(type) {
	case *event.Delta:
		return l.Delta(ev), true
	case *event.BlockStart:
		k := openKey{ev.AgentID(), ev.Kind}
		if s := l.open.get(k); s != nil {
			// A block opened twice: the first one ended without its end.
			l.end(s, nil)
		}
		l.start(k)
	case *event.BlockEnd:
		if s := l.open.get(openKey{ev.AgentID(), ev.Kind}); s != nil {
			l.end(s, ev)
		}
	case *event.Error:
		// The error interrupted the agent's open blocks: they end here,
		// cut short, before it.
		l.endAgent(ev.AgentID(), false)
	case *event.Notice:
		if ev.Kind == event.NoticeAbandoned {
			l.endAgent(ev.AgentID(), l.hooks.Abandon != nil)
		}
	}
	return b, false
}

// Delta returns the block e goes to, opening it if its agent has none of
// its kind open.
func (l *Lifecycle[B]) Delta(e *event.Delta) B {
	s := l.last
	if s == nil || s.key.kind != e.Kind || s.key.agent != e.Agent {
		k := openKey{e.Agent, e.Kind}
		if s = l.open.get(k); s == nil {
			s = l.start(k)
		}
		l.last = s
	}
	return s.block
}

// Get returns the open block of agent and kind.
func (l *Lifecycle[B]) Get(agent string, kind event.BlockKind) (b B, ok bool) {
	if s := l.open.get(openKey{agent, kind}); s != nil {
		return s.block, true
	}
	return b, false
}

// Len returns the number of open blocks.
func (l *Lifecycle[B]) Len() int { return l.open.len() }

// CutOldest ends the block opened longest ago, cut short.
func (l *Lifecycle[B]) CutOldest() {
	for len(l.order) > 0 {
		o := l.order[0]
		l.order[0] = opened[B]{}
		l.order = l.order[1:]
		if o.open() {
			l.end(o.s, nil)
			return
		}
	}
}

// CutAgent ends the open blocks of agent, cut short.
func (l *Lifecycle[B]) CutAgent(agent string) { l.endAgent(agent, false) }

// CutAll ends every open block, cut short, in the order cmp sorts them
// (the order they opened when cmp is nil), and returns them in that order.
func (l *Lifecycle[B]) CutAll(cmp func(x, y B) int) []B {
	var bs []B
	for _, o := range l.order {
		if o.open() {
			bs = append(bs, o.s.block)
		}
	}
	if cmp != nil {
		slices.SortFunc(bs, cmp)
	}
	l.open.clear()
	clear(l.order)
	l.order, l.last = l.order[:0], nil
	for _, b := range bs {
		l.hooks.End(b, nil)
	}
	return bs
}

// endAgent ends the open blocks of agent, cut short or abandoned. A block
// is text or thinking (event.BlockKind): one of another kind is ended only
// by its own end, a restart or CutAll.
func (l *Lifecycle[B]) endAgent(agent string, abandon bool) {
	first, second := l.open.get(openKey{agent, event.Thinking}), l.open.get(openKey{agent, event.Text})
	if first != nil && second != nil && !l.hooks.ThinkingFirst && second.seq < first.seq {
		first, second = second, first
	}
	slots := [...]*slot[B]{first, second}
	var seqs [len(slots)]uint64 // each slot's block, before a hook may end it and reuse its slot
	for i, s := range slots {
		if s != nil {
			seqs[i] = s.seq
		}
	}
	for i, s := range slots {
		switch {
		case s == nil, s.seq != seqs[i]: // none, or ended by the hook of the first
		case abandon:
			l.hooks.Abandon(l.remove(s))
		default:
			l.end(s, nil)
		}
	}
}

func (l *Lifecycle[B]) start(k openKey) *slot[B] {
	b := l.hooks.Open(k.agent, k.kind)
	l.seq++
	var s *slot[B]
	if n := len(l.spare); n > 0 {
		s, l.spare = l.spare[n-1], l.spare[:n-1]
	} else {
		s = new(slot[B])
	}
	*s = slot[B]{key: k, seq: l.seq, block: b}
	l.open.set(k, s)
	l.order = append(l.order, opened[B]{s, l.seq})
	return s
}

func (l *Lifecycle[B]) end(s *slot[B], e *event.BlockEnd) {
	l.hooks.End(l.remove(s), e)
}

// remove takes s out of the open blocks, keeps it for a next block, and
// returns its block.
func (l *Lifecycle[B]) remove(s *slot[B]) B {
	l.open.delete(s.key)
	b := s.block
	var zero B
	s.seq, s.block = 0, zero
	if len(l.spare) < maxSpareSlots {
		l.spare = append(l.spare, s)
	}
	if l.last == s {
		l.last = nil
	}
	if len(l.order) > 2*l.open.len()+16 {
		l.order = slices.DeleteFunc(l.order, func(o opened[B]) bool { return !o.open() })
	}
	return b
}

// maxSpareSlots caps the slots a Lifecycle keeps for next blocks: a few
// agents stream at once.
const maxSpareSlots = 16
