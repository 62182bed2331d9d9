package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// oddLines are lines the one-pass readers of wire.UnmarshalInit and
// wire.UnmarshalKind must hand to encoding/json, or decode as it does.
var oddLines = []string{
	`{"type":"system","subtype":"init","session_id":"s","tools":["Bash",null],"cwd":"/","model":"m"}`,
	`{"type":"system","subtype":"init","tools":["a","b"],"tools":[null]}`,
	`{"type":"system","subtype":"init","tools":["a","b"],"tools":[]}`,
	`{"type":"system","subtype":"init","tools":["Bash","Write","x","y"]}`,
	`{"type":"system","subtype":"init","tools":null}`,
	`{"type":"system","subtype":"init","tools":[]}`,
	`{"type":"system","subtype":"init","tools":"Bash"}`,
	`{"type":"system","subtype":"init","tools":[1]}`,
	`{"type":"system","subtype":"init","Session_ID":"s"}`,
	`{"type":"system","subtype":"init","permissionmode":1}`,
	`{"type":"system","subtype":"init","permissionMode":"x","apiKeySource":null}`,
	`{"type":"system","subtype":"init","PermissionMode":"x"}`,
	`{"type":"system","subtype":"init","mcp_servers":null,"plugins":[{"a":1}],"session_id":"s"}`,
	`{"type":"system","subtype":"init","mcp_servers":{},"session_id":"s"}`,
	`{"type":"system","subtype":"init","agents":[1],"session_id":"s"}`,
	`{"type":"system","subtype":"init","session_id":"\ud800x\u00e9"}`,
	`{"type":"system","subtype":"init","session_id":"a\xffb"}`,
	`{"type":"system","subtype":"init","uuid":3}`,
	`{"type":"system","subtype":"init","session_id":"s"} x`,
	`{"type":"system","subtype":"init","session_id":"s"`,
	`{"TYPE":"system","subtype":"status"}`,
	`{"type":null,"subtype":"status"}`,
	`{"type":"system","subtype":5}`,
	`{"type":"system","parent_tool_use_id":3}`,
	`{"type":"system","message":{"a":[1,2]},"event":null,"error":"x","tool_use_result":[]}`,
	`{"type":"system","other":{"nested":[true,false,null,-1.5e3]}}`,
	`{"type":"system","subtype":"status","status":"requesting"}`,
	`{"type":"system","subtype":"status","status":"a\nb","Status":"c"}`,
	`{"type":"system","subtype":"status","status":"a","status":null}`,
	`{"type":"system","subtype":"status","status":5}`,
	`{"type":"system","subtype":"status"}`,
	`{"type":"system","subtype":"thinking_tokens","estimated_tokens":12,"estimated_tokens_delta":5}`,
	`{"type":"system","subtype":"thinking_tokens","estimated_tokens":1.5}`,
	`{"type":"system","subtype":"thinking_tokens","Estimated_Tokens":7}`,
	`{"type":"system","subtype":"thinking_tokens","estimated_tokens":99999999999999999999}`,
	`{"type":"stream_event","event":{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}}}}`,
	`{"type":"stream_event","event":{"type":"message_start","message":{"id":"m"},"message":{"model":"x"}}}`,
	`{"type":"stream_event","event":{"type":"message_start","message":null}}`,
	`{"type":"stream_event","event":{"type":"message_start","message":{"id":"m","Model":"x"}}}`,
	`{"type":"stream_event","event":{"type":"message_start","message":{"id":5}}}`,
	`{"type":"stream_event","event":{"message":{"id":"m","content":[{"type":"text","text":""}]},"type":null}}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}, {"type":"text","text":"y"}]}}`,
	`{"type":"user","message":{"role":"user","content":"hi","content":[]}}`,
	`{"type":"user","message":{"role":"user","content":[1],"content":"hi"}}`,
	`{"type":"user","message":{"role":5,"content":[]}}`,
	`{"type":"user","message":{"Role":"user","content":[]}}`,
	`{"type":"user","message":{"role":"user","Content":[]}}`,
	`{"type":"user","message":{"role":"user","content":null}}`,
	`{"type":"user","message":{"role":"user","content": [ {"a": 1} , 2 ] ,"other":{}}}`,
	`{"type":"user","message":"text"}`,
	`[]`,
	`"system"`,
	``,
}

