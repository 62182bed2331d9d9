package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
	wiretest.ReadsEveryField(t, ReadInit)
}

// initSeeds are the init lines of stream-json recordings and odd ones.
func initSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../../testdata/claude/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no stream-json recordings")
	}
	var seeds [][]byte
	for _, l := range wiretest.JSONLines(t, files) {
		if bytes.Contains(l, []byte(`"init"`)) {
			seeds = append(seeds, l)
		}
	}
	for _, s := range []string{
		`{"type":"system","subtype":"init","tools":["a","b"],"tools":["c",null]}`,
		`{"type":"system","subtype":"init","tools":null,"tools":["a"],"agents":[null,"x"]}`,
		`{"type":"system","subtype":"init","tools":[],"tools":["a"]}`,
		`{"type":"system","subtype":"init","Tools":["a"],"MODEL":"m","plugins":[{"a":1}],"mcp_servers":null}`,
		`{"type":"system","subtype":"init","tools":"a"}`, `{"tools":[1]}`, `{"plugins":{}}`, `{"model":null,"cwd":5}`,
		"{\"tools\":[\"\xff\"]}", `{"tools" : [ "a" , "b" ] , "skills" : [ ] }`,
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// compareInit checks ReadInit, and an InitReader on data after the
// line before (prev, whose lists it then keeps), with json.Unmarshal.
func compareInit(t *testing.T, prev, data []byte) bool {
	t.Helper()
	var ir InitReader
	var in, want Init
	ir.Unmarshal(prev, &in)
	in = Init{}
	err := ir.Unmarshal(data, &in)
	werr := json.Unmarshal(data, &want)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("%q after %q: error %v, json.Unmarshal's %v", data, prev, err, werr)
	}
	if diff := cmp.Diff(want, in, cmpopts.IgnoreUnexported(Init{})); diff != "" {
		t.Errorf("%q after %q (-json.Unmarshal +InitReader):\n%s", data, prev, diff)
	}
	return wiretest.OnePass(t, data, ReadInit, func(got, _ *Init) {
		// What the reader keeps for the next init, not a field.
		got.cwd, got.sessionID, got.model, got.permissionMode, got.apiKeySource, got.version, got.outputStyle = "", "", "", "", "", "", ""
		got.tools, got.slashCommands, got.agents, got.skills = keptStrings{}, keptStrings{}, keptStrings{}, keptStrings{}
	})
}

func TestReadInitSeeds(t *testing.T) {
	t.Parallel()
	seeds := initSeeds(t)
	for i, s := range seeds {
		for _, p := range [][]byte{s, seeds[(i+1)%len(seeds)], seeds[0]} {
			compareInit(t, p, s)
		}
	}
}

func FuzzReadInit(f *testing.F) {
	seeds := initSeeds(f)
	for i, s := range seeds {
		f.Add(seeds[(i+1)%len(seeds)], s)
	}
	f.Fuzz(func(t *testing.T, prev, data []byte) { compareInit(t, prev, data) })
}
