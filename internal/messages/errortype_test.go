package messages

import (
	"cmp"
	"testing"
)

func TestAPIErrorTypes(t *testing.T) {
	t.Parallel()
	tests := []struct{ typ, msg, want, wantMsg string }{
		{"overloaded_error", "Overloaded", "overloaded_error", "Overloaded"},
		{"server_error", "API Error: 529 Overloaded", "overloaded_error", "server_error: API Error: 529 Overloaded"},
		{"server_error", "API Error: 500 Internal", "api_error", "server_error: API Error: 500 Internal"},
		{"unknown", "boom", "api_error", "unknown: boom"},
		{"", "boom", "api_error", "boom"},
		{"APIStatusError", "Error code: 429 - rate limited", "rate_limit_error", "APIStatusError: Error code: 429 - rate limited"},
		{"TypeError", "x is not a function", "api_error", "TypeError: x is not a function"},
		{"max_output_tokens", "too long", "api_error", "max_output_tokens: too long"},
		{"invalid_request", "mock: invalid request", "invalid_request_error", "invalid_request: mock: invalid request"},
		{"error", "HTTP 401 unauthorized", "authentication_error", "error: HTTP 401 unauthorized"},
		{"error", "403 Forbidden", "permission_error", "error: 403 Forbidden"},
		{"error", "model not found", "not_found_error", "error: model not found"},
		{"error", "request too large", "request_too_large", "error: request too large"},
		{"turn_failed", "stream timed out", "timeout_error", "turn_failed: stream timed out"},
		// Real API messages led by a field name stay as they are.
		{"invalid_request_error", "max_tokens: 100000 > 64000", "invalid_request_error", "max_tokens: 100000 > 64000"},
	}
	for _, tc := range tests {
		got := ToAPIError(tc.typ, tc.msg)
		if got.Type != tc.want || got.Message != tc.wantMsg {
			t.Errorf("ToAPIError(%q, %q) = %q, %q; want %q, %q", tc.typ, tc.msg, got.Type, got.Message, tc.want, tc.wantMsg)
		}
		// Read back, the error is what it was (an empty type reads back
		// as the API's).
		typ, msg := fromAPIError(got)
		if want := cmp.Or(tc.typ, got.Type); typ != want || msg != tc.msg {
			t.Errorf("fromAPIError(%q, %q) = %q, %q; want %q, %q", got.Type, got.Message, typ, msg, want, tc.msg)
		}
	}
}
