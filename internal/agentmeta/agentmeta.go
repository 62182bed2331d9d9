// Package agentmeta reads the meta_init and meta_final payloads of the
// anthropic_agent producer, which its two formats, the legacy XML stream
// (in a data attribute) and the JSON envelope (in the delta), share. One
// mapping onto the event model serves both decoders, so the two formats
// of one run decode to the same SessionStart and RunEnd.
package agentmeta

import (
	"encoding/json"

	"github.com/agentstream/agentstream/event"
)

// Kind is the event.SessionStart.MetaKind and event.RunEnd.MetaKind of
// these payloads.
const Kind = "anthropic_agent"

// Init is the meta_init payload. The producer writes format, user_query,
// agent_uuid, parent_agent_uuid, model and message_history; agentstream
// adds session_id, tools, cwd, parent_tool_use_id, name and description
// when the source carries them.
type Init struct {
	Format          string          `json:"format,omitempty"`
	UserQuery       json.RawMessage `json:"user_query,omitempty"`
	AgentUUID       string          `json:"agent_uuid,omitempty"`
	ParentAgentUUID *string         `json:"parent_agent_uuid"`
	Model           string          `json:"model,omitempty"`
	SessionID       string          `json:"session_id,omitempty"`
	Tools           []string        `json:"tools,omitempty"`
	Cwd             string          `json:"cwd,omitempty"`
	ParentToolID    string          `json:"parent_tool_use_id,omitempty"`
	Name            string          `json:"name,omitempty"`
	Description     string          `json:"description,omitempty"`
}

// Final is the meta_final payload. The producer writes
// conversation_history, stop_reason, total_steps, generated_files, cost and
// cumulative_usage; agentstream adds the rest when the source carries them.
type Final struct {
	StopReason      string   `json:"stop_reason"`
	TotalSteps      int      `json:"total_steps"`
	GeneratedFiles  any      `json:"generated_files"`
	Cost            any      `json:"cost"`
	CumulativeUsage *Usage   `json:"cumulative_usage,omitempty"`
	TotalCostUSD    *float64 `json:"total_cost_usd,omitempty"`
	DurationMS      int64    `json:"duration_ms,omitempty"`
	IsError         bool     `json:"is_error,omitempty"`
	Errors          []string `json:"errors,omitempty"`
	Result          string   `json:"result,omitempty"`
}

// Usage is the cumulative_usage object.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
	ReasoningOutputTokens    int64 `json:"reasoning_output_tokens,omitempty"`
}

// SessionStart maps a meta_init payload onto a SessionStart of agent,
// keeping the payload as Meta. ok is false when data is not a JSON
// object; the event then carries only Meta. The parsed payload is
// returned for decoders that need more of it (agent_uuid for scopes).
func SessionStart(agent, data string) (ev *event.SessionStart, m Init, ok bool) {
	ev = &event.SessionStart{Agent: agent, Meta: event.JSONText(data), MetaKind: Kind}
	if json.Unmarshal([]byte(data), &m) != nil {
		return ev, m, false
	}
	fillSessionStart(ev, &m)
	return ev, m, true
}

// fillSessionStart sets ev's fields from the meta_init payload m.
func fillSessionStart(ev *event.SessionStart, m *Init) {
	ev.Model, ev.SessionID, ev.Tools, ev.Cwd = m.Model, m.SessionID, m.Tools, m.Cwd
	ev.ParentToolID, ev.Name, ev.Description = m.ParentToolID, m.Name, m.Description
	if m.ParentAgentUUID != nil {
		ev.ParentAgent = *m.ParentAgentUUID
	}
	var q string
	if json.Unmarshal(m.UserQuery, &q) == nil {
		ev.Prompt = q
	} else if len(m.UserQuery) > 0 {
		ev.Prompt = string(m.UserQuery)
	}
}

// RunEnd maps a meta_final payload onto a RunEnd of agent, keeping the
// payload as Meta. The producer's cost breakdown ({"total_cost": ...,
// "currency": "USD"}) gives CostUSD when total_cost_usd is absent.
func RunEnd(agent, data string) *event.RunEnd {
	ev := &event.RunEnd{Agent: agent, Meta: event.JSONText(data), MetaKind: Kind}
	var m Final
	if json.Unmarshal([]byte(data), &m) != nil {
		return ev
	}
	fillRunEnd(ev, &m)
	return ev
}

// fillRunEnd sets ev's fields from the meta_final payload m.
func fillRunEnd(ev *event.RunEnd, m *Final) {
	ev.StopReason, ev.Turns, ev.DurationMS = m.StopReason, m.TotalSteps, m.DurationMS
	ev.CostUSD, ev.IsError, ev.Errors, ev.Result = m.TotalCostUSD, m.IsError, m.Errors, m.Result
	if cost, ok := m.Cost.(map[string]any); ok && ev.CostUSD == nil {
		if total, ok := cost["total_cost"].(float64); ok && (cost["currency"] == nil || cost["currency"] == "USD") {
			ev.CostUSD = &total
		}
	}
	if u := m.CumulativeUsage; u != nil {
		ev.Usage = &event.Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens,
			ReasoningTokens: u.ReasoningOutputTokens,
		}
	}
}
