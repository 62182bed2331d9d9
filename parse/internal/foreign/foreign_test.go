package foreign

import "testing"

func TestKind(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"type":"text","agent":"a","final":false,"delta":"x"}`, Envelope},
		{`{"type":"future","agent":"a","final":true,"delta":""}`, Envelope},
		{`{"type":"thread.started","thread_id":"t"}`, Dotted},
		{`{"type":"item.completed","item":{"id":"i","type":"agent_message","text":"x"}}`, Dotted},
		{`{"type":"system","subtype":"init","session_id":"s","model":"m"}`, Session},
		{`{"type":"assistant","message":{"id":"m","type":"message","content":[]},"session_id":"s"}`, Session},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`, Messages},
		{`{"type":"message_start","message":{"id":"m","type":"message","content":[]}}`, Messages},
		{`{"type":"whatever"}`, ""},
		{`[1]`, ""},
		{`not json`, ""},
	}
	for _, tt := range tests {
		if got := Kind([]byte(tt.in)); got != tt.want {
			t.Errorf("Kind(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
