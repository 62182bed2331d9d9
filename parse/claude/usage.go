package claude

import (
	"maps"
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
	names := slices.Sorted(maps.Keys(models))
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
