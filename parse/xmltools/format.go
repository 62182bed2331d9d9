package xmltools

import (
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/internal/rewrite"
	"github.com/agentstream/agentstream/toolset"
)

// Format describes the XML tool transport to the rest of agentstream.
func Format() format.Format {
	newDecoder, wrap := rewrite.Decoders(config, NewDecoder, Wrap)
	return format.Format{
		Name:        "xmltools",
		Description: "model text with nonce-tagged XML tool slots (<ai-agent-NONCE-0001 tool=...>)",
		Detect:      Detect,
		Guess:       true,
		NewDecoder:  newDecoder,
		Wrap:        wrap,
		Lacks:       rewrite.Lacks(),
		Uses:        []format.Option{format.OptTools, format.OptNonce},
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
