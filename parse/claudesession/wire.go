package claudesession

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/messages"
)

// Line types of Claude Code's session log. The content of user and
// assistant messages is the Messages API's (package internal/messages).
const (
	typeUser           = "user"
	typeAssistant      = "assistant"
	typeSystem         = "system"
	typeAttachment     = "attachment"
	typeQueueOperation = "queue-operation"
	typeLastPrompt     = "last-prompt"
	typeSummary        = "summary"

	// syntheticModel is the model of the assistant messages Claude Code
	// makes up to report an API error.
	syntheticModel = "<synthetic>"

	// subtypeCompactBoundary is the system line a compaction writes.
	subtypeCompactBoundary = "compact_boundary"
)

// metaKind is the event.SessionStart.MetaKind and event.RunEnd.MetaKind
// of metadata read from this format: SessionStart.Meta is a JSON object
// of the session fields the lines carry (sessionId, cwd, version,
// gitBranch).
const metaKind = "claude-session"

// line is the union of the top-level fields this package reads.
type line struct {
	Type              string          `json:"type"`
	Subtype           string          `json:"subtype"`
	UUID              string          `json:"uuid"`
	ParentUUID        *string         `json:"parentUuid"`
	LogicalParentUUID string          `json:"logicalParentUuid"`
	IsSidechain       bool            `json:"isSidechain"`
	AgentID           string          `json:"agentId"`
	SessionID         string          `json:"sessionId"`
	Cwd               string          `json:"cwd"`
	Version           string          `json:"version"`
	GitBranch         string          `json:"gitBranch"`
	Message           *message        `json:"message"`
	ToolUseResult     json.RawMessage `json:"toolUseResult"`
	IsAPIErrorMessage bool            `json:"isApiErrorMessage"`
	Error             json.RawMessage `json:"error"`
	IsMeta            bool            `json:"isMeta"`
	IsCompactSummary  bool            `json:"isCompactSummary"`
	Summary           string          `json:"summary"`
	Content           json.RawMessage `json:"content"`
	Operation         string          `json:"operation"`
	Attachment        *attachment     `json:"attachment"`
	LastPrompt        string          `json:"lastPrompt"`
}

// message is the message of a user or assistant line.
type message struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Model      string          `json:"model"`
	Content    content         `json:"content"` // a string or content blocks
	StopReason *string         `json:"stop_reason"`
	Usage      *messages.Usage `json:"usage"`
}

// content is a message's content, decoded in the line's one pass: a
// string, or content blocks.
type content struct {
	text   *string
	blocks []messages.Block
	raw    []byte // the blocks' JSON text, valid while the line is decoded
}

func (c *content) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"':
		c.text = new(string)
		return json.Unmarshal(b, c.text)
	case len(b) > 0 && b[0] == '[':
		c.raw = b
		return json.Unmarshal(b, &c.blocks)
	}
	return nil // null
}

// rawBlock returns the JSON text of block i, for the rare block that is
// kept whole (a type this package does not know).
func (c *content) rawBlock(i int) json.RawMessage {
	var raws []json.RawMessage
	if json.Unmarshal(c.raw, &raws) != nil || i >= len(raws) {
		return nil
	}
	return raws[i]
}

type attachment struct {
	Type string `json:"type"`
}

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
