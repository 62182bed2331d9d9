package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
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
	wiretest.ReadsEveryField(t, ReadLine, ".uuid")
	wiretest.ReadsEveryField(t, ReadStreamLine, ".Line.uuid")
	wiretest.ReadsEveryField(t, ReadResult)
	wiretest.ReadsEveryField(t, ReadNotice)
	wiretest.ReadsEveryField(t, ReadUserMessage, ".role")
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
		got.tools, got.slashCommands, got.agents, got.skills = jsontext.KeptStrings{}, jsontext.KeptStrings{}, jsontext.KeptStrings{}, jsontext.KeptStrings{}
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

// streamSeeds are the lines of stream-json recordings and odd ones.
func streamSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../../testdata/claude/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no stream-json recordings")
	}
	return wiretest.JSONLines(t, files,
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
		`{"type":"result","num_turns":2,"usage":{"input_tokens":1,"server_tool_use":{"Web":1}},"usage":{"output_tokens":2},"total_cost_usd":0.25,"errors":["a"],"errors":null,"modelUsage":{"m":{"inputTokens":1}}}`,
		`{"type":"result","Num_Turns":2}`, `{"type":"result","Type":"x"}`, `{"type":"user","is_error":"x"}`,
		`{"type":"result","num_turns":1.5,"total_cost_usd":1e400,"result":"r","stop_reason":null}`,
		`{"type":"user","message":{"role":"user","content":"hi"}}`, `{"type":"assistant","aborted":"x"}`, `{"type":"assistant","aborted":false,"aborted":true}`,
		`{"type":"assistant","Aborted":true}`, `{"type":"assistant","uuid":5}`, `{"type":"assistant","uuid":null,"UUID":"x"}`, `{"type":"user","message":{"content":[{"type":"text","text":"a"}]}}`,
		`{"type":"system","subtype":"init","tools":5}`, `{"type":"system","subtype":"init","tools":["a"],"tools":["b"]}`,
		`{"type":"system","subtype":"init","tools":["a"],"tools":null}`, `{"type":"system","subtype":"init","Tools":["a"],"MODEL":"m"}`,
		`{"type":"system","subtype":"init","mcp_servers":[{"name":"x","status":"ok"}],"plugins":[1,"a",null,[]]}`,
		`{"type":"system","subtype":"init","model":null,"cwd":"\u0041","skills":[]}`, `{"type":"system","subtype":"init","agents":["a",1]}`,
		`{"type":"assistant","model":"m","message":{"content":[]}}`, `{"type":"system","subtype":"status","model":5}`,
	)
}

// compareStreamLine checks ReadStreamLine with json.Unmarshal into a
// StreamLine (a Line), and what it decodes with the line with
// json.Unmarshal of the same text: the event, the message, the line into
// a Result.
func compareStreamLine(t *testing.T, data []byte) bool {
	t.Helper()
	return wiretest.OnePass(t, data, ReadStreamLine, func(got, want *StreamLine) {
		if got.event != nil {
			var we anthropic.StreamEvent
			if err := json.Unmarshal(want.Event, &we); err != nil {
				t.Fatalf("%s: event decoded in one pass, json.Unmarshal says %v", data, err)
			}
			if diff := cmp.Diff(we, *got.event, cmpopts.IgnoreUnexported(anthropic.StreamEvent{})); diff != "" {
				t.Errorf("%s: event differs (-json +one pass):\n%s", data, diff)
			}
		}
		if got.message != nil {
			var wm anthropic.Message
			if err := json.Unmarshal(want.Message, &wm); err != nil {
				t.Fatalf("%s: message decoded in one pass, json.Unmarshal says %v", data, err)
			}
			if diff := cmp.Diff(wm, *got.message); diff != "" {
				t.Errorf("%s: message differs (-json +one pass):\n%s", data, diff)
			}
		}
		var wr Result
		var wm Mark
		var wi Init
		if err := errors.Join(json.Unmarshal(data, &wr), json.Unmarshal(data, &wm), json.Unmarshal(data, &wi)); err != nil {
			t.Fatalf("%s: read in one pass, json.Unmarshal into a Result, a Mark or an Init says %v", data, err)
		}
		wi.UUID = "" // checked, not set
		if diff := cmp.Diff(wi, got.init, cmpopts.IgnoreUnexported(Init{})); diff != "" {
			t.Errorf("%s: init fields differ (-json +one pass):\n%s", data, diff)
		}
		wr.UUID = "" // checked, not set
		if diff := cmp.Diff(wr, got.result); diff != "" {
			t.Errorf("%s: result fields differ (-json +one pass):\n%s", data, diff)
		}
		if wm != got.mark {
			t.Errorf("%s: mark %+v, json.Unmarshal %+v", data, got.mark, wm)
		}
		got.event, got.message, got.result, got.mark, got.init, got.sessionID = nil, nil, Result{}, Mark{}, Init{}, ""
		want.UUID = "" // checked, not set
	})
}

func TestReadStreamLineSeeds(t *testing.T) {
	t.Parallel()
	wiretest.OnePassSeeds(t, streamSeeds(t), 500, compareStreamLine)
}

func FuzzReadStreamLine(f *testing.F) { wiretest.FuzzOnePass(f, streamSeeds(f), compareStreamLine) }

