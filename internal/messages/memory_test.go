package messages

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// heapAfter returns the live heap once steps have run on a fresh builder,
// which is still reachable when it is measured.
func heapAfter(steps func(b *Builder)) uint64 {
	b := NewBuilder(func(event.Event) {}, 16<<20)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	steps(b)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(b)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}

// TestBuilderMemory: what a builder keeps does not grow with the stream.
// Messages of many large text blocks, streamed as a plain Messages API
// body (no snapshots), used to be kept whole, and so were the 16 messages
// before it. Not parallel: it measures the heap.
func TestBuilderMemory(t *testing.T) {
	chunk := strings.Repeat("x", 64<<10)
	stream := func(blocks int) func(b *Builder) {
		return func(b *Builder) {
			for m := range 2 {
				id := fmt.Sprintf("msg_%d", m)
				b.MessageStart("a", &anthropic.Message{ID: id})
				for i := range blocks {
					b.BlockStart("a", i, json.RawMessage(`{"type":"text","text":""}`))
					d := json.RawMessage(`{"type":"text_delta","text":"` + chunk + `"}`)
					for range 4 { // 256 KiB
						if err := b.BlockDelta("a", i, d, nil); err != nil {
							t.Fatal(err)
						}
					}
					b.BlockStop("a", i)
				}
				b.MessageStop("a")
			}
		}
	}
	few, many := heapAfter(stream(2)), heapAfter(stream(24))
	// 2 messages of 24 blocks of 256 KiB is 12 MiB if kept; four blocks'
	// worth of slack is generous.
	if many > few+(1<<20) {
		t.Errorf("builder keeps %d bytes after 2 messages of 24 blocks of 256 KiB, %d after 2 of 2: it grows with the stream", many, few)
	}
}

// TestBuilderNames: the names of tool calls are forgotten once their
// result arrives or their message is no longer remembered.
func TestBuilderNames(t *testing.T) {
	t.Parallel()
	b := NewBuilder(func(event.Event) {}, 1<<20)
	for m := range 100 {
		b.MessageStart("a", &anthropic.Message{ID: fmt.Sprintf("msg_%d", m)})
		for i := range 3 {
			b.BlockStart("a", i, json.RawMessage(fmt.Sprintf(`{"type":"server_tool_use","id":"t%d_%d","name":"web_search","input":{}}`, m, i)))
			b.BlockStop("a", i)
		}
		// The result of one arrives in the message, of another from the
		// client, the third's never.
		b.BlockStart("a", 3, json.RawMessage(fmt.Sprintf(`{"type":"web_search_tool_result","tool_use_id":"t%d_0","content":[]}`, m)))
		b.BlockStop("a", 3)
		b.ToolAnswered(fmt.Sprintf("t%d_1", m))
		b.MessageStop("a")
	}
	if len(b.names) > keepMessages+1 {
		t.Errorf("builder remembers %d tool names after 100 messages, want at most %d", len(b.names), keepMessages+1)
	}
	if len(b.msgs) > keepMessages+1 || len(b.order) > keepMessages+1 {
		t.Errorf("builder remembers %d messages, want at most %d", len(b.msgs), keepMessages+1)
	}
}
