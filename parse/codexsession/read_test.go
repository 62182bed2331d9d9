package codexsession

import (
	"encoding/json"
	"testing"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// TestPayloadText: a line's payload text is what encoding/json takes.
func TestPayloadText(t *testing.T) {
	t.Parallel()
	var r jsontext.Reader
	for _, s := range append(wiretest.JSONLines(t, corpusFiles(t)),
		[]byte(`{"type":"session_meta","payload":{"id":"s"},"payload":{"cwd":"/"}}`), []byte(`{"payload":null}`),
		[]byte(`{"Payload":{"id":"s"}}`), []byte(`{"payload":{"id":"s"},"Payload":{"id":"t"}}`), []byte(`{ "payload" : { "id" : "s" } }`),
	) {
		var m struct {
			Payload json.RawMessage `json:"payload"`
		}
		if json.Unmarshal(s, &m) != nil {
			continue
		}
		if got := payloadText(&r, s); string(got) != string(m.Payload) {
			t.Errorf("%s: payload %s, want %s", s, got, m.Payload)
		}
	}
}
