package claude

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// lineSeeds are the recordings' lines and odd ones.
func lineSeeds(t testing.TB) [][]byte {
	return wiretest.JSONLines(t, eventtest.Corpus(t, corpus, "*.jsonl"),
		`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}},"event":{"type":"ping"},"session_id":"s"}`,
		`{"type":"stream_event","parent_tool_use_id":"t","parent_tool_use_id":null,"session_id":null}`,
		`{"type":"stream_event","event":"x"}`,
		`{"type":"assistant","Message":{}}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1}},"Session_ID":"x"}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1}},"permissionMode":"x"}`,
		`{"type":5}`,
		`{"type":"result","modelUsage":{"b":{"inputTokens":1,"costUSD":0.5},"a":null,"b":{"outputTokens":2,"x":{}}}}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1}},"modelUsage":null}`,
		`{"type":"result","modelUsage":{"m":{"inputtokens":1}}}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1.5}}}`,
		`{"type":"result","modelUsage":{"m":{"costUSD":1e400}}}`,
		`{"type":"result","modelUsage":{"m":"x"}}`,
		`{"type":"result","modelUsage":[],"num_turns":1}`,
		`{"type":"result","modelUsage":{"m\u0041":{}}}`,
		`{"type":"result","modelusage":{"m":{"inputTokens":1}}}`,
		`{"modelUsage":{"m":{"inputTokens":1}},"type":"result"}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1}},"duration_api_ms":1.5}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1}},"permission_denials":{}}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1}},"permission_denials":[1,{"a":null}],"duration_api_ms":null}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1}},"Duration_API_MS":"x"}`,
		`{"type":"assistant","message":{"content":[]},"ABORTED":true,"x":"aborted"}`,
		`{"type":"assistant","message":{"content":[]},"aborted":true}`,
	)
}

// compareLine checks that what the one-pass reader decodes is what
// json.Unmarshal gives (the stream event and the assistant message
// included; the uuid, which nothing reads, is not kept), and reports
// whether it decoded data.
func compareLine(t *testing.T, data []byte) bool {
	t.Helper()
	var d Decoder
	return wiretest.OnePass(t, data, d.readLine, func(got, want *line) {
		if got.eventOK {
			var we anthropic.StreamEvent
			if err := json.Unmarshal(want.Event, &we); err != nil {
				t.Fatalf("%s: event decoded in one pass, json.Unmarshal says %v", data, err)
			}
			if diff := cmp.Diff(we, d.se, cmpopts.IgnoreUnexported(anthropic.StreamEvent{})); diff != "" {
				t.Errorf("%s: event differs (-json +one pass):\n%s", data, diff)
			}
		}
		if got.msgOK {
			var wm anthropic.Message
			if err := json.Unmarshal(want.Message, &wm); err != nil {
				t.Fatalf("%s: message decoded in one pass, json.Unmarshal says %v", data, err)
			}
			if diff := cmp.Diff(wm, got.msg); diff != "" {
				t.Errorf("%s: message differs (-json +one pass):\n%s", data, diff)
			}
		}
		if got.Type == wire.TypeResult && d.resOK && d.modelsOK {
			// What result takes instead of runModels' decoding.
			if diff := cmp.Diff(runModels(data), eventModels(d.models)); diff != "" {
				t.Errorf("%s: modelUsage differs (-json +one pass):\n%s", data, diff)
			}
		}
		if got.noAborted && abortedLine(data) {
			t.Errorf("%s: readLine says no aborted key, abortedLine says aborted", data)
		}
		got.eventOK, got.msg, got.msgOK, got.noAborted = false, anthropic.Message{}, false, false
		want.UUID = ""
	})
}

func TestReadLineSeeds(t *testing.T) {
	t.Parallel()
	wiretest.OnePassSeeds(t, lineSeeds(t), 500, compareLine)
}

func FuzzReadLine(f *testing.F) { wiretest.FuzzOnePass(f, lineSeeds(f), compareLine) }

