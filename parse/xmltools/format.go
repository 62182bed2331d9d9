package xmltools

import (
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/internal/rewrite"
	"github.com/agentstream/agentstream/toolset"
)

// Format describes the XML tool transport to the rest of agentstream.
func Format() format.Format {
	return rewrite.Format(format.Format{
		Name:        "xmltools",
		ContentType: format.ContentText,
		Description: "model text with nonce-tagged XML tool slots (<ai-agent-NONCE-0001 tool=...>)",
		Detect:      Detect,
		Guess:       true,
		Uses:        []format.Option{format.OptTools, format.OptNonce},
	}, config, NewDecoder, Wrap)
}

func config(o *format.Options) (*Config, error) {
	tools, err := toolset.Load(o.ToolsFile, o.ToolNames)
	if err != nil {
		return nil, err
	}
	return &Config{Source: o.Source, Agent: o.Agent, Nonce: o.Nonce, Tools: tools, MaxSlotBytes: o.MaxEventBytes}, nil
}
