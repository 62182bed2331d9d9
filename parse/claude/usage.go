package claude

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// modelUsageOf returns a result line's modelUsage (the Meta of a RunEnd
// of MetaKind) by model name, sorted by name; nil when it has none. It
// counts what the whole run used of each model, subagents included,
// where the line's usage counts the main agent's last model call only.
func modelUsageOf(meta json.RawMessage) (names []string, usage []wire.ModelUsage) {
	var r wire.Result
	if len(meta) == 0 || json.Unmarshal(meta, &r) != nil || r.Type != wire.TypeResult || len(r.ModelUsage) == 0 {
		return nil, nil
	}
	for name := range r.ModelUsage {
		names = append(names, name)
	}
	slices.SortFunc(names, strings.Compare)
	for _, n := range names {
		usage = append(usage, r.ModelUsage[n])
	}
	return names, usage
}

// runModels returns a result line's modelUsage as event.RunEnd.Models,
// sorted by model name; nil when the line has none (or does not decode
// into a wire.Result). A model's cost is always set: the wire field is a
// number Claude Code always writes.
func runModels(line []byte) []event.ModelUsage {
	names, mu := modelUsageOf(line)
	models := make([]modelEntry, len(names))
	for i, u := range mu {
		models[i] = modelEntry{names[i], u}
	}
	return eventModels(models)
}

// modelEntry is one model's entry in result.modelUsage.
type modelEntry struct {
	name  string
	usage wire.ModelUsage
}

// eventModels returns models, sorted by name, as event.RunEnd.Models;
// nil when there are none.
func eventModels(models []modelEntry) []event.ModelUsage {
	if len(models) == 0 {
		return nil
	}
	slices.SortFunc(models, func(a, b modelEntry) int { return strings.Compare(a.name, b.name) })
	out := make([]event.ModelUsage, len(models))
	costs := make([]float64, len(models))
	for i, m := range models {
		u := m.usage
		costs[i] = u.CostUSD
		out[i] = event.ModelUsage{Model: m.name, CostUSD: &costs[i], Usage: event.Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens,
			// Claude Code writes the four counts of every model.
			Has: event.HasTokens | event.HasCacheRead | event.HasCacheWrite,
		}}
	}
	return out
}
