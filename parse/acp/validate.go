package acp

import (
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/acp"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// The format's validate rules (docs/validate.md), from
// agent-client-protocol schema/v1/schema.json.
const (
	ruleMessage = "ACP001"
	ruleUpdate  = "ACP002"
	ruleTool    = "ACP003"
	rulePrompt  = "ACP004"
)

func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleMessage, Name: "json-rpc", Doc: "every message is JSON-RPC 2.0: a request has an id and a method, a notification a method, a response an id and one of result and error, an error an integer code and a message"},
		{ID: ruleUpdate, Name: "session-update", Doc: "session/update has a sessionId and an update with the members its sessionUpdate requires (a chunk its content block with a type, a tool_call its toolCallId and title, a plan entries with content, priority and status, usage_update used and size)"},
		{ID: ruleTool, Name: "tool-call-lifecycle", Doc: "a tool_call_update names a tool call a tool_call announced, each tool call is announced once, and status and kind are of the schema's values"},
		{ID: rulePrompt, Name: "prompt-response", Doc: "a session/prompt response has a stopReason of the schema's (end_turn, max_tokens, max_turn_requests, refusal, cancelled)"},
	}
}

var (
	toolStatuses = map[string]bool{wire.StatusPending: true, wire.StatusInProgress: true, wire.StatusCompleted: true, wire.StatusFailed: true}
	toolKinds    = map[string]bool{
		wire.KindRead: true, wire.KindEdit: true, wire.KindDelete: true, wire.KindMove: true, wire.KindSearch: true,
		wire.KindExecute: true, wire.KindThink: true, wire.KindFetch: true, wire.KindSwitchMode: true, wire.KindOther: true,
	}
	stopReasons = map[string]bool{
		wire.StopEndTurn: true, wire.StopMaxTokens: true, wire.StopMaxTurnRequests: true, wire.StopRefusal: true, wire.StopCancelled: true,
	}
	planStatuses   = map[string]bool{wire.PlanPending: true, wire.PlanInProgress: true, wire.PlanCompleted: true}
	planPriorities = map[string]bool{wire.PriorityHigh: true, wire.PriorityMedium: true, wire.PriorityLow: true}
)

// check checks the rules of an ACP agent's output or transcript.
func check(r io.Reader, cfg *format.CheckConfig, rep format.Reporter) {
	(&checkState{}).check(r, cfg, rep)
}

// checkState is what the checker holds, at most openset.DefaultMax ids of
// each kind.
type checkState struct {
	requests wirecheck.Held[string] // request id: method, until its response
	tools    wirecheck.Held[int]    // tool call id: the line that announced it
}

