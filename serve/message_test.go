package serve

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLastUserMessage(t *testing.T) {
	t.Parallel()
	type result struct {
		Text string
		OK   bool
	}
	tests := []struct {
		name, body string
		want       result
	}{
		{"openai chat, string content", `{"model":"gpt","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"first"},{"role":"assistant","content":"ok"},{"role":"user","content":"second"}]}`, result{"second", true}},
		{"openai chat, text and image parts", `{"messages":[{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"here"}]}]}`, result{"look\nhere", true}},
		{"openai chat, last message is a tool result", `{"messages":[{"role":"user","content":"run it"},{"role":"assistant","tool_calls":[]},{"role":"tool","content":"42"}]}`, result{"run it", true}},
		{"anthropic, blocks", `{"messages":[{"role":"user","content":[{"type":"text","text":"weather?"}]}]}`, result{"weather?", true}},
		{"anthropic, tool results only", `{"messages":[{"role":"user","content":"weather?"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"w","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"sunny"}]}]}`, result{"", true}},
		{"ai sdk useChat parts", `{"id":"c1","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi there"}]}],"trigger":"submit-message"}`, result{"hi there", true}},
		{"ai sdk, tool parts skipped", `{"messages":[{"role":"user","parts":[{"type":"step-start"},{"type":"text","text":"a"},{"type":"file","url":"u"}]}]}`, result{"a", true}},
		{"ag-ui run input", `{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"go"}],"tools":[],"context":[]}`, result{"go", true}},
		{"openai responses, string", `{"model":"gpt","input":"tell me"}`, result{"tell me", true}},
		{"openai responses, items", `{"input":[{"role":"user","content":[{"type":"input_text","text":"one"}]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"x"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"two"}]}]}`, result{"two", true}},
		{"openai responses, function output last", `{"input":[{"role":"user","content":"q"},{"type":"function_call_output","call_id":"c","output":"r"}]}`, result{"q", true}},
		{"gemini", `{"contents":[{"role":"user","parts":[{"text":"g1"}]},{"role":"model","parts":[{"text":"m"}]},{"role":"user","parts":[{"text":"g2"},{"inlineData":{}}]}]}`, result{"g2", true}},
		{"prompt", `{"prompt":"complete this"}`, result{"complete this", true}},
		{"no user message", `{"messages":[{"role":"system","content":"s"}]}`, result{"", false}},
		{"empty messages", `{"messages":[]}`, result{"", false}},
		{"empty body", ``, result{"", false}},
		{"not json", `query=hi`, result{"", false}},
		{"json of another shape", `{"query":"hi"}`, result{"", false}},
		{"messages of the wrong type", `{"messages":"hi"}`, result{"", false}},
		{"json array", `[1,2]`, result{"", false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got result
			got.Text, got.OK = LastUserMessage([]byte(tt.body))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LastUserMessage(%s) (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}
