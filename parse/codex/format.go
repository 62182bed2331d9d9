package codex

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes codex exec --json output to the rest of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "codex",
		ContentType: format.ContentNDJSON,
		Description: "Codex CLI exec --json output (NDJSON thread, turn and item events)",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Foreign: o.Foreign})
		},
		// docs/formats/codex.md: no session metadata, signatures,
		// citations, images, structured results, server-tool flag,
		// awaiting-tools pauses, file lists or run summary; error types
		// are the decoder's own.
		Lacks: []format.Content{
			format.Model, format.Prompt, format.Signature, format.Citations, format.Images, format.Structured,
			format.Server, format.AwaitingTools, format.MetaFiles, format.MetaFinal, format.StopReason,
			format.Cost, format.Kind,
			format.ID, format.Subagents,
		},
		Rules:      rules(),
		Unanswered: []string{ruleItem},
		Check:      check,
	}
}
