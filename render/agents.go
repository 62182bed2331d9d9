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
	seen    []string
}

// NewAgentFilter returns the filter for want.
func NewAgentFilter(want string) *AgentFilter { return &AgentFilter{want: want} }

// Event notes the agent of ev, and the main agent when ev starts it.
func (f *AgentFilter) Event(ev event.Event) {
	id := ev.AgentID()
	if !slices.Contains(f.seen, id) {
		f.seen = append(f.seen, id)
	}
	if !f.hasMain {
		f.main, f.hasMain = id, true
	}
	if s, ok := ev.(*event.SessionStart); ok && (s.ParentAgent == "" || s.ParentAgent == s.Agent) && !f.mainSet {
		f.main, f.mainSet = s.Agent, true
	}
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
// --agent named no agent of the input.
func (f *AgentFilter) Matched() bool {
	return slices.ContainsFunc(f.seen, f.Shows)
}

// Seen returns the agent ids seen, in order of appearance.
func (f *AgentFilter) Seen() []string { return slices.Clone(f.seen) }
