package messages

import (
	"encoding/json"
	"strings"

	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// IsAPIErrorType reports whether t is one of the Messages API's error
// types, the error.type values it sends, which clients switch on.
func IsAPIErrorType(t string) bool {
	switch t {
	case "invalid_request_error", "authentication_error", "billing_error", "permission_error",
		"not_found_error", "request_too_large", "rate_limit_error", "api_error",
		"overloaded_error", "timeout_error":
		return true
	}
	return false
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
func ToAPIError(typ, msg string) anthropic.APIError {
	if IsAPIErrorType(typ) {
		return anthropic.APIError{Type: typ, Message: msg}
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
	return anthropic.APIError{Type: mapped, Message: msg}
}

func matchErrorType(s string) string {
	s = strings.ToLower(s)
	for _, r := range errorTypeRules {
		for _, w := range r.words {
			if containsWord(s, w) {
				return r.typ
			}
		}
	}
	return ""
}

// containsWord reports whether s holds w, and for a status code (w all
// digits) not as part of a longer number: "64000 tokens" is no 400.
func containsWord(s, w string) bool {
	digit := func(b byte) bool { return b >= '0' && b <= '9' }
	if !digit(w[0]) {
		return strings.Contains(s, w)
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !digit(s[j-1])) && (end == len(s) || !digit(s[end])) {
			return true
		}
		i = j + 1
	}
}

// fromAPIError undoes ToAPIError: an error whose message is led by a type
// of another format ("server_error: ...") that ToAPIError maps to the
// error's own type gives back that type and the message after it. Other
// errors are returned as they are.
func fromAPIError(e anthropic.APIError) (typ, msg string) {
	orig, rest, ok := strings.Cut(e.Message, ": ")
	if !ok || orig == "" || !isTypeName(orig) || ToAPIError(orig, rest) != e {
		return e.Type, e.Message
	}
	return orig, rest
}

// isTypeName reports whether s looks like an error type: a word of
// letters, digits and underscores, with no space.
func isTypeName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// errorObject returns the error object of an error event ({"type":
// "overloaded_error", "message": ...}), verbatim, and its fields: the
// payload canonical Error events carry in Raw, as the other formats do.
func errorObject(ev []byte) (json.RawMessage, anthropic.APIError) {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	var a anthropic.APIError
	if json.Unmarshal(ev, &e) == nil && len(e.Error) > 0 && json.Unmarshal(e.Error, &a) == nil {
		return e.Error, a
	}
	return nil, a
}
