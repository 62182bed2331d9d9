package claude

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes Claude Code's stream-json output to the rest of
// agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "claude",
		ContentType: format.ContentNDJSON,
		Description: "Claude Code stream-json (claude -p --output-format stream-json --verbose; --partial writes stream_event lines)",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Foreign: o.Foreign})
		},
		Abandons: true, // a message_start while a message streams gives it up (event.NoticeAbandoned)
		// docs/formats/claude.md: no exit codes or status, no awaiting
		// tools, file lists, file changes or todo lists; no prompt.
		// agent_id: Claude Code names a subagent by the tool call that
		// started it.
		Lacks: []format.Content{
			format.ExitCode, format.Status, format.AwaitingTools, format.MetaFiles, format.FileChange,
			format.TodoList, format.Prompt, format.AgentID, format.SubagentText,
			format.SubagentOutcome,
		},
		Uses:  []format.Option{format.OptPartial},
		Rules: rules(),
		Check: check,
	}
}
