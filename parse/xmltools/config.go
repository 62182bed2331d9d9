package xmltools

import (
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/toolset"
)

// Config configures a Decoder or a wrapper. The zero value is ready to use.
type Config struct {
	Source string // input name for errors
	Agent  string // agent id of a plain text input
	// Nonce is the session's nonce: "abcd1234" or "ai-agent-abcd1234".
	// Empty: the first tag whose name starts with 8 hex digits and '-'
	// fixes it.
	Nonce string
	// Tools are the tools allowed in numbered slots; nil allows any.
	// Parameters are not used: slot payloads are JSON.
	Tools []toolset.Tool
	// Slots is the highest numbered slot declared; 0 declares every
	// number from 0001 up.
	Slots int
	// MaxSlotBytes caps one slot's text (event.DefaultMaxBytes if 0). A
	// larger slot is reported and kept as text.
	MaxSlotBytes int
}

// Tool names of the dedicated slots.
const (
	finalReport    = "agent__final_report"
	ProgressReport = "agent__progress_report"
)

// Prefix starts every tag name of the transport.
const Prefix = "ai-agent-"

func (c *Config) maxBytes() int {
	if c.MaxSlotBytes > 0 {
		return c.MaxSlotBytes
	}
	return event.DefaultMaxBytes
}
