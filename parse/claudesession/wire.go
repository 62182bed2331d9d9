package claudesession

import (
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// The names usage.go's reader (usageReader) gives the wire's vocabulary.
const (
	typeAssistant  = wire.SessionAssistant
	syntheticModel = wire.SyntheticModel
)

// metaKind is the event.SessionStart.MetaKind and event.RunEnd.MetaKind
// of metadata read from this format: SessionStart.Meta is a JSON object
// of the session fields the lines carry (sessionId, cwd, version,
// gitBranch).
const metaKind = "claude-session"

// agentInput is what an Agent (or Task) tool call says of the subagent it
// starts.
type agentInput struct {
	SubagentType string `json:"subagent_type"`
	Description  string `json:"description"`
}

// agentResult is what the structured result of an Agent tool call says
// of the subagent that ran.
type agentResult struct {
	AgentID   string `json:"agentId"`
	AgentType string `json:"agentType"`
}

// sessionMeta is SessionStart.Meta.
type sessionMeta struct {
	SessionID string `json:"sessionId,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	Version   string `json:"version,omitempty"`
	GitBranch string `json:"gitBranch,omitempty"`
}

// unmarshalLine decodes a line as json.Unmarshal does, with the generated
// reader, the session fields that repeat from line to line (sessionId,
// cwd, version, gitBranch) those of the last line where equal (str); it
// reports false for a line it leaves to encoding/json (through
// logline.Lines.Unmarshal, which gives the errors and the tolerance),
// with l reset.
func (d *Decoder) unmarshalLine(raw []byte, l *wire.SessionLine) bool {
	d.jr.Reset(raw)
	if !wire.ReadSessionLine(&d.jr, l) || !d.jr.End() {
		*l = wire.SessionLine{}
		return false
	}
	for i, s := range [...]string{l.SessionID, l.Cwd, l.Version, l.GitBranch} {
		if s != "" {
			d.interned[i] = s
		}
	}
	return true
}

// str returns b as a string: a session field of the last line if equal
// to one, else a new string.
func (d *Decoder) str(b []byte) string {
	for _, s := range d.interned {
		if string(b) == s {
			return s
		}
	}
	return string(b)
}

// lineType returns a line type as a string, without allocating for the
// common ones.
func lineType(b []byte) string {
	switch string(b) {
	case wire.SessionUser:
		return wire.SessionUser
	case wire.SessionAssistant:
		return wire.SessionAssistant
	case wire.SessionSystem:
		return wire.SessionSystem
	case wire.SessionAttachment:
		return wire.SessionAttachment
	}
	return string(b)
}
