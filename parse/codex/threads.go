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
// not by its id again. The threads are held in ring, in the order they
// came (the one forgotten is the next one there, where the new one
// goes), and found by the hash of their id, taken once, in a table of
// their own (open addressing, linear probing, at most half full), where
// a Go map's insert and delete cost several times a probe or two per run.
// Each slot is four bytes, the thread's place in ring and the low bits of
// its hash, so that the table stays in cache between runs, and probing
// and deleting read the table alone, not the threads they pass over.
type threads struct {
	seed  maphash.Seed
	slots []uint32 // by the hash of the id (see slot)
	ring  []thread // oldest first from next, once it holds maxOpen
	next  int      // where the next thread goes in a full ring: the oldest
	// cur is the place in ring plus one of the decoder's agent's thread,
	// if it is one held (0: none).
	cur int
	// other is the usage of agents that are not held (Config.Agent
	// before any thread.started, a thread forgotten while it runs).
	other map[string]event.Usage
}

type thread struct {
	id    string
	hash  uint64
	usage event.Usage
}

// A slot holds the place in ring plus one of its thread (0: empty) in its
// low placeBits, and the low bits of the thread's hash above them, which
// give its place in the table: of slotsLen slots (8 KiB), at most half
// full, a power of two as the mask of a place needs (the constants below
// fail to compile when it is not, or a place in ring does not fit
// placeBits).
const (
	placeBits = 11
	placeMask = 1<<placeBits - 1
	slotsLen  = 2 * maxOpen
	slotsMask = slotsLen - 1

	_ uint = -(slotsLen & slotsMask)
	_ uint = placeMask - maxOpen
)

// newSlot returns the slot of the thread at ring[at], of hash h.
func newSlot(h uint64, at int) uint32 { return uint32(h)<<placeBits | uint32(at+1) }

// hash returns the hash of id, making the table on the first call.
func (t *threads) hash(id string) uint64 {
	if t.slots == nil {
		t.seed, t.slots = maphash.MakeSeed(), make([]uint32, slotsLen)
	}
	return maphash.String(t.seed, id)
}

// slot returns the place in the table of the thread id, whose hash is h,
// if held, else the empty one where it goes.
func (t *threads) slot(id string, h uint64) int {
	low := uint32(h) << placeBits
	for i := int(h) & slotsMask; ; i = (i + 1) & slotsMask {
		s := t.slots[i]
		if s == 0 {
			return i
		}
		if s&^placeMask == low {
			if th := &t.ring[s&placeMask-1]; th.hash == h && th.id == id {
				return i
			}
		}
	}
}

// add adds id, reporting whether it was new, and, when that made one
// more than maxOpen, the id of the thread forgotten.
func (t *threads) add(id string) (added, forgot bool, old string) {
	h := t.hash(id)
	i := t.slot(id, h)
	if t.slots[i] != 0 {
		return false, false, ""
	}
	th := thread{id: id, hash: h}
	if len(t.other) > 0 {
		if u, ok := t.other[id]; ok {
			th.usage = u
			delete(t.other, id)
		}
	}
	at := len(t.ring)
	if at < maxOpen {
		t.ring = append(t.ring, th)
	} else {
		// The new thread takes the oldest's place in ring.
		at = t.next
		t.next = (t.next + 1) % maxOpen
		old, forgot = t.ring[at].id, true
		t.remove(t.ring[at].hash, at)
		i = t.slot(id, h) // the removal may have moved threads back
		t.ring[at] = th
	}
	t.slots[i] = newSlot(h, at)
	t.cur = at + 1 // a thread.started's: its turns come next
	return true, forgot, old
}

// remove takes the thread at ring[at], of hash h, out of the table,
// moving the threads probed past it back (backward-shift deletion: the
// table keeps no tombstones).
func (t *threads) remove(h uint64, at int) {
	i := int(h) & slotsMask
	for int(t.slots[i]&placeMask) != at+1 {
		i = (i + 1) & slotsMask
	}
	for j := (i + 1) & slotsMask; t.slots[j] != 0; j = (j + 1) & slotsMask {
		// The thread at j moves into the hole at i unless its own
		// place lies after i (cyclically), where probing starts.
		if home := int(t.slots[j]>>placeBits) & slotsMask; (j-home)&slotsMask >= (j-i)&slotsMask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = 0
}

// swapUsage keeps u as the last cumulative usage of agent and returns
// the one it replaces (zero if none): the agent is looked up once.
func (t *threads) swapUsage(agent string, u event.Usage) (last event.Usage) {
	if th := t.find(agent); th != nil {
		last, th.usage = th.usage, u
		return last
	}
	if t.other == nil {
		t.other = map[string]event.Usage{}
	}
	last, t.other[agent] = t.other[agent], u
	return last
}

// find returns the thread agent, if it is held.
func (t *threads) find(agent string) *thread {
	if c := t.cur; c != 0 && t.ring[c-1].id == agent {
		return &t.ring[c-1]
	}
	if t.slots == nil {
		return nil
	}
	s := t.slots[t.slot(agent, t.hash(agent))]
	if s == 0 {
		return nil
	}
	t.cur = int(s & placeMask)
	return &t.ring[t.cur-1]
}
