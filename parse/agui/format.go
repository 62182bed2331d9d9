package agui

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	wire "github.com/agentstream/agentstream/internal/wire/agui"
)

// Name is the format's name, and the event.Unknown.Format of its items.
const Name = wire.Name

// Format describes the AG-UI event stream to the rest of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        Name,
		ContentType: format.ContentSSE,
		Description: "AG-UI event stream (protocol 1.0, @ag-ui/core), SSE as AG-UI's HTTP transport writes it",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Foreign: o.Foreign})
		},
		// docs/formats/agui.md: messages, tool calls and results, steps
		// and subagents; no stop reasons, per-turn usage, models,
		// session metadata, tool result flags, citations or server tools;
		// awaited frontend tools only at the run's end.
		Lacks: []format.Content{
			format.IsError, format.ExitCode, format.Status, format.Structured, format.Citations,
			format.CitationExtras, format.MCPServer, format.Server, format.StopReason, format.Usage,
			format.Cost, format.Model, format.Prompt, format.MetaInit, format.MetaFinal,
			format.AwaitingTools, format.MetaFiles, format.FileChange, format.TodoList,
			format.ServerToolCall, format.ServerToolResult,
		},
		Rules: rules(),
		Check: check,
	}
}
