package codexsession

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes Codex's rollout file to the rest of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "codex-session",
		Description: "Codex CLI session log (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl; read only)",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{
				Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Subagent: o.Subagent,
			})
		},
		// docs/formats/codex-session.md: no citations, no server-tool
		// flag, no awaiting-tools pauses, file lists or todo lists, no run
		// summary (stop reason, cost).
		Lacks: []format.Content{
			format.Citations, format.Server, format.AwaitingTools, format.MetaFiles, format.TodoList,
			format.MetaFinal, format.StopReason, format.Cost,
		},
	}
}
