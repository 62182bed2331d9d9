package openairesp

import (
	"encoding/json"
	"strconv"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openai"
)

// appendJSON appends v, one of the output shapes of wire.go, to b as
// openai.Marshal writes it, without encoding/json's reflection: the
// events and items of every response go through here. A value it does
// not write by hand (an error object, a shape not listed) goes through
// openai.Marshal. TestAppendJSON and FuzzAppendJSON compare the two.
func appendJSON(b []byte, v any) ([]byte, error) {
	start := len(b)
	b, ok := appendFast(b, v)
	if ok {
		return b, nil
	}
	data, err := openai.Marshal(v)
	if err != nil {
		return b[:start], err
	}
	return append(b[:start], data...), nil
}

// appendFast appends v; ok is false when v needs encoding/json.
func appendFast(b []byte, v any) (_ []byte, ok bool) {
	switch v := v.(type) {
	case json.RawMessage:
		return appendRaw(b, v)
	case itemEvent:
		b = head(b, v.Type, v.Seq)
		b = num(b, `,"output_index":`, int64(v.OutputIndex))
		b = append(b, `,"item":`...)
		b, ok = appendRaw(b, v.Item)
		return append(b, '}'), ok
	case annotationEvent:
		b = itemHead(b, v.Type, v.Seq, v.ItemID, v.OutputIndex)
		b = num(b, `,"content_index":`, int64(v.ContentIndex))
		b = num(b, `,"annotation_index":`, int64(v.AnnotationIndex))
		b = append(b, `,"annotation":`...)
		b, ok = appendRaw(b, v.Annotation)
		return append(b, '}'), ok
	case argsDone:
		b = itemHead(b, v.Type, v.Seq, v.ItemID, v.OutputIndex)
		b = str(b, `,"arguments":`, v.Arguments)
		return append(b, '}'), true
	case inputDone:
		b = itemHead(b, v.Type, v.Seq, v.ItemID, v.OutputIndex)
		b = str(b, `,"input":`, v.Input)
		return append(b, '}'), true
	case messageItem:
		b = str(b, `{"id":`, v.ID)
		b = str(b, `,"type":`, v.Type)
		b = str(b, `,"status":`, v.Status)
		b = str(b, `,"role":`, v.Role)
		b = append(b, `,"content":`...)
		b, ok = appendRaws(b, v.Content)
		return append(b, '}'), ok
	case toolSearchItem:
		b = str(b, `{"id":`, v.ID)
		b = str(b, `,"type":`, v.Type)
		b = str(b, `,"call_id":`, v.CallID)
		b = str(b, `,"execution":`, v.Execution)
		b = str(b, `,"status":`, v.Status)
		b = append(b, `,"arguments":`...)
		b, ok = appendRaw(b, v.Arguments)
		return append(b, '}'), ok
	case reasoningItem:
		b = str(b, `{"id":`, v.ID)
		b = str(b, `,"type":`, v.Type)
		b = append(b, `,"summary":`...)
		b, ok = appendRaws(b, v.Summary)
		if v.EncryptedContent != "" {
			b = str(b, `,"encrypted_content":`, v.EncryptedContent)
		}
		return append(b, '}'), ok
	case functionItem:
		b = str(b, `{"id":`, v.ID)
		b = str(b, `,"type":`, v.Type)
		b = str(b, `,"status":`, v.Status)
		b = str(b, `,"arguments":`, v.Arguments)
		b = str(b, `,"call_id":`, v.CallID)
		b = str(b, `,"name":`, v.Name)
		return append(b, '}'), true
	case customItem:
		b = str(b, `{"id":`, v.ID)
		b = str(b, `,"type":`, v.Type)
		b = str(b, `,"status":`, v.Status)
		b = str(b, `,"call_id":`, v.CallID)
		b = str(b, `,"name":`, v.Name)
		b = str(b, `,"input":`, v.Input)
		return append(b, '}'), true
	case mcpItem:
		b = str(b, `{"id":`, v.ID)
		b = str(b, `,"type":`, v.Type)
		if v.Status != "" {
			b = str(b, `,"status":`, v.Status)
		}
		b = str(b, `,"server_label":`, v.ServerLabel)
		b = str(b, `,"name":`, v.Name)
		b = str(b, `,"arguments":`, v.Arguments)
		b = optStr(b, `,"output":`, v.Output)
		b = optStr(b, `,"error":`, v.Error)
		return append(b, '}'), true
	}
	return b, false
}

