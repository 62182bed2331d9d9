package opencode

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes opencode run --format json output to the rest of
// agentstream.
func Format() format.Format {
	return format.Format{
		Name:        Name,
		Description: "OpenCode run --format json output (NDJSON step, text, reasoning, tool_use and error lines; read only)",
		Detect:      Detect,
		ContentType: format.ContentNDJSON,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Foreign: o.Foreign})
		},
		// docs/formats/opencode.md: no model, prompt or start line, no
		// run end, no signatures, citations, images, server or MCP
		// tools, awaiting-tools pauses, file lists, file changes or todo
		// lists, and one agent only.
		Lacks: []format.Content{
			format.Model, format.Prompt, format.Signature, format.Citations, format.CitationExtras,
			format.Images, format.Server, format.MCPServer, format.SubagentText, format.AgentID,
			format.MetaInit, format.MetaFinal, format.AwaitingTools, format.MetaFiles, format.FileChange,
			format.TodoList, format.ServerToolCall, format.ServerToolResult,
		},
		Rules: rules(),
		Check: check,
	}
}
