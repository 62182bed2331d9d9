package acp

import (
	"bytes"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event/eventtest"
)

// oneLineCases are lines agentLine reads or must leave to the Message
// path, each with what both paths must agree on.
var oneLineCases = []string{
	newResp, chunk, pending, running, permit, diffDone, plan, endTurn,
	`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`,
	`{"jsonrpc":"2.0","id":1,"result":null}`,
	`{"jsonrpc":"2.0","id":1,"result":{"sessionId":7}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"sessionId":null,"models":{"currentModelId":"m"}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s","configOptions":[{"category":"model","currentValue":"x"}]}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"stopReason":5}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":2,"totalTokens":3,"thoughtTokens":4}}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"StopReason":"end_turn"}}`,
	`{"jsonrpc":"2.0","id":2,"result":[1]}`,
	`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"},"error":{"code":1,"message":"x"}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":null}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":null}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":7}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":[]}`,
	`{"jsonrpc":"2.0","method":"session/update","id":3,"params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`,
	`{"jsonrpc":"2.0","Method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`,
	`{"jsonrpc":"1.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}`,
	`{"dir":null,"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`,
	`{"dir":"agent->client","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}}`,
}

// items decodes data with the one-pass line reader on or off.
func items(data []byte, noLine bool) []eventtest.Item {
	d := NewDecoder(bytes.NewReader(data), &Config{Source: "in"})
	d.noLine = noLine
	return eventtest.Collect(d)
}

func sameAsMessage(t *testing.T, data []byte) {
	t.Helper()
	if diff := cmp.Diff(items(data, true), items(data, false)); diff != "" {
		t.Errorf("%q: the one-pass line reader gives other events than the Message path (-Message +Line):\n%s", data, diff)
	}
}

// TestLineAsMessage: whatever agentLine reads, it reads as decode's
// Message path does, and what it leaves gives the same events too.
func TestLineAsMessage(t *testing.T) {
	t.Parallel()
	for _, c := range oneLineCases {
		sameAsMessage(t, []byte(lines(newResp, c, chunk, endTurn)))
		sameAsMessage(t, []byte(lines(c)))
	}
	for _, path := range recordings(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sameAsMessage(t, data)
	}
}

func FuzzLineAsMessage(f *testing.F) {
	for _, c := range oneLineCases {
		f.Add([]byte(lines(c)))
	}
	for _, path := range recordings(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsMessage(t, data)
	})
}
