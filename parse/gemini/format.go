package gemini

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes Gemini CLI's stream-json (and json) output to the rest
// of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "gemini",
		ContentType: format.ContentNDJSON,
		Description: "Gemini CLI --output-format stream-json (NDJSON init, message, tool_use, tool_result, error, result) or json",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Foreign: o.Foreign})
		},
		// docs/formats/gemini.md: no thinking (thoughts are only in the
		// session log), no stop reason and no turn boundaries (the
		// result's per-model stats are all there is of turns), no cost,
		// no subagent scope, no exit codes or tool status beyond
		// success/error, no structured tool output beyond an error's
		// type and message, no images, citations, signatures, server or
		// MCP tools, pending tools, files, file changes or todo lists.
		Lacks: []format.Content{
			format.Thinking, format.Signature, format.StopReason, format.TurnEnd, format.Cost,
			format.SubagentText, format.ExitCode, format.Status, format.Structured,
			format.Images, format.Citations, format.CitationExtras, format.Server, format.MCPServer,
			format.ServerToolCall, format.ServerToolResult, format.AwaitingTools, format.MetaFiles,
			format.FileChange, format.TodoList,
		},
		Rules: rules(),
		Check: check,
	}
}
