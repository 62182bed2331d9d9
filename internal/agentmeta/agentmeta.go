// Package agentmeta reads the meta_init and meta_final payloads of the
// anthropic_agent producer, which its two formats, the legacy XML stream
// (in a data attribute) and the JSON envelope (in the delta), share. One
// mapping onto the event model serves both decoders, so the two formats
// of one run decode to the same SessionStart and RunEnd.
package agentmeta

import (
	"encoding/json"
	"slices"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
)

// Kind is the event.SessionStart.MetaKind and event.RunEnd.MetaKind of
// these payloads.
const Kind = "anthropic_agent"

// The payloads, declared with the envelope's wire types.
type (
	Init  = wire.Init
	Final = wire.Final
	Usage = wire.Usage
)

// Reader reads the meta_init and meta_final payloads of one stream (a
// decoder keeps one), with few allocations: each meta_init is read into
// the same Init, whose keep= fields hold the last one's strings. Strings
// are immutable, so the events stay independent. The zero value is ready
// to use.
type Reader struct {
	init Init // the last meta_init read in one pass
	// json reads the payloads: its scratch for unescaped strings is
	// kept from one payload to the next (a new one would grow it from
	// nothing for each meta_final's result), but not after a payload over
	// keepScratch (big).
	json jsontext.Reader
	big  bool
}

// keepScratch is the longest payload after which the Reader keeps its
// scratch.
const keepScratch = 1 << 20

// reader returns the jsontext.Reader to read b with.
func (c *Reader) reader(b []byte) *jsontext.Reader {
	if c.big {
		c.json = jsontext.Reader{} // lets go of the scratch the last payload grew
	}
	c.big = len(b) > keepScratch
	c.json.ResetValid(b)
	return &c.json
}

// SessionStart maps a meta_init payload onto a SessionStart of agent,
// keeping the payload as Meta. ok is false when data is not a JSON
// object; the event then carries only Meta. The parsed payload is
// returned for decoders that need more of it (agent_uuid for scopes).
//
// data must be valid UTF-8, as a decoder's input is once badutf8 has
// made it so, and is handed over: it becomes Meta as it is, not copied
// (a payload is as long as the run's result), and the caller must not
// change it after; the returned UserQuery points into it.
//
// The payload is read in one pass (the generated ReadInit) when it can
// be; odd input goes to encoding/json, with the same results.
func (c *Reader) SessionStart(agent string, data []byte) (ev *event.SessionStart, m Init, ok bool) {
	return c.sessionStart(agent, data, true)
}

// sessionStart is SessionStart, with the one-pass reading off when fast
// is false (for tests: both must give the same).
func (c *Reader) sessionStart(agent string, b []byte, fast bool) (ev *event.SessionStart, m Init, ok bool) {
	ev = &event.SessionStart{Agent: agent, MetaKind: Kind}
	r := c.reader(b)
	wire.ResetInit(&c.init)
	if fast && wire.ReadInit(r, &c.init) && r.End() {
		// The Reader read valid JSON, which json.Valid accepts: b is
		// what event.JSONText would keep.
		ev.Meta = b
		m = c.init
		m.Tools = slices.Clone(m.Tools) // each event has its own
	} else {
		ev.Meta = event.JSONText(string(b))
		if json.Unmarshal(b, &m) != nil {
			return ev, Init{}, false
		}
	}
	ev.Model, ev.SessionID, ev.Tools, ev.Cwd = m.Model, m.SessionID, m.Tools, m.Cwd
	ev.ParentToolID, ev.Name, ev.Description = m.ParentToolID, m.Name, m.Description
	if m.ParentAgentUUID != nil {
		ev.ParentAgent = *m.ParentAgentUUID
	}
	// The prompt: a JSON string unquoted, null nothing, anything else
	// its JSON text.
	switch q := m.UserQuery; {
	case len(q) > 0 && q[0] == '"':
		r.ResetValid(q)
		ev.Prompt = r.String()
	case len(q) > 0 && q[0] != 'n':
		ev.Prompt = string(q)
	}
	return ev, m, true
}

// RunEnd maps a meta_final payload onto a RunEnd of agent, keeping the
// payload as Meta. The producer's cost breakdown ({"total_cost": ...,
// "currency": "USD"}) gives CostUSD when total_cost_usd is absent. data
// is valid UTF-8 and handed over, as in SessionStart.
//
// The payload is read in one pass (the generated ReadFinal) when it can
// be; odd input goes to encoding/json, with the same results.
func (c *Reader) RunEnd(agent string, data []byte) *event.RunEnd {
	return c.runEnd(agent, data, true)
}

