// Package frame splits byte streams into the units wire formats are made
// of, before any format-specific decoding: SSE messages (through go-sse) and
// NDJSON lines. Both keep exact positions (line and byte offset) for error
// messages, hold at most one unit in memory, and yield each unit as soon as
// its last byte has arrived, so a live pipe is never held back.
//
// Size caps: one SSE event or one line may be at most the configured number
// of bytes (DefaultMaxBytes unless set). A unit over the cap is skipped and
// reported as a *event.ParseError wrapping event.ErrTooLarge; reading
// carries on after it.
package frame

import "github.com/agentstream/agentstream/event"

// DefaultMaxBytes is event.DefaultMaxBytes, the cap on one unit when none is set.
const DefaultMaxBytes = event.DefaultMaxBytes