func (st *checkState) check(r io.Reader, cfg *format.CheckConfig, rep format.Reporter) {
	v := &wirecheck.Checker{Rep: rep, Cfg: cfg}
	requests, tools := &st.requests, &st.tools
	for line, p := range v.Lines(r) {
		var tl struct {
			wire.Message
			Dir *string         `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if json.Unmarshal(line, &tl) != nil {
			continue // the decoder reports it
		}
		m, fromAgent := tl.Message, true
		if tl.Dir != nil {
			fromAgent = *tl.Dir == wire.DirAgentToClient
			m = wire.Message{}
			if json.Unmarshal(tl.Msg, &m) != nil {
				continue
			}
		}
		if m.JSONRPC != wire.Version {
			continue // the decoder reports it
		}
		var raw map[string]json.RawMessage
		_ = json.Unmarshal(line, &raw)
		if tl.Dir != nil {
			raw = nil
			_ = json.Unmarshal(tl.Msg, &raw)
		}
		_, hasID := raw["id"]
		_, hasResult := raw["result"]
		_, hasError := raw["error"]
		switch {
		case m.Method != "" && (hasResult || hasError):
			v.Report(ruleMessage, p, "a message with a method and a result or error")
		case m.Method == "" && !hasID:
			v.Report(ruleMessage, p, "a message with neither a method nor an id")
		case m.Method == "" && hasResult == hasError:
			v.Report(ruleMessage, p, "a response with both or neither of result and error")
		case hasError && m.Error != nil && m.Error.Message == "":
			v.Report(ruleMessage, p, "an error without a message")
		}
		if hasError {
			var e struct {
				Code json.RawMessage `json:"code"`
			}
			var n int64
			if json.Unmarshal(raw["error"], &e) != nil || json.Unmarshal(e.Code, &n) != nil {
				v.Report(ruleMessage, p, "an error whose code is not an integer")
			}
		}
		if m.Method != "" && hasID {
			if !fromAgent || !AgentMethod(m.Method) {
				if old, first := requests.Put(string(m.ID), m.Method); first {
					v.Report(rulePrompt, p, "more than %d requests wait for their response; forgot the oldest, id %s: its response is not checked as its method's", openset.DefaultMax, old)
				}
			}
			continue
		}
		if m.Method == "" {
			method, ok := requests.Get(string(m.ID))
			requests.Delete(string(m.ID))
			if !ok && hasResult {
				method = responseMethod(&m)
			}
			if method == wire.MethodSessionPrompt && hasResult {
				var pr struct {
					StopReason *string `json:"stopReason"`
				}
				switch {
				case json.Unmarshal(m.Result, &pr) != nil || pr.StopReason == nil:
					v.Report(rulePrompt, p, "session/prompt response without a stopReason")
				case !stopReasons[*pr.StopReason]:
					v.Report(rulePrompt, p, "stopReason %q is not one of the schema's", *pr.StopReason)
				}
			}
			continue
		}
		if m.Method != wire.MethodSessionUpdate || !fromAgent {
			continue
		}
		checkUpdate(v, p, m.Params, tools)
	}
}

// checkUpdate checks one session/update's params.
func checkUpdate(v *wirecheck.Checker, p wirecheck.Pos, params json.RawMessage, tools *wirecheck.Held[int]) {
	var n struct {
		SessionID *string         `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	}
	if json.Unmarshal(params, &n) != nil || n.SessionID == nil {
		v.Report(ruleUpdate, p, "session/update without a sessionId")
	}
	var u wire.Update
	var members map[string]json.RawMessage
	if json.Unmarshal(n.Update, &u) != nil || json.Unmarshal(n.Update, &members) != nil || u.SessionUpdate == "" {
		v.Report(ruleUpdate, p, "session/update without an update naming its sessionUpdate")
		return
	}
	switch u.SessionUpdate {
	case wire.UpdateAgentMessageChunk, wire.UpdateAgentThoughtChunk, wire.UpdateUserMessageChunk:
		var c wire.ContentBlock
		if json.Unmarshal(u.Content, &c) != nil || c.Type == "" {
			v.Report(ruleUpdate, p, "%s without a content block", u.SessionUpdate)
		}
	case wire.UpdateToolCall, wire.UpdateToolCallUpdate:
		if u.ToolCallID == "" {
			v.Report(ruleUpdate, p, "%s without a toolCallId", u.SessionUpdate)
			return
		}
		if u.SessionUpdate == wire.UpdateToolCall {
			if u.Title == nil {
				v.Report(ruleUpdate, p, "tool_call %q without a title", u.ToolCallID)
			}
			if first, ok := tools.Get(u.ToolCallID); ok {
				v.Report(ruleTool, p, "tool call %q announced again (first at line %d)", u.ToolCallID, first)
			} else {
				// A window of the ids announced, not state a valid
				// stream leaves open: past its cap the oldest is let go
				// of silently (announcing it again, or an update of an
				// unknown id, is then no longer caught).
				tools.Put(u.ToolCallID, p.Line)
			}
		} else if !tools.Has(u.ToolCallID) && !tools.Lost() {
			v.Report(ruleTool, p, "tool_call_update of %q, which no tool_call announced", u.ToolCallID)
		}
		if u.Status != nil && !toolStatuses[*u.Status] {
			v.Report(ruleTool, p, "tool call %q status %q is not one of the schema's", u.ToolCallID, *u.Status)
		}
		if u.Kind != nil && !toolKinds[*u.Kind] {
			v.Report(ruleTool, p, "tool call %q kind %q is not one of the schema's", u.ToolCallID, *u.Kind)
		}
	case wire.UpdatePlan:
		if _, ok := members["entries"]; !ok {
			v.Report(ruleUpdate, p, "plan without entries")
		}
		for i, e := range u.Entries {
			if !planStatuses[e.Status] || !planPriorities[e.Priority] {
				v.Report(ruleUpdate, p, "plan entry %d: status %q or priority %q is not one of the schema's", i, e.Status, e.Priority)
			}
		}
	case wire.UpdateUsage:
		if u.Used == nil || u.Size == nil {
			v.Report(ruleUpdate, p, "usage_update without used and size")
		}
	}
}
