package xml

import (
	"encoding/json"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/agentmeta"
	wire "github.com/agentstream/agentstream/parse/xmlstream"
)

// metaInit returns the meta_init data: the producer's own when the event
// came from this producer family (own: appendMetaData ASCII-escapes it as
// json.dumps writes it in XML), else one built from the event's fields in
// the producer's key order, one line of ASCII JSON already.
func metaInit(agent string, ev *event.SessionStart) (data []byte, own bool) {
	if ev.MetaKind == wire.MetaKind && len(ev.Meta) > 0 {
		return ev.Meta, true
	}
	m := struct {
		// The producer writes these five whether empty or not, where
		// agentmeta.Init leaves the empty ones out: they hide Init's own,
		// whose other fields follow them, in Init's order.
		Format          string          `json:"format"`
		UserQuery       json.RawMessage `json:"user_query"`
		AgentUUID       string          `json:"agent_uuid"`
		ParentAgentUUID *string         `json:"parent_agent_uuid"`
		Model           string          `json:"model"`
		agentmeta.Init
	}{
		Format: "xml", AgentUUID: agent, Model: ev.Model,
		Init: agentmeta.Init{
			SessionID: ev.SessionID, Tools: ev.Tools, Cwd: ev.Cwd, ParentToolID: ev.ParentToolID,
			Name: ev.Name, Description: ev.Description,
		},
	}
	m.UserQuery, _ = json.Marshal(ev.Prompt)
	if ev.ParentAgent != "" {
		m.ParentAgentUUID = &ev.ParentAgent
	}
	return marshal(m), false
}

// metaFinal is metaInit's counterpart for meta_final: the producer's
// conversation_history (empty), then agentmeta.Final's fields.
func metaFinal(ev *event.RunEnd) (data []byte, own bool) {
	if ev.MetaKind == wire.MetaKind && len(ev.Meta) > 0 {
		return ev.Meta, true
	}
	m := struct {
		ConversationHistory []any `json:"conversation_history"`
		agentmeta.Final
	}{
		ConversationHistory: []any{},
		Final: agentmeta.Final{
			StopReason: agentmeta.OptString(ev.StopReason), TotalSteps: ev.Turns, TotalCostUSD: ev.CostUSD,
			DurationMS: ev.DurationMS, IsError: ev.IsError, Errors: ev.Errors, Result: ev.Result,
		},
	}
	if u := ev.Usage; u != nil {
		m.CumulativeUsage = &agentmeta.Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CacheReadInputTokens: u.CacheReadTokens,
			CacheCreationInputTokens: u.CacheWriteTokens, ReasoningOutputTokens: u.ReasoningTokens,
			ServiceTier: u.ServiceTier,
		}
	}
	return marshal(m), false
}
