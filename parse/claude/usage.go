package claude

import (
	"encoding/json"
	"slices"
	"strings"
)

// ModelUsageOf returns a result line's modelUsage (the Meta of a RunEnd
// of MetaKind) by model name, sorted by name; nil when it has none. It
// counts what the whole run used of each model, subagents included,
// where the line's usage counts the main agent's last model call only.
func ModelUsageOf(meta json.RawMessage) (names []string, usage []ModelUsage) {
	var r Result
	if len(meta) == 0 || json.Unmarshal(meta, &r) != nil || r.Type != TypeResult || len(r.ModelUsage) == 0 {
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
