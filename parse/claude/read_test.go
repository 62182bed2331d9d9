package claude

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// lineSeeds are the recordings' lines.
func lineSeeds(t testing.TB) [][]byte {
	return wiretest.JSONLines(t, eventtest.Corpus(t, corpus, "*.jsonl"))
}

// deltaLineSeeds are the recordings' lines and delta lines in the form
// Claude Code writes them and forms close to it.
func deltaLineSeeds(t testing.TB) [][]byte {
	const (
		head = `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"h\u00e9 🦊 \"}},"}}`
		tail = `,"parent_tool_use_id":null,"uuid":"0bbc05d2-34d3-4974-a1d3-b93ec0123cef"}`
	)
	seeds := lineSeeds(t)
	for _, s := range []string{
		head + `,"session_id":"s1"` + tail,
		head + `,"session_id":"s\u0031"` + tail,
		head + `,"session_id":null` + tail,
		head + `,"session_id":"s1","parent_tool_use_id":"toolu_1","uuid":"u"}`,
		head + `,"session_id":"s1","parent_tool_use_id":null,"uuid":null}`,
		head + `,"session_id":"s1","parent_tool_use_id":null,"uuid":"u"} `,
		head + `,"session_id":"s1","parent_tool_use_id":null,"uuid":"u","uuid":"v"}`,
		head + `,"session_id":"s1","parent_tool_use_id":null,"uuid":"u"}}`,
		head + `,"session_id":"s1","parent_tool_use_id":null,"uuid":"u`,
		`{"type":"stream_event","event":{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"a"}},"session_id":"s1"` + tail,
		`{"type":"stream_event","event":{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}},"session_id":"s1"` + tail,
		`{"type":"stream_event","event":{"type":"content_block_delta","index":2,"delta":{"type":"thinking_delta","thinking":"t"}},"session_id":"s1"` + tail,
		`{"type":"stream_event","event":{"type":"content_block_delta","index":2,"delta":{"type":"signature_delta","signature":"x"}},"session_id":"s1"` + tail,
		`{"type":"stream_event","event":{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"a","text":"b"}},"session_id":"s1"` + tail,
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// compareDeltaLine checks that readDeltaLine, where it takes a line,
// decodes it as readLine does (internal/wire/claude's tests compare that
// with encoding/json), and reports whether it took it.
func compareDeltaLine(t *testing.T, data []byte) bool {
	t.Helper()
	if !utf8.Valid(data) {
		return false // the decoder's lines are made valid first
	}
	var fast, slow Decoder
	var got, want line
	fast.jr.ResetValid(data)
	if !fast.readDeltaLine(data, &got) {
		if diff := cmp.Diff(line{}, got, cmp.AllowUnexported(line{}, wire.Line{})); diff != "" {
			t.Errorf("%s: readDeltaLine refused the line but set it:\n%s", data, diff)
		}
		return false
	}
	if !slow.readLine(data, &want) {
		t.Fatalf("%s: readDeltaLine reads a line readLine does not", data)
	}
	want.UUID = "" // not read by readDeltaLine: nothing reads it
	if diff := cmp.Diff(want.Line, got.Line, cmpopts.IgnoreUnexported(wire.Line{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%s: line differs (-readLine +readDeltaLine):\n%s", data, diff)
	}
	opts := cmp.Options{cmp.AllowUnexported(anthropic.Message{}, anthropic.StreamEvent{}), cmpopts.EquateEmpty()}
	if diff := cmp.Diff(want.ev, got.ev, opts); diff != "" || got.msg != nil {
		t.Errorf("%s: event differs (-readLine +readDeltaLine), message %v:\n%s", data, got.msg, diff)
	}
	// Again, the session id now compared with the last line's.
	var again line
	fast.jr.ResetValid(data)
	if !fast.readDeltaLine(data, &again) || again.SessionID != want.SessionID {
		t.Errorf("%s: read again, session id %q, want %q", data, again.SessionID, want.SessionID)
	}
	return true
}

// TestReadDeltaLine: the delta lines of the recordings (some 500) are
// read by the fast path, as readLine reads them.
func TestReadDeltaLine(t *testing.T) {
	t.Parallel()
	wiretest.OnePassSeeds(t, deltaLineSeeds(t), 500, compareDeltaLine)
}

func FuzzReadDeltaLine(f *testing.F) { wiretest.FuzzOnePass(f, deltaLineSeeds(f), compareDeltaLine) }

// TestBlockText: blockText gives what json.Unmarshal into an
// anthropic.Block gives, also for a block of a type whose fields
// anthropic.UnmarshalBlock does not read.
func TestBlockText(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"type":"text","text":"a"}`,
		`{"type":"text","text":"a","text":"b"}`,
		`{"type":"text"}`,
		`{"type":"text","text":null}`,
		`{"type":"text","text":1}`,
		`{"TYPE":"text","Text":"a"}`,
		`{"type":"tool_use","id":"t","name":"n","input":{},"text":"a"}`,
		`{"type":"new_kind","text":"a"}`,
		`{"type":"new_kind","text":"a","id":{}}`,
		`{"text":"a"}`,
		`[]`,
		`"a"`,
	} {
		var cb anthropic.Block
		wantOK := json.Unmarshal([]byte(raw), &cb) == nil && cb.Text != nil
		want := ""
		if wantOK {
			want = *cb.Text
		}
		if got, ok := blockText([]byte(raw)); got != want || ok != wantOK {
			t.Errorf("blockText(%s) = %q, %v; want %q, %v", raw, got, ok, want, wantOK)
		}
	}
}
