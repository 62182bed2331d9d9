package openaichat

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	wire "github.com/agentstream/agentstream/internal/wire/openai/chatwire"
)

// Format describes the Chat Completions streaming body to the rest of
// agentstream.
func Format() format.Format {
	return format.Format{
		Name:        Name,
		ContentType: format.ContentSSE,
		Description: "OpenAI Chat Completions streaming SSE body (chat.completion.chunk), one or more responses",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, StopAtDone: o.StopAtDone})
		},
		// docs/formats/openai-chat.md: one completion per turn, no
		// signatures, citations, server tools, session metadata or
		// client tool results.
		Lacks: []format.Content{
			format.Signature, format.Citations, format.CitationExtras, format.MCPServer,
			format.ServerToolCall, format.ServerToolResult,
			format.MetaInit, format.ToolResult, format.MetaFinal, format.AwaitingTools, format.MetaFiles,
			format.FileChange, format.TodoList, format.IsError, format.ExitCode, format.Status,
			format.Structured, format.Images,
			format.Subagents,
		},
		Rules: rules(),
		Check: check,
		// One model response: its tool results go in the next request.
		Skips: []string{"GEN007"},
	}
}

// Name is the format's name, and the event.Unknown.Format of its items.
const Name = wire.Name
