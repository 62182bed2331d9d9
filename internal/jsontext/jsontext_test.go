package jsontext_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/agentstream/agentstream/internal/jsontext"
)

func TestAppendString(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{"q\"b\\n\n\r\t\b\f\x01\x1f", `"q\"b\\n\n\r\t\b\f\u0001\u001f"`},
		{"<>&/\u2028é🦊", "\"<>&/\u2028é🦊\""},
		{"bad\xffbyte", `"bad\ufffdbyte"`},
		{"real \ufffd", "\"real \ufffd\""},
	}
	for _, tt := range tests {
		got := string(jsontext.AppendString(nil, tt.in))
		if got != tt.want {
			t.Errorf("AppendString(%q) = %s, want %s", tt.in, got, tt.want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("%s is not JSON: %v", got, err)
		}
		if utf8.ValidString(tt.in) && back != tt.in {
			t.Errorf("round trip of %q gave %q", tt.in, back)
		}
	}
}
