package claudesession

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes Claude Code's session log to the rest of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "claude-session",
		Description: "Claude Code session log (~/.claude/projects/<project>/<session>.jsonl; read only)",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{
				Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Subagent: o.Subagent,
			})
		},
		// docs/formats/claude-session.md: the log keeps no exit codes or
		// status, no awaiting tools, file lists, file changes or todo
		// lists, and no cost; its run end is made of the lines' totals
		// (no result line). agent_id: a subagent is named by the tool
		// call that started it, as in stream-json.
		Lacks: []format.Content{
			format.ExitCode, format.Status, format.AwaitingTools, format.MetaFiles, format.FileChange,
			format.TodoList, format.Cost, format.AgentID,
		},
	}
}