// runEnd is RunEnd, with the one-pass reading off when fast is false.
func (c *Reader) runEnd(agent string, b []byte, fast bool) *event.RunEnd {
	ev := &event.RunEnd{Agent: agent, MetaKind: Kind}
	r := c.reader(b)
	var m Final
	var cost *wire.Cost
	if fast && wire.ReadFinal(r, &m) && r.End() {
		ev.Meta = b // valid JSON, as in SessionStart
		cost = m.ParsedCost()
	} else if ev.Meta = event.JSONText(string(b)); json.Unmarshal(b, &m) != nil {
		return ev
	}
	if cost == nil && json.Unmarshal(m.Cost, &cost) != nil {
		cost = nil // not a cost breakdown agentstream reads
	}
	ev.Turns, ev.DurationMS = m.TotalSteps, m.DurationMS
	if m.StopReason != nil {
		ev.StopReason = *m.StopReason
	}
	ev.CostUSD, ev.IsError, ev.Errors, ev.Result = m.TotalCostUSD, m.IsError, m.Errors, m.Result
	if ev.CostUSD == nil && cost != nil && (cost.Currency == nil || *cost.Currency == wire.CurrencyUSD) {
		ev.CostUSD = cost.TotalCost
	}
	if u := m.CumulativeUsage; u != nil {
		ev.Usage = &event.Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens,
			ReasoningTokens: u.ReasoningOutputTokens, ServiceTier: u.ServiceTier, Has: u.Has,
		}
	}
	return ev
}

// Turns reports what the envelope and the XML stream cannot carry of a
// run's model turns: they have no turn boundaries, so a turn's message
// id, model, usage and stop reason have no place but the run's own
// meta_init (the session's model) and meta_final (the run's stop reason
// and cumulative usage). The zero value is ready to use.
type Turns struct {
	// Each agent's session model, from its SessionStart, for the agents
	// that started last: at most openset.DefaultMax (a stream of many
	// short runs, such as Codex's, starts an agent per run). A TurnStart
	// of an agent let go of is compared with no session model, as one of
	// an agent that never started a session is.
	model openset.Map[string, string]

	// The main agent's turns, for a run end the source does not give
	// (see RunEnd).
	main     string
	haveMain bool
	turns    int
	stop     string
	usage    *event.Usage
	ended    bool // the main agent's run end came
}

// Report passes to warn what of ev the two formats cannot carry, once
// per kind when warn is an event.Losses' report.
func (t *Turns) Report(ev event.Event, warn func(what string)) {
	// A delta, most events, has nothing to report once the main agent
	// is known: it costs a test here (inlined), not a call and a type
	// switch.
	if _, ok := ev.(*event.Delta); !ok || !t.haveMain {
		t.report(ev, warn)
	}
}

// report is Report of any event.
func (t *Turns) report(ev event.Event, warn func(what string)) {
	if !t.haveMain {
		t.main, t.haveMain = ev.AgentID(), true
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		if ev.ParentAgent == "" && ev.ParentToolID == "" && t.turns == 0 {
			t.main = ev.Agent
		}
		// An agent without a model reads back as one never held does:
		// not held, it takes no place from those with one (a log of
		// many Codex runs starts an agent, with no model, per run).
		if ev.Model != "" {
			t.model.Put(ev.Agent, ev.Model)
		} else {
			t.model.Delete(ev.Agent)
		}
	case *event.TurnStart:
		if ev.MessageID != "" {
			warn("message ids")
		}
		if m, _ := t.model.Get(ev.Agent); ev.Model != "" && ev.Model != m {
			warn("models of messages (meta_init names the session's model only)")
		}
		if ev.Usage != nil {
			warn("per-turn usage (meta_final carries the run's cumulative usage only)")
		}
	case *event.TurnEnd:
		if ev.Agent == t.main {
			t.turns++
			t.stop = ev.StopReason
			if u := ev.Usage; u != nil {
				if t.usage == nil {
					t.usage = &event.Usage{}
				}
				t.usage.Add(u)
				if u.ServiceTier != "" {
					t.usage.ServiceTier = u.ServiceTier
				}
			}
		}
		if ev.Usage != nil {
			warn("per-turn usage (meta_final carries the run's cumulative usage only)")
		}
		if ev.StopReason != "" {
			warn("per-turn stop reasons (meta_final carries the run's stop reason only)")
		}
	case *event.RunEnd:
		if ev.Agent == t.main {
			t.ended = true
		}
	}
}

// ReportEnd passes to warn, at the end of the stream, what of the main
// agent's turns had no place: a source with turns but no run end of its
// own (an API body, a Codex run) has no meta_final, which alone carries a
// stop reason and usage.
func (t *Turns) ReportEnd(warn func(what string)) {
	if t.ended {
		return
	}
	if t.usage != nil {
		warn("the usage of a run without a run end (meta_final carries a run's usage only)")
	}
	if t.stop != "" {
		warn("the stop reason of a run without a run end (meta_final carries a run's stop reason only)")
	}
}

// OptString returns s, or nil for "": a value the source did not give,
// written as null.
func OptString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
