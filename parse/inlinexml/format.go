package inlinexml

import (
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/internal/rewrite"
	"github.com/agentstream/agentstream/toolset"
)

// Format describes the inline XML tool protocol to the rest of agentstream.
func Format() format.Format {
	return rewrite.Format(format.Format{
		Name:        "inlinexml",
		ContentType: format.ContentText,
		Description: "model text with inline XML tool calls (<read_file><path>...</path></read_file>, Cline, Roo)",
		// Plain text: chosen only by --from, never detected.
		Uses: []format.Option{format.OptTools},
	}, config, NewDecoder, Wrap)
}

func config(o *format.Options) (*Config, error) {
	tools, err := toolset.Load(o.ToolsFile, o.ToolNames)
	if err != nil {
		return nil, err
	}
	return &Config{Source: o.Source, Agent: o.Agent, Tools: tools, MaxCallBytes: o.MaxEventBytes}, nil
}
