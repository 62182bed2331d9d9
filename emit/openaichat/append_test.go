package openaichat

import (
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openai"
	wire "github.com/agentstream/agentstream/internal/openai/chatwire"
)

// chunks returns chunks of every shape the encoder writes, with strings
// s and numbers n.
func chunks(s string, n int64) []wire.Chunk {
	p := &s
	empty := ""
	u := wire.UsageOf(openai.Usage{Prompt: n, Cached: n / 2, Output: n + 1, Reasoning: n / 3, Has: event.HasTokens | event.HasCacheRead | event.HasReasoning})
	full := wire.Delta{Role: s, Content: p, Refusal: p, ReasoningContent: p, Reasoning: p, ToolCalls: []wire.ToolCallDelta{
		{Index: int(n), ID: s, Type: s, Function: wire.Function{Name: s, Arguments: s}}, {Function: wire.Function{Arguments: s}},
	}}
	return []wire.Chunk{
		{ID: s, Object: s, Created: n, Model: s, ServiceTier: s, SystemFingerprint: p, Choices: []wire.Choice{{Index: int(n), Delta: full, FinishReason: p}, {}}, Usage: u},
		{ID: s, Object: s, Model: s, Choices: []wire.Choice{}, Usage: &wire.Usage{PromptTokens: &n}},
		{ID: s, Usage: wire.UsageOf(openai.Usage{Output: n, Has: event.HasOutput})},
		{ID: s, Choices: nil},
		{ID: s, Choices: []wire.Choice{{Delta: wire.Delta{Role: s, Content: &empty}}}},
		{ID: s, Choices: []wire.Choice{{Delta: wire.Delta{ToolCalls: []wire.ToolCallDelta{{Index: 1, ID: s, Function: wire.Function{Name: s}}}}}}},
		{ID: s, Choices: []wire.Choice{{Logprobs: s}}},
		{ID: s, Error: &openai.APIError{Message: s, Code: n}},
	}
}

func sameAsMarshal(t *testing.T, s string, n int64) {
	t.Helper()
	for _, c := range chunks(s, n) {
		want, werr := openai.Marshal(c)
		got, gerr := wire.AppendChunk([]byte("prefix"), &c)
		if (werr != nil) != (gerr != nil) || werr == nil && string(got) != "prefix"+string(want) {
			t.Errorf("%q %d:\nAppendChunk %s (%v)\nMarshal     %s (%v)", s, n, got, gerr, want, werr)
		}
	}
}

// TestAppendChunk: wire.AppendChunk writes every chunk byte for byte as
// encoding/json does.
func TestAppendChunk(t *testing.T) {
	t.Parallel()
	for _, s := range append([]string{""}, tricky...) {
		for _, n := range []int64{0, 1, -7, 1 << 40} {
			sameAsMarshal(t, s, n)
		}
	}
}

func FuzzAppendChunk(f *testing.F) {
	for _, s := range tricky {
		f.Add(s, int64(len(s)))
	}
	f.Fuzz(sameAsMarshal)
}