// TestUnmarshalKind: UnmarshalKind is json.Unmarshal into a Line, type,
// subtype and error.
func TestUnmarshalKind(t *testing.T) {
	t.Parallel()
	for _, raw := range streamSeeds(t) {
		var l Line
		wantErr := json.Unmarshal(raw, &l)
		typ, sub, err := UnmarshalKind(raw)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() || typ != l.Type || sub != l.Subtype {
			t.Errorf("UnmarshalKind(%q) = %q, %q, %v; json.Unmarshal: %q, %q, %v", raw, typ, sub, err, l.Type, l.Subtype, wantErr)
		}
	}
}

// noticeSeeds are the lines of stream-json recordings and odd status
// lines.
func noticeSeeds(t testing.TB) [][]byte {
	seeds := streamSeeds(t)
	for _, s := range []string{
		`{"type":"system","subtype":"api_retry","attempt":1,"max_retries":2,"retry_delay_ms":5.5e2,"error_status":null,"error":{"x":1}}`,
		`{"type":"system","subtype":"api_retry","attempt":1.5,"error_status":"x","error":5}`,
		`{"type":"system","subtype":"api_retry","Attempt":3,"ERROR":"e","error_status":529,"error_status":null}`,
		`{"type":"system","subtype":"task_progress","usage":{"tool_uses":2,"Tool_Uses":3},"usage":{"total_tokens":1}}`,
		`{"type":"system","subtype":"task_progress","usage":null,"usage":5,"description":null}`,
		`{"type":"system","subtype":"task_updated","patch":{"status":"done","error":"e","x":[1]},"patch":{"error":null}}`,
		`{"type":"system","subtype":"task_updated","patch":"x"}`,
		`{"type":"system","subtype":"compact_boundary","compact_metadata":{"trigger":"auto","pre_tokens":5}}`,
		`{"type":"system","subtype":"compact_boundary","compact_metadata":null,"rate_limit_info":null}`,
		`{"type":"system","subtype":"x","content":"c","content":null,"message":"m","elapsed_time_seconds":1e400}`,
		`{"type":"system","subtype":"x","status":null,"status":"s","estimated_tokens":-0}`,
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// compareNotice checks ReadNotice with json.Unmarshal, after a status
// line (whose status the reader keeps).
func compareNotice(t *testing.T, data []byte) bool {
	t.Helper()
	return wiretest.OnePass(t, data, func(r *jsontext.Reader, n *Notice) bool {
		var prev jsontext.Reader
		prev.Reset([]byte(`{"type":"system","subtype":"status","status":"compacting"}`))
		ReadNotice(&prev, n)
		ResetNotice(n)
		return ReadNotice(r, n)
	}, func(got, _ *Notice) { got.status = nil })
}

func TestReadNoticeSeeds(t *testing.T) {
	t.Parallel()
	wiretest.OnePassSeeds(t, noticeSeeds(t), 0, compareNotice)
	// Every system line the recordings hold is read in one pass (the
	// floor counts only them: other lines have no notice to read).
	sys := recordedLines(t, "system")
	wiretest.OnePassSeeds(t, sys, len(sys), compareNotice)
}

// recordedLines returns the lines of the stream-json recordings in
// testdata whose type is typ (at least one).
func recordedLines(t *testing.T, typ string) [][]byte {
	t.Helper()
	files, _ := filepath.Glob("../../../testdata/claude/*.jsonl")
	var lines [][]byte
	for _, l := range wiretest.JSONLines(t, files) {
		var k struct{ Type string }
		if json.Unmarshal(l, &k) == nil && k.Type == typ {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("no %s lines in the recordings", typ)
	}
	return lines
}

func FuzzReadNotice(f *testing.F) { wiretest.FuzzOnePass(f, noticeSeeds(f), compareNotice) }

// compareUserMessage checks ReadUserMessage with json.Unmarshal on the
// message of a user line of the seeds.
func compareUserMessage(t *testing.T, data []byte) bool {
	t.Helper()
	var l struct{ Message json.RawMessage }
	if json.Unmarshal(data, &l) != nil || len(l.Message) == 0 {
		l.Message = data
	}
	return wiretest.OnePass(t, l.Message, ReadUserMessage, func(got, want *UserMessage) {
		want.Role = "" // checked, not set
		if len(want.Content) > 0 && want.Content[0] == '[' {
			var wb []json.RawMessage
			if err := json.Unmarshal(want.Content, &wb); err != nil {
				t.Fatalf("%s: content %v", data, err)
			}
			if diff := cmp.Diff(wb, got.Blocks(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: content's elements (-json +one pass):\n%s", data, diff)
			}
		} else if got.Blocks() != nil {
			t.Errorf("%s: elements of content that is no array: %q", data, got.Blocks())
		}
		got.blocks = nil
	})
}

func TestReadUserMessageSeeds(t *testing.T) {
	t.Parallel()
	seeds := append(streamSeeds(t), []byte(`{"role":5}`), []byte(`{"role":null,"content":null}`), []byte(`{"Content":"x"}`),
		[]byte(`{"content":[1,{}],"content":"s"}`), []byte(`{"ROLE":"user"}`), []byte(`[]`))
	wiretest.OnePassSeeds(t, seeds, 0, compareUserMessage)
	// Every user line's message the recordings hold is read in one pass.
	user := recordedLines(t, "user")
	wiretest.OnePassSeeds(t, user, len(user), compareUserMessage)
}

func FuzzReadUserMessage(f *testing.F) { wiretest.FuzzOnePass(f, streamSeeds(f), compareUserMessage) }
