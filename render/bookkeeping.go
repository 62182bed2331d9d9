package render

import (
	"strings"

	"github.com/agentstream/agentstream/event"
)

// bookkeeping are the notice kinds that record what the producer did for
// itself rather than what happened in the run: the transcript and the HTML
// page leave them out unless asked to be verbose (Options.Verbose). The
// list is made from the real logs (docs/assemble.md, "Bookkeeping").
var bookkeeping = map[string]bool{
	// Claude Code session logs: the prompt queued and taken, and the
	// last prompt again at the end.
	"queue-operation": true,
	"last-prompt":     true,
	// Claude Code: the running count of thinking tokens, "requesting".
	"thinking_tokens": true,
	"status":          true,
	// Codex rollouts: the sandbox's state, settings applied, a legacy
	// state record.
	"world_state":             true,
	"thread_settings_applied": true,
	"state":                   true,
}

// Bookkeeping reports whether n is a bookkeeping line, hidden from the
// transcript and the HTML page unless they are verbose: a kind of
// bookkeeping, a Claude Code attachment listing the skills or agents
// available (skill_listing, agent_listing_delta), the environment Codex
// describes to the model (<environment_context>), or Codex's own
// instructions to the model (a developer message in its tags).
func Bookkeeping(n *event.Notice) bool {
	switch n.Kind {
	case "attachment":
		return strings.HasSuffix(n.Message, "_listing") || strings.HasSuffix(n.Message, "_listing_delta")
	case "context":
		return strings.HasPrefix(n.Message, "<environment_context>")
	case "developer":
		return strings.HasPrefix(n.Message, "<")
	}
	return bookkeeping[n.Kind]
}
