package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/agentstream/agentstream/event/eventtest"
	wire "github.com/agentstream/agentstream/internal/wire/acp"
)

// BenchmarkDecode reads the agents' outputs and the transcripts.
func BenchmarkDecode(b *testing.B) {
	eventtest.BenchDecode(b, recordings(b), newDecoder)
}

// FuzzSessionMeta: sessionMeta writes what json.Marshal writes for the
// wire.SessionMeta of the two messages, for any two JSON values and each
// method a session's setup answers. Seeded with every
// line of the recordings.
func FuzzSessionMeta(f *testing.F) {
	f.Add([]byte(`{"a": "<&> \u2028 `+"\u2028\u2029"+`"}`), []byte(` [1, {"b" : null}] `), true)
	for _, file := range recordings(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		var prev []byte
		for sc.Scan() {
			line := bytes.Clone(sc.Bytes())
			f.Add(prev, line, prev != nil)
			prev = line
		}
	}
	f.Fuzz(func(t *testing.T, initMsg, msg []byte, withInit bool) {
		if !json.Valid(msg) || (withInit && !json.Valid(initMsg)) {
			return
		}
		if !withInit {
			initMsg = nil
		}
		// The decoder hands sessionMeta compact messages; json.Marshal
		// compacts them.
		compact := func(p []byte) []byte {
			var c bytes.Buffer
			if json.Compact(&c, p) != nil {
				t.Fatalf("json.Compact(%q) fails", p)
			}
			return c.Bytes()
		}
		for _, method := range []string{wire.MethodSessionNew, wire.MethodSessionLoad, wire.MethodSessionResume} {
			meta := wire.SessionMeta{Initialize: initMsg}
			*map[string]*json.RawMessage{
				wire.MethodSessionNew: &meta.SessionNew, wire.MethodSessionLoad: &meta.SessionLoad, wire.MethodSessionResume: &meta.SessionResume,
			}[method] = msg
			want, err := json.Marshal(&meta)
			if err != nil {
				t.Fatal(err)
			}
			var cInit []byte
			if initMsg != nil {
				cInit = compact(initMsg)
			}
			if got := sessionMeta(cInit, method, compact(msg)); !bytes.Equal(got, want) {
				t.Errorf("sessionMeta(%q, %q, %q)\n got %s\nwant %s", initMsg, method, msg, got, want)
			}
		}
	})
}

// TestSessionMetaAllocs: sessionMeta makes its Meta in one allocation,
// the size it ends at, with and without the initialize response.
func TestSessionMetaAllocs(t *testing.T) {
	initMsg := []byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
	msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`)
	for _, init := range [][]byte{initMsg, nil} {
		if n := testing.AllocsPerRun(10, func() { sessionMeta(init, wire.MethodSessionNew, msg) }); n != 1 {
			t.Errorf("init %q: %v allocations, want 1", init, n)
		}
	}
}
