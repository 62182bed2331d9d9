package usage

import (
	"slices"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// Tokens counts the tokens of one message or of a group of them. Input is
// as the producer counts it: Anthropic models leave cache reads and writes
// out of it, OpenAI models include cache reads in it (Prices knows which).
// Reasoning is part of Output.
type Tokens struct {
	Input      int64 `json:"input_tokens"`
	Output     int64 `json:"output_tokens"`
	CacheWrite int64 `json:"cache_write_tokens"`
	CacheRead  int64 `json:"cache_read_tokens"`
	Reasoning  int64 `json:"reasoning_tokens"`
	// CacheWrite1h is the part of CacheWrite written to the one-hour
	// cache (Claude Code's session logs say), priced apart.
	CacheWrite1h int64 `json:"cache_write_1h_tokens,omitempty"`
}

// Add adds u to t.
func (t *Tokens) Add(u Tokens) {
	t.Input += u.Input
	t.Output += u.Output
	t.CacheWrite += u.CacheWrite
	t.CacheRead += u.CacheRead
	t.Reasoning += u.Reasoning
	t.CacheWrite1h += u.CacheWrite1h
}

// IsZero reports whether t counts nothing.
func (t Tokens) IsZero() bool { return t == Tokens{} }

// FromEvent converts an event's usage.
func FromEvent(u *event.Usage) Tokens {
	if u == nil {
		return Tokens{}
	}
	return Tokens{
		Input: u.InputTokens, Output: u.OutputTokens, CacheWrite: u.CacheWriteTokens,
		CacheRead: u.CacheReadTokens, Reasoning: u.ReasoningTokens,
	}
}

// Message is the usage of one model message.
type Message struct {
	Agent string
	ID    string // the producer's message id; "" when it has none
	Model string // the model that wrote it, "" when the stream does not say
	// FromRunEnd: the agent's turns carried no usage and this is its
	// run end's cumulative usage.
	FromRunEnd bool
	Tokens     Tokens
}

// Run is what a Counter found in one run.
type Run struct {
	Name      string // the input's name, set by the caller
	Day       string // the run's day (YYYY-MM-DD), set by the caller; "" when unknown
	Session   string // the main agent's session id
	Model     string // the main agent's model
	MainAgent string
	// Agents maps each agent with a session start, usage, a cost or a run
	// end, and the first agent seen, to its parent ("" for a top-level one).
	Agents map[string]string
	// Messages in the order their first usage arrived.
	Messages []Message
	// CostUSD is the cost the stream itself reports for the run (the sum
	// of its top-level agents' run ends), nil when it reports none.
	CostUSD *float64
	// ByModel is what the run's own end says each model used over the
	// whole run, subagents included (Claude's result.modelUsage), with
	// each model's cost; nil when it does not say.
	ByModel    []ModelTotal
	DurationMS int64
	Turns      int // model messages seen, with or without usage
	Ended      bool
	Events     int // events read
}

// Tokens returns the run's total.
func (r *Run) Tokens() Tokens {
	var t Tokens
	for _, m := range r.Messages {
		t.Add(m.Tokens)
	}
	return t
}

// ModelTotal is a run's total use of one model, as its end reports it.
type ModelTotal struct {
	Model   string
	Tokens  Tokens
	CostUSD *float64
}

// Counter accumulates the usage of one run from its events. Memory: per
// message with usage a Message and its id's index; per agent that is a
// subagent, reports a run end or a cost, a few strings; nothing for an
// agent that only streams content (a stream of a million agents with one
// delta each holds nothing per agent); the models of at most MaxOpenTurns
// open turns.
type Counter struct {
	main    string
	mainSet bool
	seen    bool
	session string

	parents map[string]string
	order   []string // agents in order of appearance
	model   map[string]string
	turn    map[string]string    // model of the agent's current turn, when it names one
	open    *openset.Set[string] // agents in turn, oldest first
	msgs    []Message
	byID    map[msgKey]int
	counted map[string]bool // agents with message usage
	turns   int
	anon    int
	forgot  int // open turns whose model was forgotten past MaxOpenTurns

	ends     map[string]runEnd
	turnCost map[string]float64 // the sum of the turns' own costs (OpenCode's steps), per agent
	byModel  []ModelTotal
	ended    bool
	events   int
}

type msgKey struct{ agent, id string }

type runEnd struct {
	tokens   *Tokens
	cost     *float64
	duration int64
}

// NewCounter returns an empty counter.
func NewCounter() *Counter {
	return &Counter{
		parents: map[string]string{}, model: map[string]string{}, turn: map[string]string{}, open: openset.New[string](MaxOpenTurns),
		byID: map[msgKey]int{}, counted: map[string]bool{}, ends: map[string]runEnd{},
		turnCost: map[string]float64{},
	}
}

// MaxOpenTurns caps the open turns whose model the Counter keeps: past it
// the turn opened longest ago is forgotten, and its usage is counted
// under its agent's model (Forgotten counts them).
const MaxOpenTurns = openset.DefaultMax

// agent registers id as an agent with something to count.
func (c *Counter) agent(id string) {
	if _, ok := c.parents[id]; !ok {
		c.parents[id] = ""
		c.order = append(c.order, id)
	}
}

// Main returns the main agent: the one whose session has no parent, else
// the first seen.
func (c *Counter) Main() string { return c.main }

// Add feeds one event.
func (c *Counter) Add(ev event.Event) {
	a := ev.AgentID()
	if !c.seen {
		c.main, c.seen = a, true
		c.agent(a)
	}
	c.events++
	switch e := ev.(type) {
	case *event.SessionStart:
		c.agent(a)
		if e.ParentAgent != "" && e.ParentAgent != a {
			c.agent(e.ParentAgent)
			c.parents[a] = e.ParentAgent
		} else if !c.mainSet {
			c.main, c.mainSet = a, true
			c.session = e.SessionID
		}
		if e.Model != "" {
			c.model[a] = e.Model
		}
	case *event.TurnStart:
		delete(c.turn, a)
		c.open.Remove(a)
		if e.Model != "" {
			c.turn[a] = e.Model
			if old, out := c.open.Add(a); out {
				delete(c.turn, old)
				c.forgot++
			}
		}
	case *event.TurnEnd:
		// The turn's own model, else the agent's.
		model, own := c.turn[a], true
		if model == "" {
			model, own = c.model[a], false
		}
		delete(c.turn, a)
		c.open.Remove(a)
		if e.CostUSD != nil {
			c.agent(a)
			c.turnCost[a] += *e.CostUSD
		}
		if e.MessageID == "" {
			c.turns++
		} else if _, ok := c.byID[msgKey{a, e.MessageID}]; !ok {
			c.turns++
		}
		if e.Usage == nil {
			return
		}
		c.agent(a)
		c.counted[a] = true
		m := Message{Agent: a, ID: e.MessageID, Model: model, Tokens: FromEvent(e.Usage)}
		if e.MessageID == "" {
			c.anon++
			c.msgs = append(c.msgs, m)
			return
		}
		k := msgKey{a, e.MessageID}
		if i, ok := c.byID[k]; ok {
			// The same message again: the last usage is the most
			// complete; keep its model unless this turn names one.
			if !own && c.msgs[i].Model != "" {
				m.Model = c.msgs[i].Model
			}
			c.msgs[i] = m
			return
		}
		c.byID[k] = len(c.msgs)
		c.msgs = append(c.msgs, m)
	case *event.RunEnd:
		c.agent(a)
		c.ended = true
		end := c.ends[a]
		if e.Usage != nil {
			t := FromEvent(e.Usage)
			end.tokens = &t
		}
		if e.CostUSD != nil {
			v := *e.CostUSD
			end.cost = &v
		}
		if e.DurationMS > 0 {
			end.duration = e.DurationMS
		}
		if c.parents[a] == "" {
			for _, m := range e.Models {
				t := ModelTotal{Model: m.Model, Tokens: FromEvent(&m.Usage)}
				if m.CostUSD != nil {
					v := *m.CostUSD
					t.CostUSD = &v
				}
				c.byModel = append(c.byModel, t)
			}
		}
		c.ends[a] = end
	}
}

// Run returns what was counted so far.
func (c *Counter) Run() Run {
	r := Run{
		Session: c.session, Model: c.model[c.main], MainAgent: c.main,
		Agents: map[string]string{}, Turns: c.turns, Ended: c.ended, Events: c.events,
	}
	for id, p := range c.parents {
		r.Agents[id] = p
	}
	r.Messages = slices.Clone(c.msgs)
	r.ByModel = slices.Clone(c.byModel)
	for _, a := range c.order {
		end, ok := c.ends[a]
		if cost, has := c.turnCost[a]; has && end.cost == nil {
			// No run end says the cost: the turns' own costs do.
			end.cost, ok = &cost, true
		}
		if !ok {
			continue
		}
		if end.tokens != nil && !c.counted[a] {
			r.Messages = append(r.Messages, Message{Agent: a, Model: c.model[a], FromRunEnd: true, Tokens: *end.tokens})
		}
		if c.parents[a] != "" {
			continue
		}
		if end.cost != nil {
			v := *end.cost
			if r.CostUSD != nil {
				v += *r.CostUSD
			}
			r.CostUSD = &v
		}
		if a == c.main && end.duration > 0 {
			r.DurationMS = end.duration
		}
	}
	return r
}

// Forgotten returns the number of turns whose model the counter forgot
// because more than MaxOpenTurns were open at once (their usage counts
// under their agent's model), for the caller to report.
func (c *Counter) Forgotten() int { return c.forgot }

// Len returns the number of messages with usage the counter holds.
func (c *Counter) Len() int { return len(c.msgs) }

// Agent returns the tokens counted for one agent, and whether it has any.
func (c *Counter) Agent(id string) (Tokens, bool) {
	var t Tokens
	found := false
	for _, m := range c.msgs {
		if m.Agent == id {
			t.Add(m.Tokens)
			found = true
		}
	}
	if !found {
		if end, ok := c.ends[id]; ok && end.tokens != nil {
			return *end.tokens, true
		}
	}
	return t, found
}
