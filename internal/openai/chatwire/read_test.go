package chatwire

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openai/openaitest"
)

func seeds(t testing.TB) [][]byte {
	return openaitest.Payloads(t, "../../../testdata/openai-chat",
		`{"id":"a","id":"b","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x\n\u00e9\ud800","content":null}}]}`,
		`{"id":"a","choices":[{"index":0,"delta":{"content":"x"}}],"choices":[{"index":1}]}`,
		`{"id":"a","choices":[{"index":0,"delta":{"content":"x"},"delta":{"refusal":"y"}}]}`,
		`{"id":"a","choices":[{"index":1.5}]}`,
		`{"id":"a","choices":[{"index":0,"logprobs":{"content":[]}}]}`,
		`{"id":"a","choices":null,"usage":{"prompt_tokens":1,"prompt_tokens_details":null,"completion_tokens_details":{"reasoning_tokens":2}}}`,
		`{"id":"a","choices":[],"usage":{"prompt_tokens":1,"prompt_tokens_details":{"cached_tokens":3},"usage":null}}`,
		`{"ID":"a","choices":[]}`,
		`{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}}]}`,
		`{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[],"reasoning":"r","reasoning_content":"rc"}},{"index":1,"delta":{"tool_calls":null}}]}`,
		`{"error":{"message":"m","type":"t","code":429,"param":"p"}}`,
		`{"error":{"message":"m","code":{"x":1}}}`,
		`{"error":null,"id":"a","system_fingerprint":"fp","choices":[{"finish_reason":"stop"},{"finish_reason":"weird"}]}`,
		`{"id":"a","choices":[{"index":0,"delta":null}]} `,
		`{"id":1}`,
	)
}

// compare checks that what Reader decodes in one pass is what
// json.Unmarshal gives, and reports whether it decoded data in one pass.
func compare(t *testing.T, data []byte) bool {
	t.Helper()
	var cr Reader
	var got Chunk
	cr.data = append(cr.data[:0], data...)
	cr.jr.Reset(cr.data)
	if !cr.read(&got) || !cr.jr.End() {
		return false
	}
	var want Chunk
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: one pass decodes what json.Unmarshal refuses: %v", data, err)
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Chunk{}, Delta{})); diff != "" {
		t.Errorf("%s: differs (-json +one pass):\n%s", data, diff)
	}
	if got.Error != nil && !json.Valid(got.ErrorJSON()) {
		t.Errorf("%s: error text %q", data, got.ErrorJSON())
	}
	return true
}

func TestReadSeeds(t *testing.T) {
	t.Parallel()
	fast := 0
	for _, s := range seeds(t) {
		if compare(t, s) {
			fast++
		}
	}
	if fast < 50 {
		t.Errorf("only %d chunks decoded in one pass", fast)
	}
}

// TestDecodeReuse: a chunk decoded after another holds nothing of it.
func TestDecodeReuse(t *testing.T) {
	t.Parallel()
	var cr Reader
	var c Chunk
	all := seeds(t)
	for i, s := range all {
		if err := cr.Decode(string(s), &c); err != nil {
			continue
		}
		var want Chunk
		json.Unmarshal(s, &want)
		if diff := cmp.Diff(want, c, cmpopts.IgnoreUnexported(Chunk{}, Delta{})); diff != "" {
			t.Errorf("%d %s after %s (-json +Decode):\n%s", i, s, all[max(i-1, 0)], diff)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compare(t, data) })
}

// TestReadKnowsEveryField: a field added to the chunk's structs must be
// read by read.go too, which would otherwise skip it.
func TestReadKnowsEveryField(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("read.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{Chunk{}, Choice{}, Delta{}, ToolCallDelta{}, Function{}, Usage{}, PromptDetails{}, CompletionDetails{}} {
		for _, name := range jsontext.FieldNames(v) {
			if !bytes.Contains(src, []byte(`"`+name+`"`)) {
				t.Errorf("%T field %q is not read by read.go", v, name)
			}
		}
	}
}
