package claude

import (
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// MetaKind is the event.SessionStart.MetaKind and event.RunEnd.MetaKind
// of metadata read from this format: Meta holds the system/init or result
// line, verbatim.
const MetaKind = "claude"

// line is a stream-json line as the decoder reads it: its wire fields,
// and what the one-pass read decoded of its message or stream event.
type line struct {
	wire.Line

	ev  *anthropic.StreamEvent // Event, decoded by unmarshalLine, or nil
	msg *anthropic.Message     // Message, decoded by unmarshalLine, or nil
	// init is the line as an init line, decoded with it by readLine (its
	// lists shared with the next init's), or nil
	init *wire.Init
	// aborted: the line is marked "aborted": true, as agentstream's
	// claude writer marks what arrived of a block the input was cut off
	// inside (Claude Code writes no such key)
	aborted bool
	// compact: the one-pass read (readLine) read the whole line and met
	// no white space outside its strings (jsontext.Reader.Spaced), so
	// the line and every value in it are compact JSON
	compact bool
}
