package xmltools

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/internal/rewrite"
	"github.com/agentstream/agentstream/toolset"
)

// Format describes the XML tool transport to the rest of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "xmltools",
		Description: "model text with nonce-tagged XML tool slots (<ai-agent-NONCE-0001 tool=...>)",
		Detect:      Detect,
		Guess:       true,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			cfg, err := config(o)
			if err != nil {
				return format.Failed(err)
			}
			return NewDecoder(r, cfg)
		},
		Wrap: func(dec event.Decoder, o *format.Options) event.Decoder {
			cfg, err := config(o)
			if err != nil {
				return format.Failed(err)
			}
			return Wrap(dec, cfg)
		},
		Lacks: rewrite.Lacks(),
		Uses:  []format.Option{format.OptTools, format.OptNonce},
		// One model response: its tool results go in the next request.
		Skips: []string{"GEN007"},
	}
}

func config(o *format.Options) (*Config, error) {
	tools, err := toolset.Load(o.ToolsFile, o.ToolNames)
	if err != nil {
		return nil, err
	}
	return &Config{Source: o.Source, Agent: o.Agent, Nonce: o.Nonce, Tools: tools, MaxSlotBytes: o.MaxEventBytes}, nil
}
