package xml

import (
	"encoding/json"

	"github.com/agentstream/agentstream/event"
	wire "github.com/agentstream/agentstream/parse/xmlstream"
)

// metaInit returns the meta_init data: the producer's own when the event
// came from this producer family (ASCII-escaped as json.dumps writes it in
// XML), else one built from the event's fields in the producer's key order.
func metaInit(agent string, ev *event.SessionStart) []byte {
	if ev.MetaKind == wire.MetaKind && len(ev.Meta) > 0 {
		return asciiJSON(ev.Meta)
	}
	m := struct {
		Format          string          `json:"format"`
		UserQuery       json.RawMessage `json:"user_query"`
		AgentUUID       string          `json:"agent_uuid"`
		ParentAgentUUID *string         `json:"parent_agent_uuid"`
		Model           string          `json:"model"`
		SessionID       string          `json:"session_id,omitempty"`
		Tools           []string        `json:"tools,omitempty"`
		Cwd             string          `json:"cwd,omitempty"`
		ParentToolID    string          `json:"parent_tool_use_id,omitempty"`
		Name            string          `json:"name,omitempty"`
		Description     string          `json:"description,omitempty"`
	}{
		Format: "xml", AgentUUID: agent, Model: ev.Model, SessionID: ev.SessionID, Tools: ev.Tools, Cwd: ev.Cwd,
		ParentToolID: ev.ParentToolID, Name: ev.Name, Description: ev.Description,
	}
	m.UserQuery, _ = json.Marshal(ev.Prompt)
	if ev.ParentAgent != "" {
		m.ParentAgentUUID = &ev.ParentAgent
	}
	return marshal(m)
}

// metaFinal is metaInit's counterpart for meta_final.
func metaFinal(ev *event.RunEnd) []byte {
	if ev.MetaKind == wire.MetaKind && len(ev.Meta) > 0 {
		return asciiJSON(ev.Meta)
	}
	type usage struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
		ReasoningOutputTokens    int64 `json:"reasoning_output_tokens,omitempty"`
	}
	m := struct {
		ConversationHistory []any    `json:"conversation_history"`
		StopReason          string   `json:"stop_reason"`
		TotalSteps          int      `json:"total_steps"`
		GeneratedFiles      any      `json:"generated_files"`
		Cost                any      `json:"cost"`
		CumulativeUsage     *usage   `json:"cumulative_usage,omitempty"`
		TotalCostUSD        *float64 `json:"total_cost_usd,omitempty"`
		DurationMS          int64    `json:"duration_ms,omitempty"`
		IsError             bool     `json:"is_error,omitempty"`
		Errors              []string `json:"errors,omitempty"`
		Result              string   `json:"result,omitempty"`
	}{
		ConversationHistory: []any{}, StopReason: ev.StopReason, TotalSteps: ev.Turns, TotalCostUSD: ev.CostUSD,
		DurationMS: ev.DurationMS, IsError: ev.IsError, Errors: ev.Errors, Result: ev.Result,
	}
	if u := ev.Usage; u != nil {
		m.CumulativeUsage = &usage{u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, u.ReasoningTokens}
	}
	return marshal(m)
}
