package corpustest

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/anthropic"
	"github.com/agentstream/agentstream/parse/claude"
	"github.com/agentstream/agentstream/parse/codex"
	"github.com/agentstream/agentstream/parse/gemini"
	"github.com/agentstream/agentstream/parse/geminisession"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
	"github.com/agentstream/agentstream/parse/jsonenv"
	"github.com/agentstream/agentstream/parse/xmlstream"
)

// TestInvalidUTF8WarnedOnce: invalid UTF-8 in two places of an input
// gives one warning, at the first, and events that are valid UTF-8.
func TestInvalidUTF8WarnedOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		f    format.Format
		in   string
		want string
	}{
		{
			jsonenv.Format(),
			"data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"a\xff\"}\n\ndata: {\"type\":\"text\",\"agent\":\"a\xfe\",\"final\":true,\"delta\":\"b\"}\n\n",
			"in:1:1: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)",
		},
		{
			claude.Format(),
			"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\xff\",\"model\":\"m\"}\n{\"type\":\"future\",\"session_id\":\"s\",\"x\":\"\xfe\"}\n",
			"in:1:50: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)",
		},
		{
			codex.Format(),
			"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"error\",\"message\":\"\x99\"}\n{\"type\":\"error\",\"message\":\"\x98\"}\n",
			"in:2:28: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)",
		},
		{
			anthropic.Format(),
			"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\xff\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[]}}\n\n" +
				"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"x\",\"message\":\"\xfe\"}}\n\n",
			"in:1:1: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)",
		},
		{
			gemini.Format(),
			"{\"type\":\"init\",\"timestamp\":\"t\",\"session_id\":\"s\xff\",\"model\":\"m\"}\n{\"type\":\"message\",\"timestamp\":\"t\",\"role\":\"assistant\",\"content\":\"\xfe\",\"delta\":true}\n{\"type\":\"result\",\"timestamp\":\"t\",\"status\":\"success\"}\n",
			"in:1:47: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)",
		},
		{
			geminisession.Format(),
			"{\"sessionId\":\"s\",\"projectHash\":\"h\xff\"}\n{\"id\":\"u\",\"timestamp\":\"t\",\"type\":\"user\",\"content\":\"\xfe\"}\n",
			"in:1:34: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)",
		},
		{
			xmlstream.Format(),
			"data: <content-block-text>a\xff</content-block-text>\n\ndata: <content-block-text>\xfe</content-block-text>\n\n",
			"in:1:1: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.f.Name, func(t *testing.T) {
			t.Parallel()
			dec := tt.f.NewDecoder(strings.NewReader(tt.in), &format.Options{Source: "in"})
			var warnings []string
			for ev, err := range events(dec) {
				if errors.Is(err, event.ErrWarning) {
					warnings = append(warnings, err.Error())
				}
				if ev != nil {
					if path, ok := fuzzcheck.ValidUTF8(ev); !ok {
						t.Errorf("invalid UTF-8 in %s", path)
					}
				}
			}
			if len(warnings) != 1 || warnings[0] != tt.want {
				t.Errorf("warnings = %q, want one: %q", warnings, tt.want)
			}
		})
	}
}
