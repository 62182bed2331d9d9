package acp

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes the Agent Client Protocol to the rest of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        Name,
		Description: "Agent Client Protocol: an agent's JSON-RPC output (session/update notifications, the session/prompt response) or a two-way transcript",
		Detect:      Detect,
		ContentType: format.ContentNDJSON,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Foreign: o.Foreign})
		},
		// docs/formats/acp.md: no turns within a prompt turn, no
		// signatures, citations, server or MCP tools, awaiting-tools
		// pauses, file lists, subagents or exit codes outside rawOutput.
		Lacks: []format.Content{
			format.Signature, format.Citations, format.CitationExtras, format.Server, format.MCPServer,
			format.ExitCode, format.SubagentText, format.AgentID, format.TurnEnd, format.AwaitingTools,
			format.MetaFiles, format.ServerToolCall, format.ServerToolResult,
		},
		Rules: rules(),
		Check: check,
	}
}
