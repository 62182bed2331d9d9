package verify

import (
	"fmt"
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
// holding only what is not yet matched: the agents seen (their ids, first
// meta_init and outcome so far) and, per agent, the content blocks of one
// side that the other has not matched yet. Blocks match while each
// agent's blocks are equal on both sides, in order; from an agent's first
// difference on, its blocks are held to the end, where they are aligned
// as Compare aligns them. So equal streams hold only what one side is
// ahead of the other.
//
// Side 0 is A, side 1 is B. The report does not depend on the order the
// two sides' blocks are added in.
type Stream struct {
	c     *comparer
	o     Options
	sides [2]streamSide
	pairs []*pair // the agents, by number (order of first appearance on each side)
	held  [2]int  // blocks held, per side
	bytes int     // their canonical forms' size, both sides
	err   error
}

type streamSide struct {
	name, format string
	main         string // the main agent: the first block's
	mainSet      bool
	byID         map[string]int // agent id: its index in pairs
	agents       int
	blocks       int // content blocks compared
}

// pair is the n-th agent of each side; one may be nil so far.
type pair struct {
	ag       [2]*agent
	matched  int  // content blocks matched and let go of
	diverged bool // the blocks after matched differ: held to the end
}

// NewStream starts a comparison of a and b (their Blocks are not read: Add
// gives them).
func NewStream(a, b Side, o *Options) *Stream {
	if o == nil {
		o = &Options{}
	}
	s := &Stream{c: newComparer(a, b, o), o: *o}
	for i, sd := range []Side{a, b} {
		s.sides[i] = streamSide{name: sd.Name, format: sd.Format, byID: map[string]int{}}
	}
	return s
}

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
		n = sd.agents
		if n == len(s.pairs) {
			if s.o.MaxAgents > 0 && n >= s.o.MaxAgents {
				s.err = &LimitError{fmt.Sprintf("more than %d agents", s.o.MaxAgents)}
				return s.err
			}
			s.pairs = append(s.pairs, &pair{})
		}
		sd.agents++
		sd.byID[b.Agent] = n
		s.pairs[n].ag[side] = &agent{id: b.Agent}
	}
	p := s.pairs[n]
	ag := p.ag[side]
	switch b.Type {
	case assemble.TypeMetaInit:
		if ag.meta == nil {
			ag.meta = &assemble.Block{Model: b.Model, Prompt: b.Prompt, Name: b.Name}
		}
		return nil
	case assemble.TypeMetaFinal:
		ag.final = &assemble.Block{StopReason: b.StopReason, Usage: b.Usage, CostUSD: b.CostUSD, IsError: b.IsError, Errors: b.Errors}
		return nil
	case assemble.TypeTurnEnd:
		ag.turnEnds++
		ag.lastStop = b.StopReason
		if u := b.Usage; u != nil {
			if ag.usage == nil {
				ag.usage = &assemble.Usage{}
			}
			ag.usage.InputTokens += u.InputTokens
			ag.usage.OutputTokens += u.OutputTokens
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

// Report ends the comparison: what is held is aligned and reported. It
// is called once, after the last Add, and only when Add returned no error.
func (s *Stream) Report() *Report {
	c := s.c
	r := &Report{
		A:           Summary{Name: s.sides[0].name, Format: s.sides[0].format, Agents: s.sides[0].agents, Blocks: s.sides[0].blocks},
		B:           Summary{Name: s.sides[1].name, Format: s.sides[1].format, Agents: s.sides[1].agents, Blocks: s.sides[1].blocks},
		Differences: []Difference{},
	}
	for i, f := range c.lacked {
		if c.present[i] {
			c.notes = append(c.notes, f)
		}
	}
	for i, p := range s.pairs {
		r.Differences = append(r.Differences, c.agent(i+1, p.matched, p.ag[0], p.ag[1])...)
	}
	r.NotCompared = c.notes
	if r.NotCompared == nil {
		r.NotCompared = []Skip{}
	}
	r.Equal = len(r.Differences) == 0
	return r
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
