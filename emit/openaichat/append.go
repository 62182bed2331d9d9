package openaichat

import (
	"strconv"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openai"
	wire "github.com/agentstream/agentstream/internal/openai/chatwire"
)

// appendChunk appends c to b as openai.Marshal writes it, without
// encoding/json's reflection (the role, finish, tool call and usage
// chunks; the deltas have their own path, head and tail). A chunk with
// what the encoder never writes (logprobs, an error object) goes through
// openai.Marshal. TestAppendChunk and FuzzAppendChunk compare the two.
func appendChunk(b []byte, c *wire.Chunk) ([]byte, error) {
	if c.Error != nil || !plain(c.Choices) {
		data, err := openai.Marshal(c)
		return append(b, data...), err
	}
	b = str(b, `{"id":`, c.ID)
	b = str(b, `,"object":`, c.Object)
	if c.Created != 0 {
		b = num(b, `,"created":`, c.Created)
	}
	b = str(b, `,"model":`, c.Model)
	if c.ServiceTier != "" {
		b = str(b, `,"service_tier":`, c.ServiceTier)
	}
	if c.SystemFingerprint != nil {
		b = str(b, `,"system_fingerprint":`, *c.SystemFingerprint)
	}
	b = append(b, `,"choices":`...)
	if c.Choices == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range c.Choices {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendChoice(b, &c.Choices[i])
		}
		b = append(b, ']')
	}
	if u := c.Usage; u != nil {
		b = optNum(b, `,"usage":{"prompt_tokens":`, u.PromptTokens)
		b = optNum(b, `,"completion_tokens":`, u.CompletionTokens)
		b = optNum(b, `,"total_tokens":`, u.TotalTokens)
		if d := u.PromptTokensDetails; d != nil {
			b = optNum(b, `,"prompt_tokens_details":{"cached_tokens":`, d.CachedTokens)
			b = append(b, '}')
		}
		if d := u.CompletionTokensDetails; d != nil {
			b = optNum(b, `,"completion_tokens_details":{"reasoning_tokens":`, d.ReasoningTokens)
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// plain reports whether the choices have no logprobs (an any, left to
// encoding/json).
func plain(choices []wire.Choice) bool {
	for i := range choices {
		if choices[i].Logprobs != nil {
			return false
		}
	}
	return true
}

func appendChoice(b []byte, ch *wire.Choice) []byte {
	b = num(b, `{"index":`, int64(ch.Index))
	d := &ch.Delta
	b = append(b, `,"delta":{`...)
	n := len(b)
	if d.Role != "" {
		b = str(b, `,"role":`, d.Role)
	}
	b = optStr(b, `,"content":`, d.Content)
	b = optStr(b, `,"refusal":`, d.Refusal)
	b = optStr(b, `,"reasoning_content":`, d.ReasoningContent)
	b = optStr(b, `,"reasoning":`, d.Reasoning)
	if len(d.ToolCalls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i := range d.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			tc := &d.ToolCalls[i]
			b = num(b, `{"index":`, int64(tc.Index))
			if tc.ID != "" {
				b = str(b, `,"id":`, tc.ID)
			}
			if tc.Type != "" {
				b = str(b, `,"type":`, tc.Type)
			}
			b = append(b, `,"function":{`...)
			if tc.Function.Name != "" {
				b = str(b, `"name":`, tc.Function.Name)
				b = append(b, ',')
			}
			b = str(b, `"arguments":`, tc.Function.Arguments)
			b = append(b, "}}"...)
		}
		b = append(b, ']')
	}
	if len(b) > n {
		b = append(b[:n], b[n+1:]...) // the first field's comma
	}
	b = append(b, `},"logprobs":null,"finish_reason":`...)
	if ch.FinishReason == nil {
		b = append(b, "null"...)
	} else {
		b = jsontext.AppendMarshalString(b, *ch.FinishReason)
	}
	return append(b, '}')
}

func str(b []byte, key, s string) []byte {
	return jsontext.AppendMarshalString(append(b, key...), s)
}

func num(b []byte, key string, n int64) []byte {
	return strconv.AppendInt(append(b, key...), n, 10)
}

// optNum appends a *int64 field: null when nil.
func optNum(b []byte, key string, n *int64) []byte {
	return jsontext.AppendOptInt(append(b, key...), n)
}

// optStr appends an omitempty *string field: absent when nil.
func optStr(b []byte, key string, s *string) []byte {
	if s == nil {
		return b
	}
	return str(b, key, *s)
}
