package assemble_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
)

// FuzzReuse feeds a fuzzed sequence of events of every kind the
// assembler treats apart, over a few agents, to an assembler with Reuse
// and to one without, both with a small MaxOpen: the blocks each call
// returns, written at once (as Reuse allows), are the same.
func FuzzReuse(f *testing.F) {
	f.Add([]byte{0, 1, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15}, uint8(2))
	f.Add([]byte("\x00\x10\x21\x0f\x1e\x2d\x3c\x4b\x5a\x69\x78\x87\x96\xa5\xb4\xc3"), uint8(1))
	f.Fuzz(func(t *testing.T, ops []byte, maxOpen uint8) {
		kept, reused := assemble.New(16), assemble.New(16)
		kept.MaxOpen = int(maxOpen%4) + 1
		reused.MaxOpen, reused.Reuse = kept.MaxOpen, true
		write := func(bs []*assemble.Block) string {
			if len(bs) == 0 {
				return "" // none: nil or empty alike
			}
			b, err := json.Marshal(bs)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		// Without Reuse, what a call returns stays as it was returned.
		var keptCalls [][]*assemble.Block
		var keptJSON []string
		for i, op := range ops {
			agent := strconv.Itoa(int(op>>5) % 3)
			kind := []event.BlockKind{event.Text, event.Thinking}[int(op>>4)&1]
			id := strconv.Itoa(int(op>>4) % 3)
			var ev event.Event
			switch op % 16 {
			case 0:
				ev = &event.BlockStart{Agent: agent, Kind: kind}
			case 1, 2:
				ev = &event.Delta{Agent: agent, Kind: kind, Text: strconv.Itoa(i) + ","}
			case 3:
				ev = &event.BlockEnd{Agent: agent, Kind: kind, Signature: "s" + strconv.Itoa(i)}
			case 4:
				ev = &event.Citations{Agent: agent, Items: []event.Citation{{Type: "c", URL: new(string)}}}
			case 5:
				ev = &event.ToolCall{Agent: agent, ID: id, Name: "n", Input: json.RawMessage(`{"i":` + strconv.Itoa(i) + `}`)}
			case 6:
				ev = &event.ToolResult{Agent: agent, ID: id, Content: []event.Part{{Type: "text", Text: "a"}, {Type: "text", Text: strconv.Itoa(i)}}}
			case 7:
				ev = &event.FileChange{Agent: agent, ID: id, Status: "in_progress", Changes: []event.Change{{Path: "p" + strconv.Itoa(i)}}}
			case 8:
				ev = &event.FileChange{Agent: agent, ID: id, Status: "completed"}
			case 9:
				ev = &event.Error{Agent: agent, Message: "e" + strconv.Itoa(i)}
			case 10:
				ev = &event.Notice{Agent: agent, Kind: event.NoticeAbandoned, Message: "n"}
			case 11:
				ev = &event.TurnEnd{Agent: agent, Usage: &event.Usage{InputTokens: int64(i)}}
			case 12:
				ev = &event.RunEnd{Agent: agent, Usage: &event.Usage{OutputTokens: int64(i)}, Errors: []string{"x"}}
			case 13:
				ev = &event.Unknown{Agent: agent, Format: "f", Type: "t", Raw: json.RawMessage(`{"i": ` + strconv.Itoa(i) + `}`)}
			case 14:
				ev = &event.SessionStart{Agent: agent, SessionID: id, ParentAgent: id} // a subagent of agent id, or a run
			case 15:
				ev = &event.TurnStart{Agent: agent}
			}
			kb, kerr := kept.Add(ev)
			rb, rerr := reused.Add(ev)
			if kerr != nil != (rerr != nil) || kerr != nil && kerr.Error() != rerr.Error() {
				t.Fatalf("event %d: error %v with Reuse, %v without", i, rerr, kerr)
			}
			if k, r := write(kb), write(rb); k != r {
				t.Fatalf("event %d: blocks differ (-without +with):\n%s", i, cmp.Diff(k, r))
			}
			keptCalls, keptJSON = append(keptCalls, kb), append(keptJSON, write(kb))
		}
		if k, r := write(kept.Flush()), write(reused.Flush()); k != r {
			t.Fatalf("Flush: blocks differ (-without +with):\n%s", cmp.Diff(k, r))
		}
		for i, bs := range keptCalls {
			if w := write(bs); w != keptJSON[i] {
				t.Fatalf("event %d: blocks returned without Reuse changed since (-then +now):\n%s", i, cmp.Diff(keptJSON[i], w))
			}
		}
	})
}
