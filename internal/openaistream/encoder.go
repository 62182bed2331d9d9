package openaistream

import (
	"io"
	"strconv"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// Encoder is the state both OpenAI encoders keep: the output, the main
// agent (the first event's), the model the session named, and the turn
// being written (one completion or response).
type Encoder struct {
	W    io.Writer
	Name string // the format's name, in warnings
	Err  error
	Buf  []byte // the message being written

	agent  string      // the scope of events whose agent is empty
	warn   func(error) // receives what the body cannot carry; nil discards it
	losses event.Losses
	main   string
	seen   bool
	model  string // from SessionStart, for turns whose TurnStart names none
	n      int    // ids made

	TurnUsage bool   // a TurnEnd carried usage
	Turn      bool   // a turn is open
	Explicit  bool   // the source has TurnStart events
	ID        string // the turn's id
	Model     string // the turn's model
	Created   int64  // the turn's creation time the source said (TurnStart.Created), or 0
	// pending are the client tool calls of the turn without a result, at
	// most openset.DefaultMax (beyond, the oldest is let go of: the turn
	// of a source without turn boundaries may then end before its result).
	pending *openset.Set[string]
	// others are the agents other than the main one whose turn is open,
	// at most openset.DefaultMax (beyond, the oldest is let go of).
	others *openset.Set[string]
}

// NewEncoder returns the shared state of an encoder of format name
// writing to w: agent is the scope of events whose agent is empty, warn
// receives what the body cannot carry (nil discards it).
func NewEncoder(w io.Writer, name, agent string, warn func(error)) Encoder {
	return Encoder{W: w, Name: name, agent: agent, warn: warn}
}

// Warn reports once that the format cannot carry what.
func (e *Encoder) Warn(what string) { e.losses.Report(e.warn, e.Name, what) }

// Agent returns ev's agent (the encoder's agent when it names none) and whether
// it is the main agent, the first event's.
func (e *Encoder) Agent(ev event.Event) (agent string, main bool) {
	agent = ev.AgentID()
	if agent == "" {
		agent = e.agent
	}
	if !e.seen {
		e.seen, e.main = true, agent
	}
	return agent, agent == e.main
}

// Main returns the main agent.
func (e *Encoder) Main() string { return e.main }

// NewID returns an id made by agentstream: prefix and the number of ids
// made so far, this one included, in four digits at least (as %04d
// writes it; the formats' documented unknown form, openai.Made).
func (e *Encoder) NewID(prefix string) string {
	e.n++
	var buf [48]byte
	b := append(buf[:0], prefix...)
	for k := 1000; k > 1 && e.n < k; k /= 10 {
		b = append(b, '0')
	}
	return string(strconv.AppendInt(b, int64(e.n), 10))
}

// Begin opens a turn with id (made with idPrefix when empty) and model
// (the session's when empty).
func (e *Encoder) Begin(id, model, idPrefix string) {
	if id == "" {
		id = e.NewID(idPrefix)
	}
	if model == "" {
		model = e.model
	}
	e.Turn, e.ID, e.Model, e.Created = true, id, model, 0
	if e.pending != nil {
		for k := range e.pending.All() {
			e.pending.Remove(k)
		}
	}
}

// Session notes a SessionStart's model and reports the session metadata
// lost.
func (e *Encoder) Session(ev *event.SessionStart) {
	if ev.Model != "" {
		e.model = ev.Model
	}
	e.Warn("session metadata")
}

// Called notes a client tool call of the turn, waiting for its result.
func (e *Encoder) Called(id string) {
	if e.pending == nil {
		e.pending = openset.New[string](0)
	}
	e.pending.Add(id)
}

// Result handles a tool result: lost (a client sends it in the next
// request; a server tool's, when the encoder cannot write it back, is
// warned about as server). It reports whether the turn is over: the
// source has no turn boundaries and every client tool call of the turn
// (calls > 0) has its result.
func (e *Encoder) Result(ev *event.ToolResult, calls int, server string) bool {
	if ev.Server {
		e.Warn(server)
		return false
	}
	e.Warn("client tool results (the client sends them in the next request)")
	if e.pending != nil {
		e.pending.Remove(ev.ID)
	}
	return e.Turn && !e.Explicit && calls > 0 && e.Pending() == 0
}

// Pending returns how many client tool calls of the turn wait for their
// result.
func (e *Encoder) Pending() int {
	if e.pending == nil {
		return 0
	}
	return e.pending.Len()
}

// Write writes e.Buf, the message built, unless an error came before.
func (e *Encoder) Write() error {
	if e.Err != nil {
		return e.Err
	}
	_, e.Err = e.W.Write(e.Buf)
	return e.Err
}

// Other notes an event of an agent other than the main one (a subagent,
// another choice of an n > 1 completion): its turn is open from its
// TurnStart to its TurnEnd.
func (e *Encoder) Other(agent string, ev event.Event) {
	switch ev.(type) {
	case *event.TurnStart:
		if e.others == nil {
			e.others = openset.New[string](0)
		}
		e.others.Add(agent)
	case *event.TurnEnd:
		if e.others != nil {
			e.others.Remove(agent)
		}
	}
}

// Waits reports whether the main agent's turn, which its source just
// ended, is not over yet for the run: a client tool call of it waits
// for its result (a subagent may be running it), or another agent's turn
// is open (the other choices of its completion are still streaming). An
// encoder holds the end of such a turn until the main agent goes on, so
// that a cut before then leaves the response unfinished.
func (e *Encoder) Waits() bool {
	return e.Pending() > 0 || e.Others() > 0
}

// Others returns how many other agents' turns are open, at most
// openset.DefaultMax.
func (e *Encoder) Others() int {
	if e.others == nil {
		return 0
	}
	return e.others.Len()
}
