package claude

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// notice holds the fields summaries are made of, across line types.
type notice struct {
	Status          *string  `json:"status"`
	Attempt         int      `json:"attempt"`
	MaxRetries      int      `json:"max_retries"`
	RetryDelayMS    float64  `json:"retry_delay_ms"`
	ErrorStatus     *int     `json:"error_status"`
	Error           any      `json:"error"`
	EstimatedTokens int64    `json:"estimated_tokens"`
	Description     string   `json:"description"`
	SubagentType    string   `json:"subagent_type"`
	Summary         string   `json:"summary"`
	LastToolName    string   `json:"last_tool_name"`
	Patch           *patch   `json:"patch"`
	HookName        string   `json:"hook_name"`
	HookEvent       string   `json:"hook_event"`
	Outcome         string   `json:"outcome"`
	Content         any      `json:"content"`
	Text            string   `json:"text"`
	Message         string   `json:"message"`
	ToolName        string   `json:"tool_name"`
	ElapsedSeconds  float64  `json:"elapsed_time_seconds"`
	CompactMetadata *compact `json:"compact_metadata"`
	RateLimitInfo   *struct {
		Status        string `json:"status"`
		RateLimitType string `json:"rateLimitType"`
	} `json:"rate_limit_info"`
	Usage *struct {
		ToolUses int `json:"tool_uses"`
	} `json:"usage"`
	State      string `json:"state"`
	Suggestion string `json:"suggestion"`
}

type patch struct {
	Status string `json:"status"`
	Error  string `json:"error"`
}

type compact struct {
	Trigger   string `json:"trigger"`
	PreTokens int64  `json:"pre_tokens"`
}

// summary returns a one-line human summary of a status line.
func summary(l *line, raw []byte) string {
	var n notice
	json.Unmarshal(raw, &n)
	return summaryOf(l, &n)
}

// summary is summary for a line that went through badutf8.Fix: its
// notice is read in one pass where readNotice can.
func (d *Decoder) summary(l *line, raw []byte) string {
	var n notice
	d.jr.ResetValid(raw)
	if !readNotice(&d.jr, &n) || !d.jr.End() {
		n = notice{}
		json.Unmarshal(raw, &n)
	}
	return summaryOf(l, &n)
}

// summaryOf returns the summary of l, whose fields summaries are made of
// are n.
func summaryOf(l *line, n *notice) string {
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
	case "status":
		s = "idle"
		if n.Status != nil {
			s = *n.Status
		}
	case "thinking_tokens":
		s = fmt.Sprintf("~%d tokens", n.EstimatedTokens)
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

// readNotice reads a line into n as json.Unmarshal does (which goes on
// past a value of the wrong type, leaving its field alone), and reports
// whether it could: it fails on such a value, on a key encoding/json
// would match to a field case-insensitively, and on the objects few lines
// hold (compact_metadata, rate_limit_info), which are left to
// encoding/json.
func readNotice(r *jsontext.Reader, n *notice) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "status":
			r.OptStringField(&n.Status)
		case "attempt":
			jsontext.ReadInt(r, &n.Attempt)
		case "max_retries":
			jsontext.ReadInt(r, &n.MaxRetries)
		case "retry_delay_ms":
			if !r.Null() {
				n.RetryDelayMS = r.Float()
			}
		case "error_status":
			if r.Null() {
				n.ErrorStatus = nil
				break
			}
			v := 0
			jsontext.ReadInt(r, &v)
			n.ErrorStatus = &v
		case "error":
			anyString(r, &n.Error)
		case "estimated_tokens":
			if !r.Null() {
				n.EstimatedTokens = r.Int()
			}
		case "description":
			r.StringField(&n.Description)
		case "subagent_type":
			r.StringField(&n.SubagentType)
		case "summary":
			r.StringField(&n.Summary)
		case "last_tool_name":
			r.StringField(&n.LastToolName)
		case "patch":
			if r.Null() {
				n.Patch = nil
				break
			}
			if n.Patch == nil {
				n.Patch = new(patch)
			}
			readPatch(r, n.Patch)
		case "hook_name":
			r.StringField(&n.HookName)
		case "hook_event":
			r.StringField(&n.HookEvent)
		case "outcome":
			r.StringField(&n.Outcome)
		case "content":
			anyString(r, &n.Content)
		case "text":
			r.StringField(&n.Text)
		case "message":
			r.StringField(&n.Message)
		case "tool_name":
			r.StringField(&n.ToolName)
		case "elapsed_time_seconds":
			if !r.Null() {
				n.ElapsedSeconds = r.Float()
			}
		case "usage":
			if r.Null() {
				n.Usage = nil
				break
			}
			if n.Usage == nil {
				n.Usage = new(struct {
					ToolUses int `json:"tool_uses"`
				})
			}
			if !r.Object() {
				break
			}
			for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
				if string(key) == "tool_uses" {
					jsontext.ReadInt(r, &n.Usage.ToolUses)
				} else {
					r.SkipUnknown(key, func(name string) bool { return name == "tool_uses" })
				}
			}
		case "state":
			r.StringField(&n.State)
		case "suggestion":
			r.StringField(&n.Suggestion)
		case "compact_metadata", "rate_limit_info":
			if !r.Null() {
				r.Fail() // left to encoding/json
			}
			r.Skip()
		default:
			r.SkipUnknown(key, isNoticeField)
		}
	}
	return !r.Failed()
}

