package anthropic

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes the Anthropic Messages API streaming body to the rest
// of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "anthropic",
		ContentType: format.ContentSSE,
		Description: "Anthropic Messages API streaming SSE body (event: + data:), one or more responses",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Foreign: o.Foreign})
		},
		Abandons: true, // a message_start while a message streams gives it up (event.NoticeAbandoned)
		// docs/formats/anthropic.md: one response body per turn: no
		// session metadata, client tool results or run summary.
		Lacks: []format.Content{
			format.MetaInit, format.ToolResult, format.MetaFinal, format.AwaitingTools, format.MetaFiles,
			format.FileChange, format.TodoList,
			format.Subagents,
		},
		Uses:  []format.Option{format.OptMCPBeta, format.OptLateSignature},
		Rules: rules(),
		Check: check,
		// One model response: its tool results go in the next request.
		Skips: []string{"GEN007"},
	}
}
