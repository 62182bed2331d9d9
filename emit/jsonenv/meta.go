package jsonenv

import (
	"encoding/json"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/agentmeta"
	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
)

// ownMeta reports whether a meta_init or meta_final payload is the
// producer's own (the event came from this producer family): written as
// it came. Otherwise the encoder builds one from the event's fields
// (metaWriter): for meta_init format, user_query, agent_uuid,
// parent_agent_uuid, model, plus session_id, tools, cwd,
// parent_tool_use_id, name, description when set.
func ownMeta(kind string, meta []byte) bool {
	return kind == agentmeta.Kind && len(meta) > 0
}

// marshalMetaFinal is the meta_final payload built from ev's fields
// through encoding/json: for a cost it refuses (NaN, infinities), what
// it writes then.
func marshalMetaFinal(ev *event.RunEnd) []byte { return marshalNoHTML(agentmeta.FinalOf(ev)) }

func marshalNoHTML(v any) []byte {
	b, _ := jsontext.AppendMarshal(nil, v, false)
	return b
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

// sourceError returns the error envelope's payload when it is the
// source's own: Raw when it is an error object (an Anthropic error object,
// as the envelope and the Messages API carry it, whose type and message
// are the event's), or the producer's server error line. Otherwise the
// encoder builds {"type", "message"} from the event: Raw from other
// formats (a whole Codex line, say) is not an error payload. r is the
// reader that reads Raw, p scratch for what it reads (left zero).
func sourceError(r *jsontext.Reader, p *wire.ErrorPayload, ev *event.Error) ([]byte, bool) {
	if len(ev.Raw) == 0 {
		return nil, false
	}
	ok := jsontext.Decode(r, ev.Raw, p, wire.ReadErrorPayload) == nil && p.Type == ev.Type && p.Message == ev.Message
	if *p = (wire.ErrorPayload{}); !ok && ev.Fatal {
		// The producer's server error line ({"error", "message",
		// "traceback"}): verbatim, so that its traceback stays and the
		// decoder reads it back as the fatal error it was.
		var se struct {
			Error     *string `json:"error"`
			Message   string  `json:"message"`
			Traceback *string `json:"traceback"`
		}
		ok = json.Unmarshal(ev.Raw, &se) == nil && se.Error != nil && se.Traceback != nil &&
			*se.Error == ev.Type && se.Message == ev.Message
	}
	if !ok {
		return nil, false
	}
	return ev.Raw, true
}
