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
// Block.AppendPayload does not follow), a cost that is NaN or infinite (which
// encoding/json rejects).
func appendBlock(dst []byte, b *assemble.Block) ([]byte, bool) {
	return appendBlockRest(jsontext.AppendMarshalString(append(dst, `{"agent":`...), b.Agent), b)
}

// appendBlockRest appends what appendBlock appends after the agent.
func appendBlockRest(dst []byte, b *assemble.Block) ([]byte, bool) {
	ok := true
	if t := typeJSON(b.Type); t != "" {
		dst = append(dst, t...)
	} else {
		dst = appendKeyString(dst, `,"type":`, b.Type)
	}
	dst = appendStringField(dst, `,"text":`, b.Text)
	dst = appendStringField(dst, `,"signature":`, b.Signature)
	if len(b.Citations) > 0 {
		dst = appendList(dst, `,"citations":[`, b.Citations, appendCitation)
	}
	dst = appendStringField(dst, `,"id":`, b.ID)
	dst = appendStringField(dst, `,"name":`, b.Name)
	if len(b.Input) > 0 {
		dst, ok = appendRaw(dst, b, `,"input":`, b.Input, ok)
	}
	dst = appendStringField(dst, `,"mcp_server":`, b.MCPServer)
	if b.Content != nil {
		dst = appendKeyString(dst, `,"content":`, *b.Content)
	}
	if len(b.Images) > 0 {
		dst = appendList(dst, `,"images":[`, b.Images, func(dst []byte, im *assemble.Image) []byte {
			return append(appendPair(dst, `{"src":`, im.Src, `,"media_type":`, im.MediaType), '}')
		})
	}
	dst = appendBoolField(dst, `,"is_error":true`, b.IsError)
	if b.ExitCode != nil {
		dst = append(dst, `,"exit_code":`...)
		dst = strconv.AppendInt(dst, int64(*b.ExitCode), 10)
	}
	dst = appendStringField(dst, `,"status":`, b.Status)
	if len(b.Structured) > 0 {
		dst, ok = appendRaw(dst, b, `,"structured":`, b.Structured, ok)
	}

	dst = appendStringField(dst, `,"session_id":`, b.SessionID)
	dst = appendStringField(dst, `,"parent_agent":`, b.ParentAgent)
	dst = appendStringField(dst, `,"parent_tool_id":`, b.ParentToolID)
	dst = appendStringField(dst, `,"model":`, b.Model)
	if len(b.Tools) > 0 {
		dst = appendList(dst, `,"tools":[`, b.Tools, appendString)
	}
	dst = appendStringField(dst, `,"cwd":`, b.Cwd)
	dst = appendStringField(dst, `,"prompt":`, b.Prompt)
	dst = appendStringField(dst, `,"description":`, b.Description)

	if len(b.Pending) > 0 {
		// appendList's shape, written out: an input may make ok false.
		dst = append(dst, `,"pending":[`...)
		for i, p := range b.Pending {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendPair(dst, `{"id":`, p.ID, `,"name":`, p.Name)
			if len(p.Input) > 0 {
				dst, ok = appendRaw(dst, b, `,"input":`, p.Input, ok)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if len(b.Files) > 0 {
		dst = appendList(dst, `,"files":[`, b.Files, func(dst []byte, f *assemble.File) []byte {
			dst = appendPair(dst, `{"file_id":`, f.ID, `,"filename":`, f.Name)
			return append(appendKeyString(dst, `,"storage_location":`, f.Location), '}')
		})
	}
	if len(b.Changes) > 0 {
		dst = appendList(dst, `,"changes":[`, b.Changes, func(dst []byte, c *assemble.Change) []byte {
			return append(appendPair(dst, `{"path":`, c.Path, `,"kind":`, c.Kind), '}')
		})
	}
	if len(b.Todos) > 0 {
		dst = appendList(dst, `,"todos":[`, b.Todos, func(dst []byte, t *assemble.Todo) []byte {
			return append(appendPair(dst, `{"text":`, t.Text, `,"status":`, t.Status), '}')
		})
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
		dst = appendList(dst, `,"errors":[`, b.Errors, appendString)
	}
	dst = appendStringField(dst, `,"result":`, b.Result)
	if len(b.Raw) > 0 {
		dst, ok = appendRaw(dst, b, `,"raw":`, b.Raw, ok)
	}
	dst = appendBoolField(dst, `,"truncated":true`, b.Truncated)
	return append(dst, '}'), ok
}

// typeJSON returns `,"type":` and the block type t as encoding/json writes
// them, for the types package assemble names (plain ASCII: written as they
// are, not escaped for every block). It returns "" for any other type.
func typeJSON(t string) string {
	switch t {
	case assemble.TypeText:
		return `,"type":"` + assemble.TypeText + `"`
	case assemble.TypeThinking:
		return `,"type":"` + assemble.TypeThinking + `"`
	case assemble.TypeToolCall:
		return `,"type":"` + assemble.TypeToolCall + `"`
	case assemble.TypeToolResult:
		return `,"type":"` + assemble.TypeToolResult + `"`
	case assemble.TypeTurnEnd:
		return `,"type":"` + assemble.TypeTurnEnd + `"`
	case assemble.TypeMetaInit:
		return `,"type":"` + assemble.TypeMetaInit + `"`
	case assemble.TypeMetaFinal:
		return `,"type":"` + assemble.TypeMetaFinal + `"`
	case assemble.TypeError:
		return `,"type":"` + assemble.TypeError + `"`
	case assemble.TypeNotice:
		return `,"type":"` + assemble.TypeNotice + `"`
	case assemble.TypeUnknown:
		return `,"type":"` + assemble.TypeUnknown + `"`
	}
	return ""
}

// appendCitation appends c as encoding/json encodes it.
func appendCitation(dst []byte, c *assemble.Citation) []byte {
	dst = appendPair(dst, `{"type":`, c.Type, `,"cited_text":`, c.CitedText)
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
	return appendKeyString(dst, key, *s)
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

// appendList appends key (`,"name":[`) and the elements of list, each
// written by elem, and the closing bracket.
func appendList[E any](dst []byte, key string, list []E, elem func([]byte, *E) []byte) []byte {
	dst = append(dst, key...)
	for i := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = elem(dst, &list[i])
	}
	return append(dst, ']')
}

func appendString(dst []byte, s *string) []byte { return jsontext.AppendMarshalString(dst, *s) }

// appendPair appends key1 (`{"name":`) and s1, key2 (`,"name":`) and s2:
// the start of an object of strings.
func appendPair(dst []byte, key1, s1, key2, s2 string) []byte {
	return appendKeyString(appendKeyString(dst, key1, s1), key2, s2)
}

// appendRaw appends key and raw, a payload of b, compacted (the caller
// leaves out an empty raw: omitempty); ok becomes false if raw is not JSON
// b.AppendPayload vouches for.
func appendRaw(dst []byte, b *assemble.Block, key string, raw json.RawMessage, ok bool) ([]byte, bool) {
	dst, valid := b.AppendPayload(append(dst, key...), raw)
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
