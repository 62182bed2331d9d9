package codex

import "github.com/agentstream/agentstream/event"

// threads are the threads the decoder keeps apart, at most maxOpen: the
// agent scopes opened, in the order they were seen, each with the last
// cumulative usage of its turn.completed. A thread past the cap forgets
// the oldest, its usage with it.
//
// A log of many short runs starts a thread for each: a thread is looked
// up once when it starts, and its turns' usage is reached through cur,
// not by its id again.
type threads struct {
	m     map[string]*thread
	order []*thread // oldest first
	spare *thread   // the last one forgotten, for the next new one
	// cur is the thread of the decoder's agent, if it is one of m.
	cur *thread
	// other is the usage of agents that are not in m (Config.Agent
	// before any thread.started, a thread forgotten while it runs).
	other map[string]event.Usage
}

type thread struct {
	id    string
	usage event.Usage
}

// add adds id, reporting whether it was new, and, when that made one
// more than maxOpen, the id forgotten.
func (t *threads) add(id string) (added bool, old string, out bool) {
	if t.m[id] != nil {
		return false, "", false
	}
	if t.m == nil {
		t.m = map[string]*thread{}
	}
	th := t.spare
	if th == nil {
		th = &thread{}
	}
	t.spare = nil
	th.id, th.usage = id, event.Usage{}
	if len(t.other) > 0 {
		if u, ok := t.other[id]; ok {
			th.usage = u
			delete(t.other, id)
		}
	}
	t.m[id] = th
	t.order = append(t.order, th)
	t.cur = th // a thread.started's: its turns come next
	if len(t.m) <= maxOpen {
		return true, "", false
	}
	gone := t.order[0]
	t.order[0] = nil
	t.order = t.order[1:]
	delete(t.m, gone.id)
	if t.cur == gone {
		t.cur = nil
	}
	t.spare = gone
	return true, gone.id, true
}

// lastUsage returns the last cumulative usage of agent (zero if none).
func (t *threads) lastUsage(agent string) event.Usage {
	if th := t.find(agent); th != nil {
		return th.usage
	}
	return t.other[agent]
}

// setUsage keeps u as the last cumulative usage of agent.
func (t *threads) setUsage(agent string, u event.Usage) {
	if th := t.find(agent); th != nil {
		th.usage = u
		return
	}
	if t.other == nil {
		t.other = map[string]event.Usage{}
	}
	t.other[agent] = u
}

// find returns the thread agent, if it is held.
func (t *threads) find(agent string) *thread {
	if c := t.cur; c != nil && c.id == agent {
		return c
	}
	th := t.m[agent]
	if th != nil {
		t.cur = th
	}
	return th
}
