package assemble_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
)

// FuzzAssemble feeds a fuzzed sequence of block events over a few agents
// to an assembler with a small MaxOpen and a small size cap. Whatever the
// order, no text is lost or repeated: per agent and kind, the blocks'
// text in output order is the deltas' text in input order, except what a
// block over the size cap dropped (and said so).
func FuzzAssemble(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(2), uint8(10))
	f.Add([]byte("\x10\x21\x32\x43\x54\x65\x76\x87\x98\xa9\xba\xcb"), uint8(1), uint8(3))
	f.Fuzz(func(t *testing.T, ops []byte, maxOpen, maxBytes uint8) {
		a := assemble.New(int(maxBytes%32) + 1)
		a.MaxOpen = int(maxOpen%8) + 1
		kinds := []event.BlockKind{event.Text, event.Thinking}
		want := map[string]string{}
		got := map[string]string{}
		dropped := map[string]bool{}
		collect := func(bs []*assemble.Block) {
			for _, b := range bs {
				if b.Type == assemble.TypeText || b.Type == assemble.TypeThinking {
					got[b.Agent+"/"+b.Type] += b.Text
				}
			}
		}
		for i, op := range ops {
			agent := strconv.Itoa(int(op>>4) % 5)
			kind := kinds[int(op>>3)&1]
			var ev event.Event
			switch op % 8 {
			case 0:
				ev = &event.BlockStart{Agent: agent, Kind: kind}
			case 1, 2, 3, 4:
				text := strconv.Itoa(i) + ","
				want[agent+"/"+string(kind)] += text
				ev = &event.Delta{Agent: agent, Kind: kind, Text: text}
			case 5, 6:
				ev = &event.BlockEnd{Agent: agent, Kind: kind}
			case 7:
				ev = &event.Citations{Agent: agent, Items: []event.Citation{{Type: "c"}}}
			}
			bs, err := a.Add(ev)
			if d, ok := ev.(*event.Delta); ok && errors.Is(err, assemble.ErrBlockTooLarge) {
				dropped[agent+"/"+string(d.Kind)] = true
			}
			collect(bs)
		}
		collect(a.Flush())
		for k := range dropped {
			delete(want, k)
			delete(got, k)
		}
		for k, v := range want {
			if v == "" {
				delete(want, k)
			}
		}
		for k, v := range got {
			if v == "" {
				delete(got, k)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("text per agent and kind (-deltas +blocks):\n%s", diff)
		}
	})
}
