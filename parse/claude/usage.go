package claude

import (
	"slices"

	"github.com/agentstream/agentstream/event"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// modelsOf returns a result line's modelUsage as event.RunEnd.Models,
// sorted by model name; nil when there are none. A model's cost is
// always set: the wire field is a number Claude Code always writes.
func modelsOf(models map[string]wire.ModelUsage) []event.ModelUsage {
	if len(models) == 0 {
		return nil
	}
	// Claude Code names one model, or a few: their names fit on the
	// stack (they are copied into out).
	var buf [4]string
	names := buf[:0]
	for name := range models {
		names = append(names, name)
	}
	slices.Sort(names)
	out := make([]event.ModelUsage, len(names))
	costs := make([]float64, len(names))
	for i, name := range names {
		u := models[name]
		costs[i] = u.CostUSD
		out[i] = event.ModelUsage{Model: name, CostUSD: &costs[i], Usage: event.Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens,
			// Claude Code writes the four counts of every model.
			Has: event.HasTokens | event.HasCacheRead | event.HasCacheWrite,
		}}
	}
	return out
}
