package claude

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/internal/eventtest"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
)

// lineSeeds are the recordings' lines and odd ones.
func lineSeeds(t testing.TB) [][]byte {
	return eventtest.JSONLines(t, eventtest.Corpus(t, corpus, "*.jsonl"),
		`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}},"event":{"type":"ping"},"session_id":"s"}`,
		`{"type":"stream_event","parent_tool_use_id":"t","parent_tool_use_id":null,"session_id":null}`,
		`{"type":"stream_event","event":"x"}`,
		`{"type":"assistant","Message":{}}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1}},"Session_ID":"x"}`,
		`{"type":"result","modelUsage":{"m":{"inputTokens":1}},"permissionMode":"x"}`,
		`{"type":5}`,
	)
}

// compareLine checks that what the one-pass reader decodes is what
// json.Unmarshal gives (the stream event and the assistant message
// included; the uuid, which nothing reads, is not kept), and reports
// whether it decoded data.
func compareLine(t *testing.T, data []byte) bool {
	t.Helper()
	var d Decoder
	return eventtest.OnePass(t, data, d.readLine, func(got, want *Line) {
		if got.eventOK {
			var we messages.StreamEvent
			if err := json.Unmarshal(want.Event, &we); err != nil {
				t.Fatalf("%s: event decoded in one pass, json.Unmarshal says %v", data, err)
			}
			if diff := cmp.Diff(we, d.se, cmpopts.IgnoreUnexported(messages.StreamEvent{})); diff != "" {
				t.Errorf("%s: event differs (-json +one pass):\n%s", data, diff)
			}
		}
		if got.msgOK {
			var wm messages.Message
			if err := json.Unmarshal(want.Message, &wm); err != nil {
				t.Fatalf("%s: message decoded in one pass, json.Unmarshal says %v", data, err)
			}
			if diff := cmp.Diff(wm, got.msg); diff != "" {
				t.Errorf("%s: message differs (-json +one pass):\n%s", data, diff)
			}
		}
		got.eventOK, got.msg, got.msgOK = false, messages.Message{}, false
		want.UUID = ""
	})
}

func TestReadLineSeeds(t *testing.T) {
	t.Parallel()
	eventtest.OnePassSeeds(t, lineSeeds(t), 500, compareLine)
}

func FuzzReadLine(f *testing.F) { eventtest.FuzzOnePass(f, lineSeeds(f), compareLine) }

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
		var got Result
		d.jr.Reset(s)
		if !readResult(&d.jr, &got) || !d.jr.End() {
			continue
		}
		fast++
		var want Result
		json.Unmarshal(s, &want)
		// Only what result reads is decoded.
		want = Result{
			IsError: want.IsError, DurationMS: want.DurationMS, NumTurns: want.NumTurns, Result: want.Result,
			StopReason: want.StopReason, TotalCostUSD: want.TotalCostUSD, Usage: want.Usage, Errors: want.Errors,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: differs (-json +one pass):\n%s", s, diff)
		}
		// Read with the line, as the decoder does.
		var l Line
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
	eventtest.ReadsEveryField(t, d.readLine, ".uuid") // Line.UUID: nothing reads it (wire.go)
	// and the list SkipUnknown checks keys against:
	for _, name := range jsontext.FieldNames(Line{}) {
		if !isLineField(name) {
			t.Errorf("Line field %q is not read by readLine", name)
		}
	}
}
