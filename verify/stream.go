package verify

import (
	"cmp"
	"container/list"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// The caps of a Stream a command uses (Options.MaxAgents, MaxHeld,
// MaxHeldBytes; docs/limits.md).
const (
	DefaultMaxAgents    = 16384
	DefaultMaxHeld      = 16384
	DefaultMaxHeldBytes = 64 << 20
)

// LimitError is what Stream.Add returns past a cap: the two streams cannot
// be compared within it, which says neither equal nor different.
type LimitError struct {
	msg string
}

func (e *LimitError) Error() string { return "cannot compare: " + e.msg }

// Stream compares two streams block by block as they are assembled,
// holding only what is not yet matched: the agents open (their ids, first
// meta_init and outcome so far) and, per agent, the content blocks of one
// side that the other has not matched yet. Blocks match while each
// agent's blocks are equal on both sides, in order; from an agent's first
// difference on, its blocks are held to its end, where they are aligned
// as Compare aligns them. So equal streams hold only what one side is
// ahead of the other.
//
// Past Options.MaxAgents agents open, the one both sides have that did
// nothing for longest is compared as it stands and let go of (its
// differences kept); its id is remembered in a fixed-size filter, and a
// block of an agent that may be one let go of ends the comparison with a
// LimitError, since that agent's comparison is over.
//
// Side 0 is A, side 1 is B. The report does not depend on the order the
// two sides' blocks are added in.
type Stream struct {
	c     *comparer
	o     Options
	sides [2]streamSide
	pairs map[int]*pair        // the agents open, by number (order of first appearance on each side)
	lru   *list.List           // their numbers, the one active longest ago first
	count int                  // agents numbered
	done  map[int][]Difference // the differences of agents let go of, where there are any
	ndone int                  // how many differences done holds
	held  [2]int               // blocks held, per side
	bytes int                  // their canonical forms' size, both sides
	err   error
}

type streamSide struct {
	name, format string
	cut          bool   // Cut: the input was cut off
	main         string // the main agent: the first block's
	mainSet      bool
	byID         map[string]int // agent id: its number, while it is open
	gone         bloom          // the ids of agents let go of
	agents       int
	blocks       int // content blocks compared
	seq          int // blocks of an agent added
}

// pair is the n-th agent of each side; one may be nil so far.
type pair struct {
	n        int
	ag       [2]*agent
	matched  int  // content blocks matched and let go of
	diverged bool // the blocks after matched differ: held to the end
	at       *list.Element
	last     [2]int // each side's seq at its last block
}

// NewStream starts a comparison of a and b (their Blocks are not read: Add
// gives them).
func NewStream(a, b Side, o *Options) *Stream {
	if o == nil {
		o = &Options{}
	}
	s := &Stream{c: newComparer(a, b, o), o: *o, pairs: map[int]*pair{}, lru: list.New(), done: map[int][]Difference{}}
	for i, sd := range []Side{a, b} {
		s.sides[i] = streamSide{name: sd.Name, format: sd.Format, byID: map[string]int{}}
	}
	return s
}

// Cut says that side's input was cut off: its reader reported it
// truncated (a ParseError wrapping event.ErrTruncated). The report then
// says so, and is not equal unless Options.AllowCut.
func (s *Stream) Cut(side int) { s.sides[side].cut = true }

// Next returns the side to add a block of next, when both have one: the
// side holding fewer unmatched blocks, A on a tie. Feeding them so, a side
// runs ahead of the other only as far as their order differs.
func (s *Stream) Next() int {
	if s.held[1] < s.held[0] {
		return 1
	}
	return 0
}

// Add adds the next block of side (0 for A, 1 for B). Past a cap of
// Options it returns a *LimitError, and keeps returning it.
func (s *Stream) Add(side int, b *assemble.Block) error {
	if s.err != nil || b == nil {
		return s.err
	}
	sd := &s.sides[side]
	abandoned := b.Type == assemble.TypeNotice && b.Kind == event.NoticeAbandoned
	if !abandoned && !sd.mainSet {
		sd.main, sd.mainSet = b.Agent, true
	}
	for i, f := range s.c.lacked {
		if !s.c.present[i] && present(f.Field, b, sd.main) {
			s.c.present[i] = true
		}
	}
	if abandoned {
		// An abandoned stream (a retried call, which only Claude's
		// partial mode shows) is no part of the answer: it must not
		// make an agent appear, or appear earlier.
		return nil
	}
	if s.c.skip[string(format.Subagents)] && b.Agent != sd.main {
		return nil // one side's format has no agent but the main one
	}
	n, ok := sd.byID[b.Agent]
	if !ok {
		if sd.gone.has(b.Agent) {
			s.err = &LimitError{fmt.Sprintf("more than %d agents open at once: agent %q of %s may be one let go of", s.o.MaxAgents, b.Agent, "AB"[side:side+1])}
			return s.err
		}
		n = sd.agents
		sd.agents++
		sd.byID[b.Agent] = n
		if n == s.count {
			s.count++
			s.pairs[n] = &pair{n: n}
			s.pairs[n].at = s.lru.PushBack(s.pairs[n])
		}
		s.pairs[n].ag[side] = &agent{id: b.Agent}
	}
	p := s.pairs[n]
	sd.seq++
	p.last[side] = sd.seq
	s.lru.MoveToBack(p.at)
	if s.o.MaxAgents > 0 && len(s.pairs) > s.o.MaxAgents {
		if err := s.letGo(p); err != nil {
			return err
		}
	}
	ag := p.ag[side]
	switch b.Type {
	case assemble.TypeMetaInit:
		if ag.meta == nil {
			ag.meta = &metaInfo{Model: b.Model, Prompt: b.Prompt, Name: b.Name}
		}
		return nil
	case assemble.TypeMetaFinal:
		ag.final = &finalInfo{StopReason: b.StopReason, Usage: b.Usage, CostUSD: b.CostUSD, Failed: b.IsError || len(b.Errors) > 0}
		return nil
	case assemble.TypeTurnEnd:
		ag.turnEnds++
		ag.lastStop = b.StopReason
		if u := b.Usage; u != nil {
			if ag.usage == nil {
				ag.usage = &assemble.Usage{}
			}
			ag.usage.InputTokens = addCount(ag.usage.InputTokens, u.InputTokens)
			ag.usage.OutputTokens = addCount(ag.usage.OutputTokens, u.OutputTokens)
			ag.usage.CacheReadTokens += u.CacheReadTokens
			ag.usage.CacheWriteTokens += u.CacheWriteTokens
			ag.usage.ReasoningTokens += u.ReasoningTokens
		}
		if b.Text == "" {
			return nil
		}
		// A failed turn is an error: formats without turns (jsonenv)
		// write it as an error of type turn_failed.
		b = &assemble.Block{Agent: b.Agent, Type: assemble.TypeError, Kind: "turn_failed", Text: b.Text}
	}
	if s.c.skip["server"] && (b.Type == assemble.TypeServerToolCall || b.Type == assemble.TypeServerToolResult) {
		// One side cannot tell server tools from client ones.
		nb := *b
		nb.Type = strings.TrimPrefix(b.Type, "server_")
		b = &nb
	}
	if fieldsOf[b.Type] == nil || s.c.skip[b.Type] {
		return nil
	}
	if s.c.skip[string(format.SubagentText)] && isText(b) && b.Agent != sd.main {
		return nil
	}
	if isText(b) && len(b.Citations) == 0 && s.c.norm(b.Text) == "" {
		return nil // an empty block says nothing; some formats drop them
	}
	k := s.c.key(b)
	ag.blocks = append(ag.blocks, b)
	ag.keys = append(ag.keys, k)
	sd.blocks++
	s.held[side]++
	s.bytes += len(k)
	s.match(p)
	switch held := s.held[0] + s.held[1]; {
	case s.o.MaxHeld > 0 && held > s.o.MaxHeld:
		s.err = &LimitError{fmt.Sprintf("more than %d blocks wait for the other side's (one side runs that far ahead, or they differ over that many)", s.o.MaxHeld)}
	case s.o.MaxHeldBytes > 0 && s.bytes > s.o.MaxHeldBytes:
		s.err = &LimitError{fmt.Sprintf("more than %d bytes of blocks wait for the other side's (one side runs that far ahead, or they differ over that much)", s.o.MaxHeldBytes)}
	}
	return s.err
}

// match lets go of the blocks both sides of p hold equal, in order, until
// the first difference.
func (s *Stream) match(p *pair) {
	x, y := p.ag[0], p.ag[1]
	if p.diverged || x == nil || y == nil {
		return
	}
	n := 0
	for n < len(x.keys) && n < len(y.keys) && x.keys[n] == y.keys[n] {
		s.bytes -= len(x.keys[n]) + len(y.keys[n])
		n++
	}
	if n < len(x.keys) && n < len(y.keys) {
		p.diverged = true
	}
	if n == 0 {
		return
	}
	p.matched += n
	s.held[0] -= n
	s.held[1] -= n
	for _, a := range []*agent{x, y} {
		a.blocks = slices.Delete(a.blocks, 0, n)
		a.keys = slices.Delete(a.keys, 0, n)
	}
}

// maxDone caps the differences kept of the agents let go of.
const maxDone = 1 << 16

// letGo compares the agent that was active longest ago of those both
// sides have and have gone on from (each added a block of another agent
// since its last) as it stands, keeps its differences and lets go of it.
func (s *Stream) letGo(keep *pair) error {
	for e := s.lru.Front(); e != nil; e = e.Next() {
		p := e.Value.(*pair)
		if p == keep || p.ag[0] == nil || p.ag[1] == nil || p.last[0] == s.sides[0].seq || p.last[1] == s.sides[1].seq {
			continue // a side has not come to it yet, or is at it
		}
		if d := s.c.agent(p.n+1, p.matched, p.ag[0], p.ag[1]); len(d) > 0 {
			s.done[p.n] = d
			s.ndone += len(d)
			if s.ndone > maxDone {
				s.err = &LimitError{fmt.Sprintf("more than %d differences in agents let go of", maxDone)}
				return s.err
			}
		}
		for k, ag := range p.ag {
			s.held[k] -= len(ag.blocks)
			for _, key := range ag.keys {
				s.bytes -= len(key)
			}
			delete(s.sides[k].byID, ag.id)
			s.sides[k].gone.add(ag.id)
		}
		s.lru.Remove(e)
		delete(s.pairs, p.n)
		return nil
	}
	s.err = &LimitError{fmt.Sprintf("more than %d agents open at once, on one side or both", s.o.MaxAgents)}
	return s.err
}

// Report ends the comparison: what is held is aligned and reported. It
// is called once, after the last Add, and only when Add returned no error.
func (s *Stream) Report() *Report {
	c := s.c
	r := &Report{
		A:           Summary{Name: s.sides[0].name, Format: s.sides[0].format, Agents: s.sides[0].agents, Blocks: s.sides[0].blocks, Cut: s.sides[0].cut},
		B:           Summary{Name: s.sides[1].name, Format: s.sides[1].format, Agents: s.sides[1].agents, Blocks: s.sides[1].blocks, Cut: s.sides[1].cut},
		Differences: []Difference{},
	}
	for n := range s.count {
		if p := s.pairs[n]; p != nil {
			r.Differences = append(r.Differences, c.agent(n+1, p.matched, p.ag[0], p.ag[1])...)
		} else {
			r.Differences = append(r.Differences, s.done[n]...)
		}
	}
	var notes []Skip
	for i, f := range c.lacked {
		if c.present[i] {
			notes = append(notes, f)
		}
	}
	// The notes agents made, in the order of the first agent to make each.
	slices.SortStableFunc(c.notes, func(x, y agentNote) int { return cmp.Compare(x.agent, y.agent) })
	for _, an := range c.notes {
		notes = append(notes, an.Skip)
	}
	r.NotCompared = notes
	if r.NotCompared == nil {
		r.NotCompared = []Skip{}
	}
	r.Equal = len(r.Differences) == 0 && (s.o.AllowCut || !r.A.Cut && !r.B.Cut)
	return r
}

// bloom is a set of strings that may answer yes for one not added, never
// no for one added: 1 MiB, 4 probes.
type bloom struct{ bits []uint64 }

const bloomBits = 1 << 23

func (f *bloom) probes(s string) [4]uint32 {
	h := fnv.New64a()
	h.Write([]byte(s))
	x := h.Sum64()
	a, b := uint32(x), uint32(x>>32)|1
	var out [4]uint32
	for i := range out {
		out[i] = (a + uint32(i)*b) % bloomBits
	}
	return out
}

func (f *bloom) add(s string) {
	if f.bits == nil {
		f.bits = make([]uint64, bloomBits/64)
	}
	for _, p := range f.probes(s) {
		f.bits[p/64] |= 1 << (p % 64)
	}
}

func (f *bloom) has(s string) bool {
	if f.bits == nil {
		return false
	}
	for _, p := range f.probes(s) {
		if f.bits[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

// present reports whether field (a name of Fields) has a value in b, a
// block of a stream whose main agent is main.
func present(field string, b *assemble.Block, main string) bool {
	switch field {
	case "is_error":
		return b.IsError && b.Type != assemble.TypeTurnEnd && b.Type != assemble.TypeMetaFinal
	case "exit_code":
		return b.ExitCode != nil
	case "status":
		return b.Status != ""
	case "structured":
		return len(b.Structured) > 0
	case "signature":
		return b.Signature != ""
	case "mcp_server":
		return b.MCPServer != ""
	case "citations", CitationExtras:
		return len(b.Citations) > 0
	case "images":
		return len(b.Images) > 0
	case "kind":
		return b.Type == assemble.TypeError && b.Kind != "" && b.Kind != assemble.TypeError
	case "model":
		return b.Model != ""
	case "prompt":
		return b.Prompt != ""
	case "stop_reason":
		return b.StopReason != ""
	case "usage":
		return b.Usage != nil
	case "cost":
		return b.CostUSD != nil
	case "agent_id":
		return b.Agent != ""
	case string(format.SubagentText):
		return isText(b) && b.Agent != main && b.Text != ""
	case string(format.TextEdges):
		return b.Type == assemble.TypeText && b.Text != strings.TrimSpace(b.Text)
	case string(format.Subagents):
		return fieldsOf[b.Type] != nil && b.Agent != main
	case string(format.SubagentOutcome):
		return (b.Type == assemble.TypeMetaFinal || b.Type == assemble.TypeTurnEnd) && b.Agent != main &&
			(b.StopReason != "" || b.Usage != nil || b.CostUSD != nil)
	case "id":
		return b.ID != "" && slices.Contains(fieldsOf[b.Type], "id")
	case "server":
		return b.Type == assemble.TypeServerToolCall || b.Type == assemble.TypeServerToolResult
	case "name", "input", "content", "pending", "files", "message", "changes", "todos", "text":
		return true
	}
	return b.Type == field // a block type
}

// addCount adds n to sum: nil (not given) only while no part gave one.
func addCount(sum, n *int64) *int64 {
	if n == nil {
		return sum
	}
	t := *n
	if sum != nil {
		t += *sum
	}
	return &t
}
