package codex

import (
	"hash/maphash"

	"github.com/agentstream/agentstream/event"
)

// threads are the threads the decoder keeps apart, at most maxOpen: the
// agent scopes opened, in the order they were seen, each with the last
// cumulative usage of its turn.completed. A thread past the cap forgets
// the oldest, its usage with it.
//
// A log of many short runs starts a thread for each: a thread is looked
// up once when it starts, and its turns' usage is reached through cur,
// not by its id again. The threads are found by the hash of their id,
// taken once: the one forgotten, a thousand runs old, is let go of
// without reading its id again.
type threads struct {
	seed  maphash.Seed
	m     map[uint64]*thread // by the hash of the id; those of one hash chained (next)
	order []*thread          // oldest first
	spare *thread            // the last one forgotten, for the next new one
	// cur is the thread of the decoder's agent, if it is one of m.
	cur *thread
	// other is the usage of agents that are not in m (Config.Agent
	// before any thread.started, a thread forgotten while it runs).
	other map[string]event.Usage
}

type thread struct {
	id    string
	hash  uint64
	next  *thread // the next one of the same hash
	usage event.Usage
}

// lookup returns the thread id, if held, and the hash of id.
func (t *threads) lookup(id string) (*thread, uint64) {
	th, _, h := t.lookupHead(id)
	return th, h
}

// lookupHead is lookup, and also returns the first thread of id's hash.
func (t *threads) lookupHead(id string) (th, head *thread, h uint64) {
	if t.m == nil {
		t.seed, t.m = maphash.MakeSeed(), map[uint64]*thread{}
	}
	h = maphash.String(t.seed, id)
	head = t.m[h]
	return t.get(id, head), head, h
}

// get returns the thread id of the chain that starts at th, if held.
func (t *threads) get(id string, th *thread) *thread {
	for ; th != nil; th = th.next {
		if th.id == id {
			return th
		}
	}
	return nil
}

// add adds id, reporting whether it was new, and, when that made one
// more than maxOpen, the id forgotten.
func (t *threads) add(id string) (added bool, old string, out bool) {
	found, head, h := t.lookupHead(id)
	if found != nil {
		return false, "", false
	}
	th := t.spare
	if th == nil {
		th = &thread{}
	}
	t.spare = nil
	*th = thread{id: id, hash: h, next: head}
	if len(t.other) > 0 {
		if u, ok := t.other[id]; ok {
			th.usage = u
			delete(t.other, id)
		}
	}
	t.m[h] = th
	t.order = append(t.order, th)
	t.cur = th // a thread.started's: its turns come next
	if len(t.order) <= maxOpen {
		return true, "", false
	}
	gone := t.order[0]
	t.order[0] = nil
	t.order = t.order[1:]
	t.unlink(gone)
	if t.cur == gone {
		t.cur = nil
	}
	t.spare = gone
	return true, gone.id, true
}

// unlink takes th out of m.
func (t *threads) unlink(th *thread) {
	head := t.m[th.hash]
	switch {
	case head == th && th.next == nil:
		delete(t.m, th.hash)
	case head == th:
		t.m[th.hash] = th.next
	default:
		for p := head; p != nil; p = p.next {
			if p.next == th {
				p.next = th.next
				break
			}
		}
	}
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
	th, _ := t.lookup(agent)
	if th != nil {
		t.cur = th
	}
	return th
}