// lines returns every line of the corpus recordings and oddLines.
func lines(t testing.TB) [][]byte {
	var out [][]byte
	for _, l := range oddLines {
		out = append(out, []byte(l))
	}
	files, _ := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			out = append(out, bytes.Clone(sc.Bytes()))
		}
	}
	return out
}

type initResult struct {
	Cwd, SessionID, Model string
	Tools                 []string
	Err                   string
}

// checkInit checks a new wire.InitReader against json.Unmarshal on raw.
func checkInit(t *testing.T, raw []byte) {
	t.Helper()
	var in, want wire.Init
	wantErr := json.Unmarshal(raw, &want)
	err := new(wire.InitReader).Unmarshal(raw, &in)
	w := initResult{Cwd: want.Cwd, SessionID: want.SessionID, Model: want.Model, Tools: want.Tools}
	g := initResult{Cwd: in.Cwd, SessionID: in.SessionID, Model: in.Model, Tools: in.Tools}
	if wantErr != nil {
		w.Err = wantErr.Error()
	}
	if err != nil {
		g.Err = err.Error()
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("UnmarshalInit(%q) (-json.Unmarshal +got):\n%s", raw, diff)
	}
	if diff := cmp.Diff(want, in, cmpopts.IgnoreUnexported(wire.Init{})); err == nil && diff != "" {
		t.Errorf("InitReader.Unmarshal(%q), every field (-json.Unmarshal +got):\n%s", raw, diff)
	}
	if (w.Tools == nil) != (g.Tools == nil) {
		t.Errorf("UnmarshalInit(%q): tools %#v, json.Unmarshal %#v", raw, g.Tools, w.Tools)
	}
	// An wire.InitReader, on raw and again on raw, whose lists it then has.
	var ir wire.InitReader
	for range 2 {
		in = wire.Init{}
		err = ir.Unmarshal(raw, &in)
		g = initResult{Cwd: in.Cwd, SessionID: in.SessionID, Model: in.Model, Tools: in.Tools}
		if err != nil {
			g.Err = err.Error()
		}
		if diff := cmp.Diff(w, g); diff != "" || (w.Tools == nil) != (g.Tools == nil) {
			t.Errorf("InitReader.Unmarshal(%q) (-json.Unmarshal +got):\n%s", raw, diff)
		}
	}
	if !utf8.Valid(raw) {
		return // the decoder's precondition: its lines went through badutf8.Fix
	}
	// The decoder's, with the tools of an init before.
	d := NewDecoder(nil, nil)
	if err := d.unmarshalInit([]byte(`{"tools":["Bash","Read","x"]}`), &wire.Init{}); err != nil {
		t.Fatal(err)
	}
	in = wire.Init{}
	err = d.unmarshalInit(raw, &in)
	g = initResult{Cwd: in.Cwd, SessionID: in.SessionID, Model: in.Model, Tools: in.Tools}
	if err != nil {
		g.Err = err.Error()
	}
	if diff := cmp.Diff(w, g); diff != "" || (w.Tools == nil) != (g.Tools == nil) {
		t.Errorf("Decoder.unmarshalInit(%q) (-json.Unmarshal +got):\n%s", raw, diff)
	}
}

// checkKind checks wire.UnmarshalKind against json.Unmarshal on raw.
func checkKind(t *testing.T, raw []byte) {
	t.Helper()
	var l wire.Line
	wantErr := json.Unmarshal(raw, &l)
	typ, sub, err := wire.UnmarshalKind(raw)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() || typ != l.Type || sub != l.Subtype {
		t.Errorf("UnmarshalKind(%q) = %q, %q, %v; json.Unmarshal: %q, %q, %v", raw, typ, sub, err, l.Type, l.Subtype, wantErr)
	}
}

