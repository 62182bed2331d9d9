package jsonenv

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes the JSON envelope stream to the rest of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "jsonenv",
		Description: "JSON envelope stream over SSE or NDJSON (anthropic_agent json formatter)",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Foreign: o.Foreign, StopAtDone: o.StopAtDone})
		},
		Abandons: true, // the rollback envelope (event.NoticeAbandoned)
		// No field for these on the wire, and no per-turn end (only
		// meta_final's run summary).
		Lacks: []format.Content{
			format.IsError, format.ExitCode, format.Status, format.Structured, format.Signature,
			format.MCPServer, format.TurnEnd, format.FileChange, format.TodoList,
		},
		Uses:       []format.Option{format.OptMaxChunkBytes, format.OptFraming},
		Rules:      rules(),
		Check:      check,
		CheckAlone: true,
	}
}
