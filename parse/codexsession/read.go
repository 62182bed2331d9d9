package codexsession

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/internal/wire/codex"
)

// readLine decodes a rollout line in one pass into l, as json.Unmarshal
// would, with the generated reader. It reports false for anything it
// does not decode exactly as encoding/json does: the caller then decodes
// the line with encoding/json, which gives the errors and their
// positions.
func readLine(r *jsontext.Reader, l *line) bool {
	return wire.ReadRolloutLine(r, l)
}

// payloadText returns the text of the line's payload member (the last
// one, as encoding/json takes it), read in one pass by r when it can.
func payloadText(r *jsontext.Reader, raw []byte) json.RawMessage {
	r.Reset(raw)
	var text []byte
	if r.Object() {
		for key, ok := r.Key(); ok; key, ok = r.Key() {
			if v := r.Skip(); string(key) == "payload" {
				text = v
			}
		}
		if r.End() {
			return text
		}
	}
	var m struct {
		Payload json.RawMessage `json:"payload"`
	}
	json.Unmarshal(raw, &m)
	return m.Payload
}