func TestUnmarshalInitKind(t *testing.T) {
	t.Parallel()
	all := lines(t)
	if len(all) < 500 {
		t.Fatalf("%d lines: the corpus is missing", len(all))
	}
	for _, raw := range all {
		checkInit(t, raw)
		checkKind(t, raw)
		checkSummary(t, raw)
		checkStreamEvent(t, raw)
		checkUser(t, raw)
	}
}

// checkStreamEvent checks messages.ReadStreamEvent (which reads the
// message_start events readMessageEvent read here) against json.Unmarshal
// on the event of raw, when it is a stream_event line.
func checkStreamEvent(t *testing.T, raw []byte) {
	t.Helper()
	var l struct{ Event json.RawMessage }
	if !utf8.Valid(raw) || json.Unmarshal(raw, &l) != nil || len(l.Event) == 0 {
		return
	}
	var want, got anthropic.StreamEvent
	wantErr := json.Unmarshal(l.Event, &want)
	var r jsontext.Reader
	r.ResetValid(l.Event)
	if !anthropic.ReadStreamEvent(&r, &got) || !r.End() {
		return // left to encoding/json
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(anthropic.StreamEvent{})); wantErr != nil || diff != "" {
		t.Errorf("ReadStreamEvent(%q) (-json.Unmarshal +got), error %v:\n%s", l.Event, wantErr, diff)
	}
}

// checkUser checks readUser against json.Unmarshal on the message of
// raw.
func checkUser(t *testing.T, raw []byte) {
	t.Helper()
	var l struct{ Message json.RawMessage }
	if !utf8.Valid(raw) || json.Unmarshal(raw, &l) != nil || len(l.Message) == 0 {
		return
	}
	var want, got wire.UserMessage
	wantErr := json.Unmarshal(l.Message, &want)
	var wantBlocks []json.RawMessage
	if wantErr == nil && len(want.Content) > 0 && want.Content[0] == '[' {
		wantErr = json.Unmarshal(want.Content, &wantBlocks)
	}
	d := NewDecoder(nil, nil)
	blocks, ok := d.readUser(l.Message, &got)
	if !ok {
		return // left to encoding/json
	}
	// (Role is checked, not kept: user reads only the content.)
	if diff := cmp.Diff(string(want.Content), string(got.Content)); wantErr != nil || diff != "" {
		t.Errorf("readUser(%q) content (-json.Unmarshal +got), error %v:\n%s", l.Message, wantErr, diff)
	}
	if diff := cmp.Diff(wantBlocks, blocks, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("readUser(%q) blocks (-json.Unmarshal +got):\n%s", l.Message, diff)
	}
}

// checkSummary checks the decoder's summary against summary on raw.
func checkSummary(t *testing.T, raw []byte) {
	t.Helper()
	var l line
	if !utf8.Valid(raw) || json.Unmarshal(raw, &l) != nil {
		return // the decoder's precondition: a line it decoded, valid UTF-8
	}
	d := NewDecoder(nil, nil)
	for range 2 { // the second time with the status of the first kept
		if got := d.summary(&l, raw); got != summary(&l, raw) {
			t.Errorf("Decoder.summary(%q) = %q, summary %q", raw, got, summary(&l, raw))
		}
	}
}

func FuzzUnmarshalInitKind(f *testing.F) {
	for _, l := range oddLines {
		f.Add([]byte(l))
	}
	files, _ := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	for _, name := range files {
		data, _ := os.ReadFile(name)
		for l := range bytes.Lines(data) {
			if bytes.Contains(l, []byte(`"system"`)) || bytes.Contains(l, []byte(`message_start`)) || bytes.Contains(l, []byte(`"user"`)) {
				f.Add(bytes.TrimSpace(l))
			}
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkInit(t, raw)
		checkKind(t, raw)
		checkSummary(t, raw)
		checkStreamEvent(t, raw)
		checkUser(t, raw)
	})
}

// toolsText finds an init line's tools list.
var toolsText = regexp.MustCompile(`"tools":\[[^\]]*\]`)

