package anthropic

import (
	"strings"

	"github.com/agentstream/agentstream/internal/messages"
)

// apiErrorTypes are the error.type values the Messages API sends, which
// clients switch on.
var apiErrorTypes = []string{
	"invalid_request_error", "authentication_error", "billing_error", "permission_error",
	"not_found_error", "request_too_large", "rate_limit_error", "api_error",
	"overloaded_error", "timeout_error",
}

// errorTypeRules map what other formats say of an error (their type, an
// HTTP status, words of the message) to an API error type, first match
// wins; the table in docs/conversion-matrix.md lists them.
var errorTypeRules = []struct {
	words []string
	typ   string
}{
	{[]string{"overload", "529"}, "overloaded_error"},
	{[]string{"rate_limit", "rate limit", "429"}, "rate_limit_error"},
	{[]string{"timeout", "timed out", "408", "504"}, "timeout_error"},
	{[]string{"authentication", "unauthorized", "401"}, "authentication_error"},
	{[]string{"permission", "forbidden", "403"}, "permission_error"},
	{[]string{"not_found", "not found", "404"}, "not_found_error"},
	{[]string{"too_large", "too large", "413"}, "request_too_large"},
	{[]string{"billing", "402"}, "billing_error"},
	{[]string{"invalid_request", "invalid request", "400"}, "invalid_request_error"},
}

// APIError returns the error object written for an error of type typ
// with message msg: typ itself when it is one of the API's error types,
// else the type the rules find in typ, then in msg, else api_error; the
// original type, when replaced, leads the message ("server_error: ...").
func APIError(typ, msg string) messages.APIError {
	for _, t := range apiErrorTypes {
		if typ == t {
			return messages.APIError{Type: typ, Message: msg}
		}
	}
	mapped := matchErrorType(typ)
	if mapped == "" {
		mapped = matchErrorType(msg)
	}
	if mapped == "" {
		mapped = "api_error"
	}
	if typ != "" {
		msg = typ + ": " + msg
	}
	return messages.APIError{Type: mapped, Message: msg}
}

func matchErrorType(s string) string {
	s = strings.ToLower(s)
	for _, r := range errorTypeRules {
		for _, w := range r.words {
			if strings.Contains(s, w) {
				return r.typ
			}
		}
	}
	return ""
}
