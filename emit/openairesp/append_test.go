package openairesp

import (
	"encoding/json"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/respwire"
)

// shapes returns a value of every output shape appendShape writes, its
// strings s, its numbers n, its raw values raw (compact, valid JSON, as
// the encoder's are).
func shapes(s string, n int64, raw json.RawMessage) []any {
	p := &s
	raws := []json.RawMessage{raw, raw}
	return []any{
		raw, json.RawMessage(nil),
		itemEvent{Type: s, Seq: n, OutputIndex: int(n), Item: raw},
		itemEvent{Type: s},
		annotationEvent{Type: s, Seq: n, ItemID: s, OutputIndex: int(n), ContentIndex: int(n), AnnotationIndex: int(n), Annotation: raw},
		argsDone{Type: s, Seq: n, ItemID: s, OutputIndex: int(n), Arguments: s},
		inputDone{Type: s, Seq: n, ItemID: s, OutputIndex: int(n), Input: s},
		messageItem{ID: s, Type: s, Status: s, Role: s, Content: raws},
		messageItem{ID: s},
		toolSearchItem{ID: s, Type: s, CallID: s, Execution: s, Status: s, Arguments: raw},
		toolSearchItem{},
		reasoningItem{ID: s, Type: s, Summary: raws, EncryptedContent: s},
		reasoningItem{ID: s},
		functionItem{ID: s, Type: s, Status: s, Arguments: s, CallID: s, Name: s},
		customItem{ID: s, Type: s, Status: s, CallID: s, Name: s, Input: s},
		mcpItem{ID: s, Type: s, Status: s, ServerLabel: s, Name: s, Arguments: s, Output: p, Error: p},
		mcpItem{ID: s},
		errorEvent{Type: s, Seq: n, Code: s, Message: s, Param: 1.5},
	}
}

func sameAsMarshal(t *testing.T, s string, n int64, raw json.RawMessage) {
	t.Helper()
	raws := []json.RawMessage{raw, raw}
	u := wire.UsageOf(openai.Usage{Prompt: n, Cached: n / 2, Output: n + 1, Reasoning: n / 3, Has: event.HasTokens | event.HasCacheRead | event.HasReasoning})
	for _, r := range []outResponse{
		{ID: s, Object: "response", CreatedAt: n, Status: s, Model: s, Output: raws, ServiceTier: s, Usage: u},
		{ID: s, Object: s, Status: s, Error: &openai.APIError{Code: s, Message: s}, IncompleteDetails: &incomplete{Reason: s}, Output: nil},
		// Counts the source did not say: the unknown form null.
		{Usage: wire.UsageOf(openai.Usage{Prompt: n, Output: n})},
	} {
		sameResponse(t, r)
	}
	for _, v := range shapes(s, n, raw) {
		want, werr := openai.Marshal(v)
		got, gerr := appendShape([]byte("prefix"), v)
		if (werr != nil) != (gerr != nil) || werr == nil && string(got) != "prefix"+string(want) {
			t.Errorf("%T %q %d %s:\nwritten %s (%v)\nMarshal %s (%v)", v, s, n, raw, got, gerr, want, werr)
		}
	}
}

// appendShape appends v as the encoder's writers write it: a raw value,
// an item or an item event by its writer (the encoder calls some itself
// and writes the others by hand, which TestItemEvent, TestMessageItem and
// TestFunctionCall compare with encoding/json), any other shape by
// appendJSON.
func appendShape(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case json.RawMessage:
		return appendRaw(b, v), nil
	case itemEvent:
		return appendItemEvent(b, &v), nil
	case messageItem:
		return appendMessageItem(b, &v), nil
	case toolSearchItem:
		return appendToolSearchItem(b, &v), nil
	case reasoningItem:
		return appendReasoningItem(b, &v), nil
	case functionItem:
		return appendFunctionItem(b, &v), nil
	case customItem:
		return appendCustomItem(b, &v), nil
	case mcpItem:
		return appendMcpItem(b, &v), nil
	}
	return appendJSON(b, v)
}

// TestAppendJSON: the encoder's writers (appendShape) write every shape
// byte for byte as encoding/json does.
func TestAppendJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", `"q" \ / <a href="x">&amp;</a>`, "\x00\x01\b\f\n\r\t\x1f\x7f", "line\u2028sep\u2029", "bad \xff\xfe utf8 \xc3", "é日👩‍💻"} {
		for _, n := range []int64{0, 1, -7, 1 << 40} {
			for _, raw := range []string{`{}`, `{"a":[1,"<&>"]}`, `"x"`, `[]`, `null`, `12.5e3`, `true`} {
				sameAsMarshal(t, s, n, json.RawMessage(raw))
			}
		}
	}
}

func FuzzAppendJSON(f *testing.F) {
	f.Add("plain", int64(3), []byte(`{"a":1}`))
	f.Add("\u2028<\xff", int64(-1), []byte(`"s"`))
	f.Fuzz(func(t *testing.T, s string, n int64, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		sameAsMarshal(t, s, n, json.RawMessage(jsontext.Compact(raw)))
	})
}
