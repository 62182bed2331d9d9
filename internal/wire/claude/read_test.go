package claude

import (
	"path/filepath"
	"testing"

	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// sessionSeeds are the lines of session log recordings and odd ones.
func sessionSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../../testdata/claude-session/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no session log recordings")
	}
	return wiretest.JSONLines(t, files,
		`{"type":"user","message":{"role":"user","content":"hi"},"message":{"id":"x"}}`,
		`{"type":"user","message":{"content":"hi","content":[]}}`,
		`{"type":"user","message":null,"message":{"content":[{"type":"text","text":"a"},null]}}`,
		`{"type":"user","message":{"content":[5]}}`,
		`{"type":"user","message":{"content":5,"Model":"m"}}`,
		`{"type":"user","message":{"content":null,"content":"x"}}`,
		`{"type":"user","sessionid":"s","isSidechain":null,"parentUuid":null}`,
		`{"type":"assistant","SessionId":"s","parentUuid":"p","parentUuid":"q","isMeta":true}`,
		`{"type":"attachment","attachment":{"type":"a","Type":"b"},"content":null,"error":"x"}`,
		`{"type":"attachment","attachment":{"type":"a"},"attachment":null,"attachment":{}}`,
		`{"type":"assistant","message":{"usage":{"input_tokens":1},"usage":{"output_tokens":2},"stop_reason":null}}`,
		`{"type":"queue-operation","operation":"enqueue","content":[1,{"a":null}],"toolUseResult":"s"}`,
		`{"type":5}`,
	)
}

func compareSession(t *testing.T, data []byte) bool {
	t.Helper()
	return wiretest.OnePass(t, data, ReadSessionLine, nil)
}

func TestReadSessionLineSeeds(t *testing.T) {
	t.Parallel()
	seeds := sessionSeeds(t)
	wiretest.OnePassSeeds(t, seeds, len(seeds)-12, compareSession)
}

func FuzzReadSessionLine(f *testing.F) { wiretest.FuzzOnePass(f, sessionSeeds(f), compareSession) }

// TestReadersReadEveryField: each field of the declarations, set alone,
// is read by the generated readers.
func TestReadersReadEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadSessionLine)
	wiretest.ReadsEveryField(t, ReadSessionMessage)
}