// TestReadResult: for every result line of the recordings and odd ones,
// the fields result reads are what json.Unmarshal gives.
func TestReadResult(t *testing.T) {
	t.Parallel()
	seeds := lineSeeds(t)
	for _, s := range []string{
		`{"type":"result","num_turns":2,"usage":{"input_tokens":1,"server_tool_use":{"Web":1}},"usage":{"output_tokens":2},"total_cost_usd":0.25,"errors":["a"],"errors":null,"modelUsage":{"m":{"inputTokens":1}}}`,
		`{"type":"result","Num_Turns":2}`,
		`{"type":"result","num_turns":1.5,"total_cost_usd":1e400,"result":"r","stop_reason":null}`,
	} {
		seeds = append(seeds, []byte(s))
	}
	fast, inline := 0, 0
	for _, s := range seeds {
		if !bytes.Contains(s, []byte(`"type":"result"`)) {
			continue
		}
		var d Decoder
		var got wire.Result
		d.jr.Reset(s)
		if !readResult(&d.jr, &got) || !d.jr.End() {
			continue
		}
		fast++
		var want wire.Result
		json.Unmarshal(s, &want)
		// Only what result reads is decoded.
		want = wire.Result{
			IsError: want.IsError, DurationMS: want.DurationMS, NumTurns: want.NumTurns, Result: want.Result,
			StopReason: want.StopReason, TotalCostUSD: want.TotalCostUSD, Usage: want.Usage, Errors: want.Errors,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: differs (-json +one pass):\n%s", s, diff)
		}
		// Read with the line, as the decoder does.
		var l line
		d.jr.Reset(s)
		if d.readLine(&d.jr, &l) && d.jr.End() && d.resOK {
			inline++
			if diff := cmp.Diff(want, d.res); diff != "" {
				t.Errorf("%s: read with the line, differs (-json +one pass):\n%s", s, diff)
			}
		}
	}
	if inline < 10 {
		t.Errorf("only %d result lines read with their line", inline)
	}
	if fast < 10 {
		t.Errorf("only %d result lines decoded in one pass", fast)
	}
}

// TestReadLineKnowsEveryField: a field added to Line must be read by
// readLine too, which would otherwise skip it.
func TestReadLineKnowsEveryField(t *testing.T) {
	t.Parallel()
	var d Decoder
	wiretest.ReadsEveryField(t, d.readLine, ".Line.uuid") // Line.UUID: nothing reads it (wire.go)
	// and the list SkipUnknown checks keys against:
	for _, name := range jsontext.FieldNames(wire.Line{}) {
		if !wire.IsLineField(name) {
			t.Errorf("Line field %q is not read by readLine", name)
		}
	}
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
// decodes it as readLine does (TestReadLineSeeds compares readLine with
// encoding/json), and reports whether it took it.
func compareDeltaLine(t *testing.T, data []byte) bool {
	t.Helper()
	if !utf8.Valid(data) {
		return false // the decoder's lines are made valid first
	}
	var fast, slow Decoder
	var got, want line
	fast.jr.ResetValid(data)
	if !fast.readDeltaLine(data, &got) {
		if diff := cmp.Diff(line{}, got, cmp.AllowUnexported(line{})); diff != "" {
			t.Errorf("%s: readDeltaLine refused the line but set it:\n%s", data, diff)
		}
		return false
	}
	slow.jr.ResetValid(data)
	if !slow.readLine(&slow.jr, &want) || !slow.jr.End() {
		t.Fatalf("%s: readDeltaLine reads a line readLine does not", data)
	}
	opts := cmp.Options{cmp.AllowUnexported(line{}, anthropic.Message{}, anthropic.StreamEvent{}), cmpopts.EquateEmpty()}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("%s: line differs (-readLine +readDeltaLine):\n%s", data, diff)
	}
	if diff := cmp.Diff(slow.se, fast.se, opts); diff != "" {
		t.Errorf("%s: event differs (-readLine +readDeltaLine):\n%s", data, diff)
	}
	if diff := cmp.Diff(slow.res, fast.res); diff != "" || slow.resOK != fast.resOK {
		t.Errorf("%s: result fields differ (resOK %v, want %v):\n%s", data, fast.resOK, slow.resOK, diff)
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