// TestInitListsRepeat: one decoder reading init lines in turn, whose
// lists repeat the last init's text or not, reads each as json.Unmarshal
// does (the names of a repeated list taken from the last init's).
func TestInitListsRepeat(t *testing.T) {
	t.Parallel()
	const tail = `"slash_commands":["a","b"],"agents":["x"],"skills":[],"session_id":"s"}`
	seq := []string{
		`{"type":"system","subtype":"init","tools":["Bash","Read"],` + tail,
		`{"type":"system","subtype":"init","tools":["Bash","Read"],` + tail,
		`{"type":"system","subtype":"init","tools":["Bash","Read"],"tools":["Edit",null],` + tail,
		`{"type":"system","subtype":"init","tools":["Bash","Read"],` + tail,
		`{"type":"system","subtype":"init","tools":["Bash","Read","Write"],` + tail,
		`{"type":"system","subtype":"init","tools":["Bash","Read"],` + tail,
		`{"type":"system","subtype":"init","tools":[],` + tail,
		`{"type":"system","subtype":"init","tools":["Bash","Read"],` + tail,
		`{"type":"system","subtype":"init","tools":["Bash","Read"],"model":5,` + tail,
		`{"type":"system","subtype":"init","tools":[],` + tail,
		`{"type":"system","subtype":"init","tools":null,"agents":["x"],"agents":[5]}`,
		`{"type":"system","subtype":"init","tools":["Bash","Read"] ,"agents": ["x"],"skills":[]}`,
		`{"type":"system","subtype":"init","tools":["Bash","Read"],"agents":["x"],"skills":[]}`,
		`{"type":"system","subtype":"init","tools":["Bash","Read"]}`,
		`{"type":"system","subtype":"init","tools":["Bash","Read"],"agents":["x"],"skills":[]}`,
		`{"type":"system","subtype":"init","tools":["Bash","Read"],"agents":["x"],"skills":[] ,"x":1}`,
	}
	var all [][]byte
	for _, s := range seq {
		all = append(all, []byte(s))
	}
	for _, l := range lines(t) {
		if bytes.Contains(l, []byte(`"init"`)) && utf8.Valid(l) {
			all = append(all, l, l)
		}
	}
	d := NewDecoder(nil, nil)
	var ir wire.InitReader // the encoder's: the same lines
	repeated := 0
	var last []byte // the tools list of the last init with one
	for _, raw := range all {
		var want, in wire.Init
		wantErr := json.Unmarshal(raw, &want)
		err := d.unmarshalInit(raw, &in)
		w := initResult{Cwd: want.Cwd, SessionID: want.SessionID, Model: want.Model, Tools: want.Tools}
		g := initResult{Cwd: in.Cwd, SessionID: in.SessionID, Model: in.Model, Tools: in.Tools}
		if wantErr != nil {
			w.Err = wantErr.Error()
		}
		if err != nil {
			g.Err = err.Error()
		}
		if diff := cmp.Diff(w, g); diff != "" || (w.Tools == nil) != (g.Tools == nil) {
			t.Errorf("unmarshalInit(%q) after the lines before (-json.Unmarshal +got):\n%s", raw, diff)
		}
		in = wire.Init{}
		err = ir.Unmarshal(raw, &in)
		g = initResult{Cwd: in.Cwd, SessionID: in.SessionID, Model: in.Model, Tools: in.Tools}
		if err != nil {
			g.Err = err.Error()
		}
		if diff := cmp.Diff(w, g); diff != "" || (w.Tools == nil) != (g.Tools == nil) {
			t.Errorf("InitReader.Unmarshal(%q) after the lines before (-json.Unmarshal +got):\n%s", raw, diff)
		}
		if tools := toolsText.Find(raw); tools != nil && bytes.Equal(tools, last) {
			repeated++
		} else if tools != nil {
			last = tools
		}
	}
	if repeated < 10 {
		t.Errorf("only %d lines whose tools repeat the last init's", repeated)
	}
}
