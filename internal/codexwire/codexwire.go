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
	// The keys in the order Codex writes them, asked for in turn (see
	// jsontext.Reader.KeyIs); the loop reads the rest.
	if r.KeyIs(`"input_tokens":`) {
		readCount(r, &u.InputTokens)
		if r.KeyIs(`"cached_input_tokens":`) {
			readCount(r, &u.CachedInputTokens)
			if r.KeyIs(`"cache_write_input_tokens":`) {
				readCount(r, &u.CacheWriteInputTokens)
			}
			if r.KeyIs(`"output_tokens":`) {
				readCount(r, &u.OutputTokens)
				if r.KeyIs(`"reasoning_output_tokens":`) {
					readCount(r, &u.ReasoningOutputTokens)
				}
			}
		}
	}
	if r.ObjectEnd() {
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
		readCount(r, f)
	}
}

// readCount reads a count into f; null leaves it.
func readCount(r *jsontext.Reader, f *int64) {
	if !r.Null() {
		*f = r.Int()
	}
}
