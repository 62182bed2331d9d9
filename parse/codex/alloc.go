package codex

import (
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/slab"
)

// alloc hands out the decoder's events and the text they keep with few
// allocations: the events of each frequent type come from batches
// (deltabatch.Of), and short strings and raw JSON are copied into slabs shared by
// the ones after them. Real Codex runs are a handful of short lines, each
// of which makes an event or three, so an allocation per event and per
// string was most of the cost of a line.
//
// Nothing is ever written twice: a struct is handed out once, and a slab's
// bytes, once written, are never changed (a full slab is let go and a new
// one started), so every event stays independent of the decoder and of the
// others, as if each had been allocated alone. A batch or a slab lives as
// long as any event made from it. The zero value is ready to use.
type alloc struct {
	starts  deltabatch.Of[event.SessionStart]
	turns   deltabatch.Of[event.TurnStart]
	ends    deltabatch.Of[event.TurnEnd]
	usages  deltabatch.Of[event.Usage] // a TurnEnd's, apart: many real turns fail, with none
	blocks  deltabatch.Of[textBlock]
	calls   deltabatch.Of[event.ToolCall]
	results deltabatch.Of[toolResult]
	errors  deltabatch.Of[event.Error]
	text    slab.Strings // the strings
	raw     slab.Bytes   // the raw JSON
}

// textBlock is the three events of a whole text or thinking block.
type textBlock struct {
	start event.BlockStart
	delta event.Delta
	end   event.BlockEnd
}

// toolResult is a ToolResult with room for an exit code and one part.
type toolResult struct {
	ev   event.ToolResult
	code int
	part [1]event.Part
}
