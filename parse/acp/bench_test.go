package acp

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentstream/agentstream/event/eventtest"
)

// BenchmarkDecode reads the agents' outputs and the transcripts.
func BenchmarkDecode(b *testing.B) {
	eventtest.BenchDecode(b, recordings(b), newDecoder)
}

// TestSessionMeta: a session start's Meta is what json.Marshal writes
// for the map of its messages keyed by method (keys sorted), for every
// method a session's setup answers.
func TestSessionMeta(t *testing.T) {
	t.Parallel()
	initMsg := []byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"a":"<&>  "}}`)
	msg := []byte(`{"jsonrpc":"2.0", "id":1, "result":{"sessionId":"s"}}`)
	for _, method := range []string{"session/new", "session/load", "session/resume"} {
		for _, init := range [][]byte{nil, initMsg} {
			meta := map[string]json.RawMessage{method: msg}
			if init != nil {
				meta["initialize"] = init
			}
			want, err := json.Marshal(meta)
			if err != nil {
				t.Fatal(err)
			}
			if got := sessionMeta(init, method, msg); !bytes.Equal(got, want) {
				t.Errorf("sessionMeta(%q, %q)\n got %s\nwant %s", init, method, got, want)
			}
		}
	}
}
