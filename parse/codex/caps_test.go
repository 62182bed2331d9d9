package codex

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
)

// TestCaps: the items open at once and the threads kept apart are
// capped; beyond the cap the oldest is let go and reported once,
// positioned.
func TestCaps(t *testing.T) {
	t.Parallel()
	items := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"type":"thread.started","thread_id":"th"}` + "\n" + `{"type":"turn.started"}` + "\n")
		for i := range n {
			fmt.Fprintf(&b, `{"type":"item.started","item":{"id":"item_%d","type":"command_execution","command":"c","status":"in_progress"}}`+"\n", i)
		}
		b.WriteString(`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}` + "\n")
		return b.String()
	}
	threads := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"type":"thread.started","thread_id":"th"}` + "\n")
		for i := range n {
			fmt.Fprintf(&b, `{"type":"item.completed","item":{"id":"c%d","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"th","receiver_thread_ids":["t%d"],"prompt":"p","agents_states":{},"status":"completed"}}`+"\n", i, i)
		}
		return b.String()
	}
	tests := []struct {
		name    string
		in      string
		want    []string // the problems
		starts  int      // SessionStarts
		results int      // ToolResults
	}{
		{"items within the cap", items(maxOpen), nil, 1, 0},
		{
			"one item too many", items(maxOpen + 1),
			[]string{`in:1027:1: more than 1024 items open at once; let go of the oldest, command_execution "item_0" (later ones are not reported)`},
			1, 0,
		},
		{
			"many items too many", items(maxOpen + 5),
			[]string{`in:1027:1: more than 1024 items open at once; let go of the oldest, command_execution "item_0" (later ones are not reported)`},
			1, 0,
		},
		{"threads within the cap", threads(maxOpen - 1), nil, maxOpen, maxOpen - 1},
		{
			"one thread too many", threads(maxOpen),
			[]string{`in:1025:1: more than 1024 threads; forgot the oldest, "th" (later ones are not reported)`},
			maxOpen + 1, maxOpen,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var problems []string
			starts, results := 0, 0
			for _, it := range eventtest.Collect(NewDecoder(strings.NewReader(tt.in), &Config{Source: "in"})) {
				switch it.Event.(type) {
				case nil:
					problems = append(problems, it.Err)
				case *event.SessionStart:
					starts++
				case *event.ToolResult:
					results++
				}
			}
			if strings.Join(problems, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(tt.want, "\n"))
			}
			if starts != tt.starts || results != tt.results {
				t.Errorf("%d starts, %d results; want %d, %d", starts, results, tt.starts, tt.results)
			}
		})
	}
	// The problem wraps event.ErrTooManyOpen.
	d := NewDecoder(strings.NewReader(items(maxOpen+1)), nil)
	for {
		_, err := d.Next()
		if err == nil {
			continue
		}
		if !errors.Is(err, event.ErrTooManyOpen) {
			t.Errorf("problem %v does not wrap ErrTooManyOpen", err)
		}
		break
	}
}

// TestThreadUsage: a thread's cumulative usage is kept until the thread
// is forgotten past the cap, even while it runs; counted again from
// then on, and kept when it starts again.
func TestThreadUsage(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	turn := func(input int) {
		fmt.Fprintf(&b, `{"type":"turn.started"}`+"\n"+`{"type":"turn.completed","usage":{"input_tokens":%d,"output_tokens":1}}`+"\n", input)
	}
	b.WriteString(`{"type":"thread.started","thread_id":"th"}` + "\n")
	turn(10)
	for i := range maxOpen { // th is forgotten at the last
		fmt.Fprintf(&b, `{"type":"item.completed","item":{"id":"c%d","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"th","receiver_thread_ids":["t%d"],"agents_states":{},"status":"completed"}}`+"\n", i, i)
	}
	turn(15)
	turn(20)
	b.WriteString(`{"type":"thread.started","thread_id":"th"}` + "\n")
	turn(26)
	b.WriteString(`{"type":"thread.started","thread_id":"new"}` + "\n")
	turn(3)
	var got []int64
	for _, it := range eventtest.Collect(NewDecoder(strings.NewReader(b.String()), &Config{Source: "in"})) {
		if e, ok := it.Event.(*event.TurnEnd); ok {
			got = append(got, e.Usage.InputTokens)
		}
	}
	if want := []int64{10, 15, 5, 6, 3}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("input tokens per turn %v, want %v", got, want)
	}
}

// TestThreadsTable: threads whose hashes collide, in the table's last
// slots too (where probing wraps around), and whose hashes differ only
// above the bits a slot holds, are found by their ids after any sequence
// of adds and removes, as a map of the same ids finds them.
func TestThreadsTable(t *testing.T) {
	t.Parallel()
	var ts threads
	ts.hash("")                  // makes the table
	ts.ring = make([]thread, 40) // id i at ring[i]
	last := uint64(len(ts.slots) - 1)
	// Of slots 0, 1, last, last-1, 7, and 1 again with the same low bits.
	hashes := []uint64{0, 1, last, last - 1, last + 1 + 7, 1<<40 | 1}
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[string]uint64{} // the hashes of the ids held
	for range 20000 {
		at := rng.IntN(len(ts.ring))
		id := strconv.Itoa(at)
		h, held := want[id]
		if !held {
			h = hashes[rng.IntN(len(hashes))]
		}
		i := ts.slot(id, h)
		switch {
		case held && ts.slots[i] != newSlot(h, at), !held && ts.slots[i] != 0:
			t.Fatalf("slot of %s holds %x (held: %v)", id, ts.slots[i], held)
		case held:
			ts.remove(h, at)
			delete(want, id)
		default:
			ts.ring[at] = thread{id: id, hash: h}
			ts.slots[i], want[id] = newSlot(h, at), h
		}
		n := 0
		for _, s := range ts.slots {
			if s != 0 {
				n++
				th := ts.ring[s&placeMask-1]
				if h, ok := want[th.id]; !ok || h != th.hash || ts.slots[ts.slot(th.id, th.hash)] != s {
					t.Fatalf("%s not found in the table", th.id)
				}
			}
		}
		if n != len(want) {
			t.Fatalf("the table holds %d threads, want %d", n, len(want))
		}
	}
}

// TestThreadsForget: past the cap, each new thread forgets the oldest
// held, however many times order has gone round; the rest are found.
func TestThreadsForget(t *testing.T) {
	t.Parallel()
	var ts threads
	for i := range 3*maxOpen + 7 {
		added, forgot, old := ts.add(strconv.Itoa(i))
		switch {
		case !added:
			t.Fatalf("thread %d not added", i)
		case i < maxOpen && forgot:
			t.Fatalf("thread %d forgot %s within the cap", i, old)
		case i >= maxOpen && (!forgot || old != strconv.Itoa(i-maxOpen)):
			t.Fatalf("thread %d forgot %q (%v), want %d", i, old, forgot, i-maxOpen)
		}
	}
	for i := range 3*maxOpen + 7 {
		if held := ts.find(strconv.Itoa(i)) != nil; held != (i >= 2*maxOpen+7) {
			t.Errorf("thread %d held: %v", i, held)
		}
	}
}
