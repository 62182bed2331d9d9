package render

import (
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
)

// AgentFilter chooses the agents shown (assemble --agent): "" or "all"
// every agent, "main" the main agent (the first started without a parent,
// or else the first seen), anything else the agent with that id or id
// prefix. Feed it every event with Event; Shows answers per agent.
type AgentFilter struct {
	want    string
	main    string
	hasMain bool
	mainSet bool
	matched bool // an agent seen so far matches want (not for "main")
	last    string
	// seen holds the first maxSeen agent ids, in order of appearance, and
	// known the same ids as a set.
	seen  []string
	known map[string]struct{}
}

// maxSeen caps the agent ids an AgentFilter remembers (for Seen): a
// stream of many short runs has as many agents as runs.
const maxSeen = 1024

// NewAgentFilter returns the filter for want.
func NewAgentFilter(want string) *AgentFilter { return &AgentFilter{want: want} }

// Event notes the agent of ev, and the main agent when ev starts it.
func (f *AgentFilter) Event(ev event.Event) {
	id := ev.AgentID()
	if id != f.last || len(f.seen) == 0 {
		f.note(id)
	}
	if !f.hasMain {
		f.main, f.hasMain = id, true
	}
	if s, ok := ev.(*event.SessionStart); ok && (s.ParentAgent == "" || s.ParentAgent == s.Agent) && !f.mainSet {
		f.main, f.mainSet = s.Agent, true
	}
}

// note records an agent id: most events are of the agent of the event
// before, which Event does not look up again.
func (f *AgentFilter) note(id string) {
	f.last = id
	if !f.matched && f.want != "main" && f.Shows(id) {
		f.matched = true
	}
	if _, ok := f.known[id]; ok || len(f.seen) >= maxSeen {
		return
	}
	if f.known == nil {
		f.known = make(map[string]struct{})
	}
	f.known[id] = struct{}{}
	f.seen = append(f.seen, id)
}

// All reports whether the filter shows every agent.
func (f *AgentFilter) All() bool { return f.want == "" || f.want == "all" }

// Shows reports whether the agent id is shown.
func (f *AgentFilter) Shows(id string) bool {
	switch {
	case f.All():
		return true
	case f.want == "main":
		return id == f.main
	}
	return id == f.want || (id != "" && strings.HasPrefix(id, f.want))
}

// Matched reports whether an agent seen so far is shown: false means
// --agent named no agent of the input. The main agent is one of those
// seen.
func (f *AgentFilter) Matched() bool {
	if f.want == "main" {
		return len(f.seen) > 0
	}
	return f.matched
}

// Seen returns the agent ids seen, in order of appearance: the first 1024.
func (f *AgentFilter) Seen() []string { return slices.Clone(f.seen) }
