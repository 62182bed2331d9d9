package jsonenv

import (
	"bytes"
	"encoding/json"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/agentmeta"
	wire "github.com/agentstream/agentstream/internal/jsonenvwire"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// metaInitPayload returns the meta_init payload: the producer's own when
// the event came from this producer family, else one built from the
// event's fields (format, user_query, agent_uuid, parent_agent_uuid, model,
// plus session_id, tools, cwd, parent_tool_use_id, name, description when
// set) by appendMetaInit into scratch, reported by built (the producer's
// own is the event's: not to be written to).
func metaInitPayload(scratch []byte, ev *event.SessionStart) (data []byte, built bool) {
	if ev.MetaKind == agentmeta.Kind && len(ev.Meta) > 0 {
		return ev.Meta, false
	}
	return appendMetaInit(scratch, ev), true
}

// metaFinalPayload is metaInitPayload's counterpart for meta_final.
func metaFinalPayload(scratch []byte, ev *event.RunEnd) (data []byte, built bool) {
	if ev.MetaKind == agentmeta.Kind && len(ev.Meta) > 0 {
		return ev.Meta, false
	}
	if b, ok := appendMetaFinal(scratch, ev); ok {
		return b, true
	}
	// A cost encoding/json refuses: what it writes then.
	m := agentmeta.Final{
		StopReason: agentmeta.OptString(ev.StopReason), TotalSteps: ev.Turns, TotalCostUSD: ev.CostUSD,
		DurationMS: ev.DurationMS, IsError: ev.IsError, Errors: ev.Errors, Result: ev.Result,
	}
	if u := ev.Usage; u != nil {
		m.CumulativeUsage = &agentmeta.Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadInputTokens: u.CacheReadTokens, CacheCreationInputTokens: u.CacheWriteTokens,
			ReasoningOutputTokens: u.ReasoningTokens, ServiceTier: u.ServiceTier,
		}
	}
	return marshalNoHTML(m), false
}

func marshalNoHTML(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// awaitingPayload writes the awaiting_frontend_tools array as the producer
// does (Python json.dumps default separators), with each input verbatim.
func awaitingPayload(tools []event.PendingTool) string {
	b := []byte{'['}
	for i, t := range tools {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `{"tool_use_id": `...)
		b = append(b, marshalNoHTML(t.ID)...)
		b = append(b, `, "name": `...)
		b = append(b, marshalNoHTML(t.Name)...)
		b = append(b, `, "input": `...)
		if len(t.Input) == 0 {
			b = append(b, "{}"...)
		} else {
			b = append(b, t.Input...)
		}
		b = append(b, '}')
	}
	return string(append(b, ']'))
}

// errorPayload returns the error envelope's payload, in scratch when it
// is built: the source's own error object when Raw is one (an Anthropic
// error object, as the envelope and the Messages API carry it, whose type
// and message are the event's), else {"type", "message"} built from the
// event. Raw from other formats (a whole Codex line, say) is not an error
// payload. r is the reader that reads Raw; built is as metaInitPayload's.
func errorPayload(scratch []byte, r *jsontext.Reader, ev *event.Error) (data []byte, built bool) {
	var p wire.ErrorPayload
	if len(ev.Raw) > 0 && jsontext.Decode(r, ev.Raw, &p, wire.ReadErrorPayload) == nil &&
		p.Type == ev.Type && p.Message == ev.Message {
		return ev.Raw, false
	}
	// The producer's server error line ({"error", "message", "traceback"}):
	// verbatim, so that its traceback stays and the decoder reads it back
	// as the fatal error it was.
	var se struct {
		Error     *string `json:"error"`
		Message   string  `json:"message"`
		Traceback *string `json:"traceback"`
	}
	if ev.Fatal && len(ev.Raw) > 0 && json.Unmarshal(ev.Raw, &se) == nil && se.Error != nil && se.Traceback != nil &&
		*se.Error == ev.Type && se.Message == ev.Message {
		return ev.Raw, false
	}
	return appendErrorObject(scratch, ev.Type, ev.Message), true
}
