package claude

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// The line types of a session log (SessionLine.Type), the most frequent
// first.
const (
	SessionUser           = "user"
	SessionAssistant      = "assistant"
	SessionSystem         = "system"
	SessionAttachment     = "attachment"
	SessionQueueOperation = "queue-operation"
	SessionLastPrompt     = "last-prompt"
	SessionSummary        = "summary"
)

// SubtypeCompactBoundary is the subtype of the system line a compaction
// writes.
const SubtypeCompactBoundary = "compact_boundary"

// SyntheticModel is the model of the assistant messages Claude Code makes
// up to report an API error.
const SyntheticModel = "<synthetic>"

// SessionLine is one line of a session log: the union of the top-level
// fields read of every line type.
type SessionLine struct {
	Type              string          `json:"type" wire:"intern=Session"`
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
	Message           *SessionMessage `json:"message"`
	ToolUseResult     json.RawMessage `json:"toolUseResult" wire:"borrow"`
	IsAPIErrorMessage bool            `json:"isApiErrorMessage"`
	Error             json.RawMessage `json:"error" wire:"borrow"`
	IsMeta            bool            `json:"isMeta"`
	IsCompactSummary  bool            `json:"isCompactSummary"`
	Summary           string          `json:"summary"`
	Content           json.RawMessage `json:"content" wire:"borrow"`
	Operation         string          `json:"operation"`
	Attachment        *Attachment     `json:"attachment"`
	LastPrompt        string          `json:"lastPrompt"`
}

// SessionMessage is the message of a user or assistant line.
type SessionMessage struct {
	ID         string           `json:"id"`
	Role       string           `json:"role"`
	Model      string           `json:"model"`
	Content    Content          `json:"content"` // a string or content blocks
	StopReason *string          `json:"stop_reason"`
	Usage      *anthropic.Usage `json:"usage"`
}

// Attachment is an attachment line's attachment.
type Attachment struct {
	Type string `json:"type"`
}

// Content is a message's content, decoded with its line: a string, or
// content blocks.
type Content struct {
	Text   *string           `json:"-"` // the string, if content is one
	Blocks []anthropic.Block `json:"-"` // the blocks, if content is an array
	// Raw is the blocks' JSON text. The one-pass reader borrows it: it
	// points into the line read, valid as long as the line's bytes are.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes a string or an array of blocks; anything else
// (null) leaves c.
func (c *Content) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"':
		c.Text = new(string)
		return json.Unmarshal(b, c.Text)
	case len(b) > 0 && b[0] == '[':
		c.Raw = b
		return json.Unmarshal(b, &c.Blocks)
	}
	return nil
}

// readContent reads a message's content as Content.UnmarshalJSON does,
// in the line's pass, each block with messages.UnmarshalBlock. It fails
// on a second content of one message, whose merge with the first it
// leaves to encoding/json, and on a block UnmarshalBlock refuses (the
// line's error).
func readContent(r *jsontext.Reader, c *Content) {
	if c.Text != nil || c.Raw != nil {
		r.Fail()
		return
	}
	switch r.Peek() {
	case '"':
		s := r.String()
		c.Text = &s
	case '[':
		off := r.Offset()
		r.Array()
		for r.More() {
			raw := r.Skip()
			if r.Failed() {
				return
			}
			var cb anthropic.Block
			if anthropic.UnmarshalBlock(raw, &cb) != nil {
				r.Fail()
				return
			}
			c.Blocks = append(c.Blocks, cb)
		}
		c.Raw = r.Since(off)
		if c.Blocks == nil {
			c.Blocks = []anthropic.Block{}
		}
	default:
		r.Skip() // null, or a value Content ignores
	}
}

// RawBlock returns the JSON text of block i, for the rare block that is
// kept whole (a type the decoder does not know).
func (c *Content) RawBlock(i int) json.RawMessage {
	var raws []json.RawMessage
	if json.Unmarshal(c.Raw, &raws) != nil || i >= len(raws) {
		return nil
	}
	return raws[i]
}
