package assemble

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// rawJSON returns b as JSON: itself when valid (an event is not written
// after it is handed out, so b is not copied), else as a JSON string. jr
// reads b, in one pass.
func rawJSON(jr *jsontext.Reader, b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	if jsontext.Valid(jr, b) {
		return b
	}
	s, _ := json.Marshal(string(b))
	return s
}
