package convert

import (
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/inlinexml"
	"github.com/agentstream/agentstream/parse/xmltools"
	"github.com/agentstream/agentstream/toolset"
)

// Tools returns the tools o configures: those of ToolsFile, then those of
// ToolNames. It returns nil when neither is set (each format then has its
// default: Cline's tool set for inlinexml, any tool for xmltools).
func Tools(o *Options) ([]toolset.Tool, error) {
	var tools []toolset.Tool
	if o.ToolsFile != "" {
		t, err := toolset.LoadFile(o.ToolsFile)
		if err != nil {
			return nil, err
		}
		tools = append(tools, t...)
	}
	if len(o.ToolNames) > 0 {
		t, err := toolset.ParseFlags(o.ToolNames)
		if err != nil {
			return nil, err
		}
		tools = append(tools, t...)
	}
	return tools, nil
}

func inlinexmlConfig(o *Options) (*inlinexml.Config, error) {
	tools, err := Tools(o)
	if err != nil {
		return nil, err
	}
	return &inlinexml.Config{Source: o.Source, Agent: o.Agent, Tools: tools, MaxCallBytes: o.MaxEventBytes}, nil
}

func xmltoolsConfig(o *Options) (*xmltools.Config, error) {
	tools, err := Tools(o)
	if err != nil {
		return nil, err
	}
	return &xmltools.Config{Source: o.Source, Agent: o.Agent, Nonce: o.Nonce, Tools: tools, MaxSlotBytes: o.MaxEventBytes}, nil
}

// errDecoder is a decoder that could not be configured: its first Next
// returns the (fatal) error.
type errDecoder struct{ err error }

func (d errDecoder) Next() (event.Event, error) { return nil, d.err }
