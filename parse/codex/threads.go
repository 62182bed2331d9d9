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
// taken once, in a table of their own (open addressing, linear probing,
// at most half full): the one forgotten, a thousand runs old, is found
// by its hash and pointer, without reading its id again, and a look-up
// is a probe or two where a Go map's insert and delete cost several
// times that per run. Each slot holds its thread's hash beside it, so
// that probing and deleting read the table alone, not the threads
// (scattered in memory) they pass over.
type threads struct {
	seed  maphash.Seed
	slots []slot  // by the hash of the id; len a power of two, at most half full
	order []slot  // oldest first from next, once it holds maxOpen (a ring)
	next  int     // where the next thread goes in a full order: the oldest
	spare *thread // the last one forgotten, for the next new one
	// cur is the thread of the decoder's agent, if it is one of slots.
	cur *thread
	// other is the usage of agents that are not in slots (Config.Agent
	// before any thread.started, a thread forgotten while it runs).
	other map[string]event.Usage
}

type thread struct {
	id    string
	usage event.Usage
}

// slot is a thread in the table and the hash of its id (th nil: empty).
type slot struct {
	hash uint64
	th   *thread
}

// The sizes of the table: a short input's first, then twice that as the
// threads grow, up to slotsLen, at most half full with maxOpen threads.
// Powers of two, as slot's mask needs (the constant below fails to
// compile when slotsLen is not).
const (
	firstSlots = 16
	slotsLen   = 2 * maxOpen
)

const _ uint = -(slotsLen & (slotsLen - 1))

// hash returns the hash of id, making the table on the first call.
func (t *threads) hash(id string) uint64 {
	if t.slots == nil {
		t.seed, t.slots = maphash.MakeSeed(), make([]slot, firstSlots)
	}
	return maphash.String(t.seed, id)
}

// grow doubles the table, moving each thread to its slot in the new one
// by its hash.
func (t *threads) grow() {
	old := t.slots
	t.slots = make([]slot, 2*len(old))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s.th != nil {
			i := int(s.hash) & mask
			for t.slots[i].th != nil {
				i = (i + 1) & mask
			}
			t.slots[i] = s
		}
	}
}

// slot returns the slot of the thread id, whose hash is h, if held, else
// the empty slot where it goes.
func (t *threads) slot(id string, h uint64) int {
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		if s := t.slots[i]; s.th == nil || s.hash == h && s.th.id == id {
			return i
		}
	}
}

// add adds id, reporting whether it was new, and, when that made one
// more than maxOpen, the thread forgotten, which is t's to reuse after
// the next add (its id is read only to report it: its memory, a
// thousand runs old, is not read otherwise).
func (t *threads) add(id string) (added bool, old *thread) {
	h := t.hash(id)
	i := t.slot(id, h)
	if t.slots[i].th != nil {
		return false, nil
	}
	if 2*(len(t.order)+1) > len(t.slots) && len(t.slots) < slotsLen {
		t.grow()
		i = t.slot(id, h)
	}
	th := t.spare
	if th == nil {
		th = &thread{}
	}
	t.spare = nil
	*th = thread{id: id}
	if len(t.other) > 0 {
		if u, ok := t.other[id]; ok {
			th.usage = u
			delete(t.other, id)
		}
	}
	t.slots[i] = slot{h, th}
	t.cur = th // a thread.started's: its turns come next
	if len(t.order) < maxOpen {
		t.order = append(t.order, slot{h, th})
		return true, nil
	}
	// The new thread takes the oldest's place in order, which is not
	// reallocated from run to run once full.
	gone := t.order[t.next]
	t.order[t.next] = slot{h, th}
	t.next = (t.next + 1) % maxOpen
	t.remove(gone)
	t.spare = gone.th
	return true, gone.th
}

// remove takes g, a thread and its hash, out of the table, moving the
// threads probed past it back (backward-shift deletion: the table keeps
// no tombstones).
func (t *threads) remove(g slot) {
	mask := len(t.slots) - 1
	i := int(g.hash) & mask
	for t.slots[i].th != g.th {
		i = (i + 1) & mask
	}
	for j := (i + 1) & mask; t.slots[j].th != nil; j = (j + 1) & mask {
		// The thread at j moves into the hole at i unless its own
		// slot lies after i (cyclically), where probing starts.
		if home := int(t.slots[j].hash) & mask; (j-home)&mask >= (j-i)&mask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = slot{}
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
	if t.slots == nil {
		return nil
	}
	th := t.slots[t.slot(agent, t.hash(agent))].th
	if th != nil {
		t.cur = th
	}
	return th
}
