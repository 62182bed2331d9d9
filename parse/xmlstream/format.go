package xmlstream

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes the legacy XML stream to the rest of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "xml",
		ContentType: format.ContentSSE,
		Description: "legacy XML stream over SSE (anthropic_agent xml formatter, content-block-* tags)",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Escaping: o.XMLEscaping, StopAtDone: o.StopAtDone})
		},
		// The envelope's gaps, and the citation fields the producer does
		// not write for a citation's type (docs/verify.md).
		Lacks: []format.Content{
			format.IsError, format.ExitCode, format.Status, format.Structured, format.Signature,
			format.MCPServer, format.TurnEnd, format.FileChange, format.TodoList, format.CitationExtras,
		},
		Uses:  []format.Option{format.OptXMLEscaping},
		Rules: rules(),
		Check: check,
	}
}