// appendResponse appends a response object without an error (one with
// an error goes through encoding/json).
func appendResponse(b []byte, r *outResponse) []byte {
	b = str(b, `{"id":`, r.ID)
	b = str(b, `,"object":`, r.Object)
	if r.CreatedAt != 0 {
		b = num(b, `,"created_at":`, r.CreatedAt)
	}
	b = str(b, `,"status":`, r.Status)
	b = append(b, `,"error":null`...)
	if r.IncompleteDetails != nil {
		b = str(b, `,"incomplete_details":{"reason":`, r.IncompleteDetails.Reason)
		b = append(b, '}')
	} else {
		b = append(b, `,"incomplete_details":null`...)
	}
	b = str(b, `,"model":`, r.Model)
	b = append(b, `,"output":`...)
	b, _ = appendRaws(b, r.Output)
	if r.ServiceTier != "" {
		b = str(b, `,"service_tier":`, r.ServiceTier)
	}
	if u := r.Usage; u != nil {
		b = optNum(b, `,"usage":{"input_tokens":`, u.InputTokens)
		b = optNum(b, `,"input_tokens_details":{"cached_tokens":`, u.InputTokensDetails.CachedTokens)
		b = optNum(b, `},"output_tokens":`, u.OutputTokens)
		b = optNum(b, `,"output_tokens_details":{"reasoning_tokens":`, u.OutputTokensDetails.ReasoningTokens)
		b = optNum(b, `},"total_tokens":`, u.TotalTokens)
		b = append(b, '}')
	} else {
		b = append(b, `,"usage":null`...)
	}
	return append(b, '}')
}

// head appends the start of an event: its type and sequence number.
func head(b []byte, typ string, seq int64) []byte {
	b = str(b, `{"type":`, typ)
	return num(b, `,"sequence_number":`, seq)
}

// itemHead appends the start of an event about an item.
func itemHead(b []byte, typ string, seq int64, id string, idx int) []byte {
	b = head(b, typ, seq)
	b = str(b, `,"item_id":`, id)
	return num(b, `,"output_index":`, int64(idx))
}

func str(b []byte, key, s string) []byte {
	return jsontext.AppendMarshalString(append(b, key...), s)
}

func num(b []byte, key string, n int64) []byte {
	return strconv.AppendInt(append(b, key...), n, 10)
}

// optNum appends a *int64 field: null (the unknown form of a count the
// schema requires) when nil.
func optNum(b []byte, key string, n *int64) []byte {
	return jsontext.AppendOptInt(append(b, key...), n)
}

func optStr(b []byte, key string, s *string) []byte {
	if s == nil {
		return append(append(b, key...), "null"...)
	}
	return str(b, key, *s)
}

// appendRaw appends raw as encoding/json writes a json.RawMessage that
// is compact, valid JSON (it copies it as is), null when nil. Every raw
// value the encoder writes is one: its own items, written by appendJSON,
// and what it took from events, checked and compacted where it took it
// (jsontext.Compact of valid JSON).
func appendRaw(b []byte, raw json.RawMessage) (_ []byte, ok bool) {
	if raw == nil {
		return append(b, "null"...), true
	}
	return append(b, raw...), true
}

// appendRaws appends a list of raw values (null when nil).
func appendRaws(b []byte, raws []json.RawMessage) (_ []byte, ok bool) {
	if raws == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, raw := range raws {
		if i > 0 {
			b = append(b, ',')
		}
		if b, ok = appendRaw(b, raw); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}
