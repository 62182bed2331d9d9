package assemble

import (
	"encoding/json"

	"github.com/agentstream/agentstream/event"
)

// rawJSON returns b as JSON: itself when valid, else as a JSON string.
func rawJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return event.JSONText(string(b))
}