// isNoticeField reports whether name is the JSON name of a field of
// notice.
func isNoticeField(name string) bool {
	switch name {
	case "status", "attempt", "max_retries", "retry_delay_ms", "error_status", "error", "estimated_tokens",
		"description", "subagent_type", "summary", "last_tool_name", "patch", "hook_name", "hook_event",
		"outcome", "content", "text", "message", "tool_name", "elapsed_time_seconds", "compact_metadata",
		"rate_limit_info", "usage", "state", "suggestion":
		return true
	}
	return false
}

func readPatch(r *jsontext.Reader, p *patch) {
	if !r.Object() {
		return
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "status":
			r.StringField(&p.Status)
		case "error":
			r.StringField(&p.Error)
		default:
			r.SkipUnknown(key, func(name string) bool { return name == "status" || name == "error" })
		}
	}
}

// anyString reads a field of type any whose value is null or a string;
// any other value fails.
func anyString(r *jsontext.Reader, v *any) {
	switch r.Peek() {
	case 'n':
		r.Null()
		*v = nil
	case '"':
		*v = r.String()
	default:
		r.Fail()
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// quickSummary is summary for the status lines Claude Code writes most
// (a status, thinking_tokens), read in one pass: it reports false where
// it cannot decide as encoding/json would (summary then decodes the line
// with it). They are most of the lines that are not stream events, so
// they are read without encoding/json's reflection and allocation.
func (d *Decoder) quickSummary(l *line, raw []byte) (string, bool) {
	if l.Type != wire.TypeSystem || (l.Subtype != "status" && l.Subtype != "thinking_tokens") {
		return "", false
	}
	r := &d.jr
	r.ResetValid(raw) // raw went through badutf8.Fix
	if !r.Object() {
		return "", false
	}
	var status []byte
	haveStatus := false
	var tokens int64
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "status":
			haveStatus = !r.Null()
			if haveStatus {
				status = r.Str()
				if d.lastStatus != string(status) {
					d.lastStatus = string(status) // the same status repeats
				}
			}
		case "estimated_tokens":
			if !r.Null() {
				tokens = r.Int()
			}
		default:
			r.SkipUnknown(key, func(name string) bool { return name == "status" || name == "estimated_tokens" })
		}
	}
	if !r.End() {
		return "", false
	}
	if l.Subtype == "thinking_tokens" {
		return "~" + strconv.FormatInt(tokens, 10) + " tokens", true
	}
	if !haveStatus {
		return "idle", true
	}
	return firstLine(d.lastStatus), true
}
