package aisdk

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	wire "github.com/agentstream/agentstream/internal/wire/aisdk"
)

// Format describes the AI SDK UI message stream to the rest of
// agentstream.
func Format() format.Format {
	return format.Format{
		Name:        Name,
		Description: "Vercel AI SDK UI message stream v1 (what useChat reads): SSE data: chunks, data: [DONE]",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, StopAtDone: o.StopAtDone})
		},
		Abandons: true, // reset-step (event.NoticeAbandoned)
		// docs/formats/aisdk.md: one assistant message of one agent,
		// steps without accounting, sources instead of citations, tool
		// outputs as one value.
		Lacks: []format.Content{
			format.Signature, format.Citations, format.CitationExtras, format.Images, format.MCPServer,
			format.Kind, format.ExitCode, format.Status, format.Structured, format.StopReason,
			format.Usage, format.Cost, format.AgentID, format.Model, format.Prompt, format.SubagentText,
			format.MetaInit, format.MetaFinal, format.AwaitingTools, format.MetaFiles, format.FileChange,
			format.TodoList,
		},
		Rules:       rules(),
		Check:       check,
		ContentType: wire.ContentType,
		Headers:     map[string]string{wire.HeaderName: wire.HeaderValue},
	}
}
