package claude

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// summary returns a one-line human summary of a status line.
func summary(l *line, raw []byte) string {
	var n wire.Notice
	json.Unmarshal(raw, &n)
	return summaryOf(l, &n)
}

// summary is summary for a line that went through badutf8.Fix, read in
// one pass where wire.ReadNotice can, into the decoder's notice (whose
// last status the next repeats).
func (d *Decoder) summary(l *line, raw []byte) string {
	n := &d.notice
	wire.ResetNotice(n)
	jsontext.DecodeValid(&d.jr, raw, n, wire.ReadNotice) // as json.Unmarshal, which goes on past a value of the wrong type
	return summaryOf(l, n)
}

// summaryOf returns the summary of l, whose fields summaries are made of
// are n.
func summaryOf(l *line, n *wire.Notice) string {
	kind := l.Subtype
	if l.Type != wire.TypeSystem {
		kind = l.Type
	}
	s := ""
	switch kind {
	case "api_retry":
		s = fmt.Sprintf("attempt %d/%d in %.0f ms", n.Attempt, n.MaxRetries, n.RetryDelayMS)
		var cause []string
		if n.ErrorStatus != nil {
			cause = append(cause, fmt.Sprint(*n.ErrorStatus))
		}
		if e, ok := n.Error.(string); ok && e != "" {
			cause = append(cause, e)
		}
		if len(cause) > 0 {
			s += " (" + strings.Join(cause, " ") + ")"
		}
	case wire.SubtypeStatus:
		s = "idle"
		if n.Status != nil {
			s = *n.Status
		}
	case wire.SubtypeThinkingTokens:
		s = "~" + strconv.FormatInt(n.EstimatedTokens, 10) + " tokens"
	case "task_started":
		s = n.Description
		if n.SubagentType != "" {
			s += " (" + n.SubagentType + ")"
		}
	case "task_progress":
		s = n.Description
		if n.Usage != nil {
			s += fmt.Sprintf(", %d tool uses", n.Usage.ToolUses)
		}
	case "task_updated":
		s = "updated"
		if n.Patch != nil && n.Patch.Status != "" {
			s = n.Patch.Status
		}
	case "task_notification":
		s = deref(n.Status) + ": " + n.Summary
	case "compact_boundary":
		s = "context compacted"
		if c := n.CompactMetadata; c != nil {
			s = fmt.Sprintf("%s, %d tokens before", c.Trigger, c.PreTokens)
		}
	case "hook_started", "hook_progress", "hook_response":
		s = n.HookName
		if n.HookEvent != "" {
			s += " (" + n.HookEvent + ")"
		}
		if n.Outcome != "" {
			s += " " + n.Outcome
		}
	case "tool_progress":
		s = fmt.Sprintf("%s running for %.0f s", n.ToolName, n.ElapsedSeconds)
	case "tool_use_summary":
		s = n.Summary
	case "rate_limit_event":
		s = "changed"
		if r := n.RateLimitInfo; r != nil {
			s = r.Status
			if r.RateLimitType != "" {
				s += " (" + r.RateLimitType + ")"
			}
		}
	case "session_state_changed":
		s = n.State
	case "prompt_suggestion":
		s = n.Suggestion
	case "notification":
		s = n.Text
	case "permission_denied":
		s = n.ToolName
		if n.Message != "" {
			s += ": " + n.Message
		}
	default:
		if c, ok := n.Content.(string); ok && c != "" {
			s = c
		} else if n.Message != "" {
			s = n.Message
		} else if n.Description != "" {
			s = n.Description
		} else {
			s = strings.ReplaceAll(kind, "_", " ")
		}
	}
	return firstLine(s)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
