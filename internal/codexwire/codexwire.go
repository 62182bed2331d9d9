// Package codexwire is the wire vocabulary that Codex's two formats share:
// the token usage object of codex exec --json's turn.completed (package
// parse/codex) and of a rollout log's token_count (package
// parse/codexsession), declared once with its one-pass reader.
package codexwire

import "github.com/agentstream/agentstream/internal/jsontext"

// Usage is a usage object: token counts, cumulative per thread in
// turn.completed. Codex before 0.16x writes only the first, second and
// fourth.
type Usage struct {
	InputTokens           int64 `json:"input_tokens"`
	CachedInputTokens     int64 `json:"cached_input_tokens"`
	CacheWriteInputTokens int64 `json:"cache_write_input_tokens"`
	OutputTokens          int64 `json:"output_tokens"`
	ReasoningOutputTokens int64 `json:"reasoning_output_tokens"`
}

// ReadUsage reads a usage object in one pass into u, as json.Unmarshal
// would; r fails on what it does not decode so.
func ReadUsage(r *jsontext.Reader, u *Usage) {
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		var f *int64
		switch string(key) {
		case "input_tokens":
			f = &u.InputTokens
		case "cached_input_tokens":
			f = &u.CachedInputTokens
		case "cache_write_input_tokens":
			f = &u.CacheWriteInputTokens
		case "output_tokens":
			f = &u.OutputTokens
		case "reasoning_output_tokens":
			f = &u.ReasoningOutputTokens
		default:
			r.Skip()
			continue
		}
		if !r.Null() {
			*f = r.Int()
		}
	}
}
