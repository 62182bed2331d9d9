package cmd

import (
	"fmt"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/toolset"
)

// toolsOptions are the flags of the inline XML tool protocols: reading the
// text blocks of any input as protocol text (--tools-protocol), and the
// tools and nonce the inlinexml and xmltools formats use.
type toolsOptions struct {
	protocol string
	file     string
	names    []string
	nonce    string
}

func addToolsFlags(fs *pflag.FlagSet, o *toolsOptions) {
	fs.StringVar(&o.protocol, "tools-protocol", "", "read the text blocks of the input as model text with XML tool calls: "+strings.Join(protocols(), " or "))
	fs.StringVar(&o.file, "tools-file", "", usedBy(format.OptTools)+": JSON file of tool definitions (JSON Schema per tool)")
	fs.StringArrayVar(&o.names, "tools", nil, usedBy(format.OptTools)+": tools as name or name:param1,param2 (repeatable)")
	fs.StringVar(&o.nonce, "nonce", "", usedBy(format.OptNonce)+": the transport's nonce (default: detected when reading, derived when writing)")
}

// apply sets the tool options of co.
func (o *toolsOptions) apply(co *format.Options) {
	co.ToolsFile, co.ToolNames, co.Nonce = o.file, o.names, o.nonce
}

// check reports bad flags before any input is read.
func (o *toolsOptions) check() error {
	if o.protocol != "" {
		f, ok := convert.Lookup(o.protocol)
		if !ok || f.Wrap == nil {
			return fmt.Errorf("unknown --tools-protocol %q (one of %s)", o.protocol, strings.Join(protocols(), ", "))
		}
	}
	if _, err := toolset.Load(o.file, o.names); err != nil {
		return fmt.Errorf("tools: %w", err)
	}
	return nil
}

// protocols names the formats that wrap model text (--tools-protocol).
var protocols = sync.OnceValue(func() []string {
	var names []string
	for _, f := range convert.Formats() {
		if f.Wrap != nil {
			names = append(names, f.Name)
		}
	}
	return names
})
