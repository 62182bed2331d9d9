package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/agentstream/agentstream/internal/messages"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// apiErrorSamples are error objects and texts that are not JSON: API
// error objects (their type written plainly, escaped, or beside other
// members), other formats' errors naming an API type inside a longer
// string, and texts json.Unmarshal refuses.
var apiErrorSamples = []string{
	`{"type":"overloaded_error","message":"Overloaded"}`,
	`{"message":"x","type":"api_error"}`,
	`{"type":"api\u005ferror","message":"escaped"}`,
	`{"TYPE":"rate_limit_error"}`,
	`{"type":"error","error":{"type":"overloaded_error"}}`,
	`{"type":"error","errorText":"boom"}`,
	`{"name":"APIError","data":{"responseBody":"{\"error\": {\"type\": \"invalid_request_error\"}}"}}`,
	`{"type":"not_an_api_error"}`,
	`{"type":"api_error"`,
	`not json "api_error"`,
	`"api_error"`,
	`{"a":"\"","type":"api_error"}`,
	`{"a":"\\","type":"timeout_error"}`,
	`{"type":"\ud800"}`,
	``,
}

// TestMayHoldAPIErrorType: the filter never says no to an object that
// json.Unmarshal reads as an API error, and says no to the objects
// whose strings name none.
func TestMayHoldAPIErrorType(t *testing.T) {
	t.Parallel()
	for _, s := range apiErrorSamples {
		checkMayHold(t, []byte(s))
	}
	for _, s := range []string{`{"type":"error","errorText":"boom"}`, `{"name":"APIError","data":{"responseBody":"{\"error\": {\"type\": \"invalid_request_error\"}}"}}`, `{"type":"not_an_api_error"}`} {
		if mayHoldAPIErrorType([]byte(s)) {
			t.Errorf("mayHoldAPIErrorType(%s) = true, want false: none of its strings is an API error type", s)
		}
	}
}

func checkMayHold(t *testing.T, raw []byte) {
	var a anthropic.APIError
	if json.Unmarshal(raw, &a) == nil && messages.IsAPIErrorType(a.Type) && !mayHoldAPIErrorType(raw) {
		t.Errorf("mayHoldAPIErrorType(%s) = false for an API error of type %q", raw, a.Type)
	}
}

func FuzzMayHoldAPIErrorType(f *testing.F) {
	for _, s := range apiErrorSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(checkMayHold)
}
