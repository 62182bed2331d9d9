package render

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// appendBlock appends b as a json.Encoder with SetEscapeHTML(false)
// encodes it, without the newline: the fields in their order, empty
// omitempty fields left out, strings escaped as encoding/json escapes them,
// json.RawMessage fields compacted. It reports false, with dst holding
// part of the block, where it leaves b to encoding/json: a RawMessage it
// cannot show valid (encoding/json then fails, or accepts what
// appendCompact does not follow), a cost that is NaN or infinite (which
// encoding/json rejects).
func appendBlock(dst []byte, b *assemble.Block) ([]byte, bool) {
	return appendBlockRest(jsontext.AppendMarshalString(append(dst, `{"agent":`...), b.Agent), b)
}

// appendBlockRest appends what appendBlock appends after the agent.
func appendBlockRest(dst []byte, b *assemble.Block) ([]byte, bool) {
	ok := true
	dst = append(dst, `,"type":`...)
	dst = jsontext.AppendMarshalString(dst, b.Type)
	dst = appendStringField(dst, `,"text":`, b.Text)
	dst = appendStringField(dst, `,"signature":`, b.Signature)
	if len(b.Citations) > 0 {
		dst = append(dst, `,"citations":[`...)
		for i := range b.Citations {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendCitation(dst, &b.Citations[i])
		}
		dst = append(dst, ']')
	}
	dst = appendStringField(dst, `,"id":`, b.ID)
	dst = appendStringField(dst, `,"name":`, b.Name)
	if len(b.Input) > 0 {
		dst, ok = appendRaw(dst, `,"input":`, b.Input, ok)
	}
	dst = appendStringField(dst, `,"mcp_server":`, b.MCPServer)
	if b.Content != nil {
		dst = append(dst, `,"content":`...)
		dst = jsontext.AppendMarshalString(dst, *b.Content)
	}
	if len(b.Images) > 0 {
		dst = append(dst, `,"images":[`...)
		for i, im := range b.Images {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"src":`...)
			dst = jsontext.AppendMarshalString(dst, im.Src)
			dst = append(dst, `,"media_type":`...)
			dst = jsontext.AppendMarshalString(dst, im.MediaType)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = appendBoolField(dst, `,"is_error":true`, b.IsError)
	if b.ExitCode != nil {
		dst = append(dst, `,"exit_code":`...)
		dst = strconv.AppendInt(dst, int64(*b.ExitCode), 10)
	}
	dst = appendStringField(dst, `,"status":`, b.Status)
	if len(b.Structured) > 0 {
		dst, ok = appendRaw(dst, `,"structured":`, b.Structured, ok)
	}

	dst = appendStringField(dst, `,"session_id":`, b.SessionID)
	dst = appendStringField(dst, `,"parent_agent":`, b.ParentAgent)
	dst = appendStringField(dst, `,"parent_tool_id":`, b.ParentToolID)
	dst = appendStringField(dst, `,"model":`, b.Model)
	if len(b.Tools) > 0 {
		dst = append(dst, `,"tools":`...)
		dst = appendStrings(dst, b.Tools)
	}
	dst = appendStringField(dst, `,"cwd":`, b.Cwd)
	dst = appendStringField(dst, `,"prompt":`, b.Prompt)
	dst = appendStringField(dst, `,"description":`, b.Description)

	if len(b.Pending) > 0 {
		dst = append(dst, `,"pending":[`...)
		for i, p := range b.Pending {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"id":`...)
			dst = jsontext.AppendMarshalString(dst, p.ID)
			dst = append(dst, `,"name":`...)
			dst = jsontext.AppendMarshalString(dst, p.Name)
			if len(p.Input) > 0 {
				dst, ok = appendRaw(dst, `,"input":`, p.Input, ok)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if len(b.Files) > 0 {
		dst = append(dst, `,"files":[`...)
		for i, f := range b.Files {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"file_id":`...)
			dst = jsontext.AppendMarshalString(dst, f.ID)
			dst = append(dst, `,"filename":`...)
			dst = jsontext.AppendMarshalString(dst, f.Name)
			dst = append(dst, `,"storage_location":`...)
			dst = jsontext.AppendMarshalString(dst, f.Location)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if len(b.Changes) > 0 {
		dst = append(dst, `,"changes":[`...)
		for i, c := range b.Changes {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"path":`...)
			dst = jsontext.AppendMarshalString(dst, c.Path)
			dst = append(dst, `,"kind":`...)
			dst = jsontext.AppendMarshalString(dst, c.Kind)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if len(b.Todos) > 0 {
		dst = append(dst, `,"todos":[`...)
		for i, t := range b.Todos {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"text":`...)
			dst = jsontext.AppendMarshalString(dst, t.Text)
			dst = append(dst, `,"status":`...)
			dst = jsontext.AppendMarshalString(dst, t.Status)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}

	dst = appendStringField(dst, `,"kind":`, b.Kind)
	dst = appendBoolField(dst, `,"fatal":true`, b.Fatal)

	dst = appendStringField(dst, `,"message_id":`, b.MessageID)
	dst = appendStringField(dst, `,"stop_reason":`, b.StopReason)
	dst = appendIntField(dst, `,"turns":`, int64(b.Turns))
	dst = appendIntField(dst, `,"duration_ms":`, b.DurationMS)
	if b.CostUSD != nil {
		dst = append(dst, `,"cost_usd":`...)
		var fok bool
		if dst, fok = appendFloat(dst, *b.CostUSD); !fok {
			ok = false
		}
	}
	if u := b.Usage; u != nil {
		dst = append(dst, `,"usage":{"input_tokens":`...)
		dst = jsontext.AppendOptInt(dst, u.InputTokens)
		dst = append(dst, `,"output_tokens":`...)
		dst = jsontext.AppendOptInt(dst, u.OutputTokens)
		dst = appendIntField(dst, `,"cache_read_tokens":`, u.CacheReadTokens)
		dst = appendIntField(dst, `,"cache_write_tokens":`, u.CacheWriteTokens)
		dst = appendIntField(dst, `,"reasoning_tokens":`, u.ReasoningTokens)
		dst = append(dst, '}')
	}
	if len(b.Errors) > 0 {
		dst = append(dst, `,"errors":`...)
		dst = appendStrings(dst, b.Errors)
	}
	dst = appendStringField(dst, `,"result":`, b.Result)
	if len(b.Raw) > 0 {
		dst, ok = appendRaw(dst, `,"raw":`, b.Raw, ok)
	}
	dst = appendBoolField(dst, `,"truncated":true`, b.Truncated)
	return append(dst, '}'), ok
}

// appendCitation appends c as encoding/json encodes it.
func appendCitation(dst []byte, c *assemble.Citation) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsontext.AppendMarshalString(dst, c.Type)
	dst = append(dst, `,"cited_text":`...)
	dst = jsontext.AppendMarshalString(dst, c.CitedText)
	dst = appendOptInt(dst, `,"document_index":`, c.DocumentIndex)
	dst = appendOptString(dst, `,"document_title":`, c.DocumentTitle)
	dst = appendOptInt(dst, `,"start_char_index":`, c.StartCharIndex)
	dst = appendOptInt(dst, `,"end_char_index":`, c.EndCharIndex)
	dst = appendOptInt(dst, `,"start_page_number":`, c.StartPageNumber)
	dst = appendOptInt(dst, `,"end_page_number":`, c.EndPageNumber)
	dst = appendOptString(dst, `,"url":`, c.URL)
	dst = appendOptString(dst, `,"title":`, c.Title)
	return append(dst, '}')
}

// appendStringField appends key (`,"name":`) and s unless s is empty
// (omitempty). Most fields of a block are empty: the test is inlined.
func appendStringField(dst []byte, key, s string) []byte {
	if s == "" {
		return dst
	}
	return appendKeyString(dst, key, s)
}

func appendKeyString(dst []byte, key, s string) []byte {
	return jsontext.AppendMarshalString(append(dst, key...), s)
}

// appendOptString appends key and *s unless s is nil.
func appendOptString(dst []byte, key string, s *string) []byte {
	if s == nil {
		return dst
	}
	return jsontext.AppendMarshalString(append(dst, key...), *s)
}

// appendIntField appends key and n unless n is 0 (omitempty).
func appendIntField(dst []byte, key string, n int64) []byte {
	if n == 0 {
		return dst
	}
	return strconv.AppendInt(append(dst, key...), n, 10)
}

// appendOptInt appends key and *n unless n is nil.
func appendOptInt(dst []byte, key string, n *int64) []byte {
	if n == nil {
		return dst
	}
	return strconv.AppendInt(append(dst, key...), *n, 10)
}

// appendBoolField appends field (`,"name":true`) when v is true
// (omitempty).
func appendBoolField(dst []byte, field string, v bool) []byte {
	if !v {
		return dst
	}
	return append(dst, field...)
}

// appendStrings appends a non-empty list of strings.
func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsontext.AppendMarshalString(dst, s)
	}
	return append(dst, ']')
}

// appendRaw appends key and raw compacted (the caller leaves out an empty
// raw: omitempty); ok becomes false if raw is not JSON appendCompact
// vouches for.
func appendRaw(dst []byte, key string, raw json.RawMessage, ok bool) ([]byte, bool) {
	dst, valid := appendCompact(append(dst, key...), raw)
	return dst, ok && valid
}

// appendFloat appends f as encoding/json encodes a float64
// (jsontext.AppendMarshalFloat). It reports false for NaN and
// infinities, which encoding/json rejects.
func appendFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	return jsontext.AppendMarshalFloat(dst, f), true
}
