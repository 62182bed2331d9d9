package acp

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/assemble/assembletest"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

// recordings are the agents' outputs and the transcripts under testdata
// and, when it is there, in the shared corpus.
func recordings(t testing.TB) []string {
	t.Helper()
	files := eventtest.Corpus(t, "../../testdata/acp", "*.jsonl")
	for _, p := range []string{"*.agent.jsonl", "*.transcript.jsonl"} {
		more, _ := filepath.Glob(filepath.Join("../../../shared/corpus/acp", p))
		files = append(files, more...)
	}
	return files
}

// claudeLines names the lines of type system claude's, as convert's
// table does (Config.Foreign).
var claudeLines = eventtest.Foreign(map[string]string{"system": "claude"})

func newDecoder(r io.Reader) event.Decoder {
	return NewDecoder(r, &Config{Source: "in", Foreign: claudeLines})
}

func problems(t *testing.T, in []byte) []string {
	t.Helper()
	_, probs := eventtest.EventsAndProblems(t, newDecoder(bytes.NewReader(in)))
	return probs
}

// item is what the raw lines say, read without the decoder: a text or
// thinking block (chunks of one kind in a row), a tool call and its
// result, the prompt turn's end.
type item struct {
	Kind    string
	Text    string
	ID      string
	Name    string
	Input   string
	Result  string
	IsError bool
}

// rawItems reads the agent's messages of a recording with encoding/json
// into maps.
func rawItems(t *testing.T, data []byte) []item {
	t.Helper()
	var out []item
	tools := map[string]int{}
	for line := range bytes.Lines(data) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		if dir, ok := m["dir"]; ok {
			if dir != "agent->client" {
				continue
			}
			m = m["msg"].(map[string]any)
		}
		if e, ok := m["error"].(map[string]any); ok {
			out = append(out, item{Kind: "error", Text: e["message"].(string)})
			continue
		}
		if r, ok := m["result"].(map[string]any); ok {
			if s, ok := r["stopReason"].(string); ok {
				out = append(out, item{Kind: "end", Text: s})
			}
			continue
		}
		if m["method"] != "session/update" {
			continue
		}
		u := m["params"].(map[string]any)["update"].(map[string]any)
		switch u["sessionUpdate"] {
		case "agent_message_chunk", "agent_thought_chunk":
			kind := "text"
			if u["sessionUpdate"] == "agent_thought_chunk" {
				kind = "thinking"
			}
			text := u["content"].(map[string]any)["text"].(string)
			if n := len(out); n > 0 && out[n-1].Kind == kind {
				out[n-1].Text += text
			} else {
				out = append(out, item{Kind: kind, Text: text})
			}
		case "tool_call", "tool_call_update":
			id := u["toolCallId"].(string)
			i, ok := tools[id]
			if !ok {
				i = len(out)
				tools[id] = i
				out = append(out, item{Kind: "tool", ID: id, Input: "{}"})
			}
			if s, ok := u["title"].(string); ok {
				out[i].Name = s
			}
			if in, ok := u["rawInput"]; ok {
				b, _ := json.Marshal(in)
				out[i].Input = string(b)
			}
			out[i].IsError = u["status"] == "failed"
			if cs, ok := u["content"].([]any); ok {
				out[i].Result = ""
				for _, c := range cs {
					if c := c.(map[string]any); c["type"] == "content" {
						out[i].Result += c["content"].(map[string]any)["text"].(string)
					}
				}
			}
		}
	}
	return out
}

// blockItems is the same view of the decoder's assembled blocks.
func blockItems(t *testing.T, bs []*assemble.Block) []item {
	t.Helper()
	var out []item
	for _, b := range bs {
		switch b.Type {
		case assemble.TypeText, assemble.TypeThinking:
			out = append(out, item{Kind: b.Type, Text: b.Text})
		case assemble.TypeToolCall:
			out = append(out, item{Kind: "tool", ID: b.ID, Name: b.Name, Input: string(b.Input)})
		case assemble.TypeToolResult:
			last := &out[len(out)-1]
			if b.Content != nil {
				last.Result = *b.Content
			}
			last.IsError = b.IsError
		case assemble.TypeError:
			out = append(out, item{Kind: "error", Text: b.Text})
		case assemble.TypeMetaFinal:
			out = append(out, item{Kind: "end", Text: b.StopReason})
		}
	}
	return out
}

// TestRecordings: every agent output and transcript reads with no
// problem reported, and assembles to the text, tool calls, results and
// ends its lines hold.
func TestRecordings(t *testing.T) {
	t.Parallel()
	for _, path := range recordings(t) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if p := problems(t, data); len(p) > 0 {
				t.Errorf("problems: %q", p)
			}
			got := blockItems(t, assembletest.Blocks(t, newDecoder(bytes.NewReader(data))))
			if diff := cmp.Diff(rawItems(t, data), got); diff != "" {
				t.Errorf("assembled (-lines +decoder):\n%s", diff)
			}
		})
	}
}

// TestTranscriptIsAgentOutput: a transcript reads as the agent's output
// of the same session, plus the prompt the client sent.
func TestTranscriptIsAgentOutput(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../testdata/acp/*.transcript.jsonl")
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, tr := range files {
		agent := strings.Replace(tr, ".transcript.", ".agent.", 1)
		a, err := os.ReadFile(agent)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(tr)
		if err != nil {
			t.Fatal(err)
		}
		want := assembletest.Blocks(t, newDecoder(bytes.NewReader(a)))
		got := assembletest.Blocks(t, newDecoder(bytes.NewReader(b)))
		if got[0].Prompt == "" {
			t.Errorf("%s: no prompt read", tr)
		}
		got[0].Prompt = ""
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-agent output +transcript):\n%s", tr, diff)
		}
	}
}

func TestSplitReads(t *testing.T) {
	t.Parallel()
	eventtest.SplitInvariance(t, recordings(t), newDecoder)
}

const (
	newResp  = `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`
	chunk    = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hi"}}}}`
	pending  = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"edit","kind":"edit","status":"pending","rawInput":{}}}}`
	running  = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"in_progress","rawInput":{"path":"/a"}}}}`
	permit   = `{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t1","title":"edit"},"options":[]}}`
	diffDone = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","content":[{"type":"diff","path":"/a","oldText":null,"newText":"x"},{"type":"content","content":{"type":"text","text":"ok"}}],"rawOutput":{"output":"ok"}}}}`
	plan     = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"do it","priority":"high","status":"in_progress"}]}}}`
	endTurn  = `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":5,"outputTokens":1,"totalTokens":8,"thoughtTokens":2}}}`
	rpcErr   = `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}`
)

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// TestEvents: what the updates, a permission request and the prompt
// response become.
func TestEvents(t *testing.T) {
	t.Parallel()
	evs, probs := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(lines(newResp, chunk, pending, running, permit, diffDone, plan, endTurn))))
	if len(probs) > 0 {
		t.Fatalf("problems: %q", probs)
	}
	want := []event.Event{
		&event.SessionStart{SessionID: "s1", Meta: json.RawMessage(`{"session/new":` + newResp + `}`), MetaKind: MetaKind},
		&event.BlockStart{Kind: event.Text},
		&event.Delta{Kind: event.Text, Text: "Hi"},
		&event.BlockEnd{Kind: event.Text},
		&event.ToolCall{ID: "t1", Name: "edit", Input: json.RawMessage(`{"path":"/a"}`)},
		&event.Notice{Kind: "session/request_permission", Message: "permission asked for edit", Raw: json.RawMessage(permit)},
		&event.FileChange{ID: "t1", Changes: []event.Change{{Path: "/a", Kind: "add"}}, Status: "completed"},
		&event.ToolResult{ID: "t1", Name: "edit", Status: "completed", Content: []event.Part{
			{Type: "diff", Text: `{"type":"diff","path":"/a","oldText":null,"newText":"x"}`},
			{Type: "text", Text: "ok"},
		}, Structured: json.RawMessage(`{"output":"ok"}`)},
		&event.TodoList{Items: []event.TodoItem{{Text: "do it", Status: "in_progress"}}},
		&event.RunEnd{StopReason: "end_turn", Usage: &event.Usage{InputTokens: 5, OutputTokens: 3, ReasoningTokens: 2, Has: event.HasInput | event.HasOutput | event.HasReasoning}, Meta: json.RawMessage(endTurn), MetaKind: MetaKind},
	}
	if diff := cmp.Diff(want, evs); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestEnds: a prompt turn ends with its response or a JSON-RPC error; an
// input that stops inside one is reported cut; a client's side alone is
// no agent output.
func TestEnds(t *testing.T) {
	t.Parallel()
	prompt := `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"go"}]}}`
	tr := func(dir, msg string) string { return `{"dir":"` + dir + `","msg":` + msg + `}` }
	tests := []struct {
		name, in string
		want     []string
	}{
		{"response", lines(newResp, chunk, endTurn), nil},
		{"error", lines(newResp, chunk, rpcErr), nil},
		{"no response", lines(newResp, chunk), []string{"in:2:1: stream ended before the session/prompt response"}},
		{"inside a tool call", lines(newResp, pending, running), []string{`in:3:1: stream ended before the session/prompt response (inside tool call "t1")`}},
		{"initialize only", lines(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`), nil},
		{"client only", lines(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`, prompt), []string{
			"in:2:1: no message from the agent: this is a client's side of an ACP session, not an agent's output",
		}},
		{"transcript cut", lines(tr("agent->client", newResp), tr("client->agent", prompt)), []string{
			"in:2:1: stream ended before the session/prompt response",
		}},
		{"cut inside a line", lines(newResp) + chunk[:50], []string{
			"in:2:1: stream ends inside line 2", // a cut, not a bad line
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, problems(t, []byte(tt.in))); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestForeignLines: other formats' lines are positioned problems.
func TestForeignLines(t *testing.T) {
	t.Parallel()
	in := lines(newResp, `{"type":"system","subtype":"init","session_id":"s"}`, `{"foo":1}`, "nope", `{"dir":"sideways","msg":{}}`, endTurn)
	want := []string{
		"in:2:1: a line of another format (it looks like claude), not a JSON-RPC 2.0 message; skipped",
		`in:3:1: not a JSON-RPC 2.0 message (no "jsonrpc": "2.0"); skipped`,
		"in:4:1: expected a JSON object",
		`in:5:1: transcript line whose dir is "sideways", not "client->agent" or "agent->client"; skipped`,
	}
	if diff := cmp.Diff(want, problems(t, []byte(in))); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		newResp: true,
		chunk:   true,
		permit:  true,
		`{"dir":"client->agent","msg":{"jsonrpc":"2.0","id":0,"method":"initialize"}}`: true,
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`:                   true, // the client's side: the decoder says so
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{}}`:               true,
		`{"jsonrpc":"1.0","id":1,"result":{}}`:                                         false,
		`{"type":"step_start","timestamp":1,"sessionID":"s","part":{}}`:                false,
		"data: " + newResp: false,
	} {
		h, _ := format.Sniff([]byte(in+"\n"), true)
		if got := Detect(h); got != want {
			t.Errorf("Detect(%.60s) = %v, want %v", in, got, want)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	for _, path := range recordings(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var reps eventtest.Reports
		check(bytes.NewReader(data), &format.CheckConfig{Source: path}, &reps)
		if len(reps) > 0 {
			t.Errorf("%s: %q", path, reps)
		}
	}
	bad := lines(
		`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call_update","toolCallId":"x","status":"done"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"y","kind":"magic"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"urgent","status":"pending"}]}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"done"}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":1}}`,
		`{"jsonrpc":"2.0","id":4}`,
	)
	var reps eventtest.Reports
	check(strings.NewReader(bad), &format.CheckConfig{Source: "in"}, &reps)
	want := eventtest.Reports{
		"ACP002 1 session/update without a sessionId",
		`ACP003 1 tool_call_update of "x", which no tool_call announced`,
		`ACP003 1 tool call "x" status "done" is not one of the schema's`,
		`ACP002 2 tool_call "y" without a title`,
		`ACP003 2 tool call "y" kind "magic" is not one of the schema's`,
		`ACP002 3 plan entry 0: status "pending" or priority "urgent" is not one of the schema's`,
		`ACP004 4 stopReason "done" is not one of the schema's`,
		"ACP001 5 an error without a message",
		"ACP001 6 a response with both or neither of result and error",
	}
	if diff := cmp.Diff(want, reps); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
}

func FuzzDecoder(f *testing.F) {
	for _, path := range recordings(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(lines(newResp, chunk, pending, running, permit, diffDone, plan, endTurn)))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Check(t, data, newDecoder)
	})
}

// TestResultParts: plain text and data images are parts of their own; any
// other block (annotated text, a resource) is kept whole as a content
// part, and written back as it was.
func TestResultParts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		raw  string
		want event.Part
	}{
		{`{"type":"text","text":"hi"}`, event.Part{Type: "text", Text: "hi"}},
		{`{"type":"image","data":"AAAA","mimeType":"image/png"}`, event.Part{Type: "image", Source: "data:image/png;base64,AAAA", MediaType: "image/png"}},
		{`{"type":"text","text":"hi","annotations":{"priority":1}}`, event.Part{Type: ContentPart, Text: `{"type":"text","text":"hi","annotations":{"priority":1}}`}},
		{`{"type":"resource_link","uri":"file:///a","name":"a"}`, event.Part{Type: ContentPart, Text: `{"type":"resource_link","uri":"file:///a","name":"a"}`}},
	} {
		if diff := cmp.Diff(tt.want, part(json.RawMessage(tt.raw))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.raw, diff)
		}
	}
}

// TestUsageNotGiven: a count null or absent in the prompt response's usage
// is not given (Usage.Has), not 0; thoughts are added to the output count
// only when it is known.
func TestUsageNotGiven(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     *event.Usage
	}{
		{"input null", `{"inputTokens":null,"outputTokens":3,"totalTokens":null}`, &event.Usage{OutputTokens: 3, Has: event.HasOutput}},
		{"output absent", `{"inputTokens":5,"thoughtTokens":2}`, &event.Usage{InputTokens: 5, ReasoningTokens: 2, Has: event.HasInput | event.HasReasoning}},
		{"both", `{"inputTokens":5,"outputTokens":1,"totalTokens":8,"thoughtTokens":2}`, &event.Usage{InputTokens: 5, OutputTokens: 3, ReasoningTokens: 2, Has: event.HasInput | event.HasOutput | event.HasReasoning}},
	}
	for _, tt := range tests {
		resp := `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":` + tt.in + `}}`
		evs, _ := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(lines(newResp, resp))))
		var got *event.Usage
		for _, ev := range evs {
			if e, ok := ev.(*event.RunEnd); ok {
				got = e.Usage
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: usage (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestCompactNotes: a payload of a line without white space outside its
// strings is noted compact; one of a line with some, valid only (even
// where the payload itself has none: the decoder knows of the line). The
// session's Meta is compact either way, and the same.
func TestCompactNotes(t *testing.T) {
	t.Parallel()
	const initResp = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}`
	var metas []string
	for _, spaced := range []bool{false, true} {
		in := lines(initResp, newResp, chunk, pending, running, permit, diffDone, plan, endTurn, `{"jsonrpc":"2.0","method":"x/y"}`)
		if spaced {
			in = strings.ReplaceAll(in, `,"`, `, "`)
		}
		evs, probs := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(in)))
		if len(probs) > 0 {
			t.Fatalf("problems: %q", probs)
		}
		notes := 0
		for _, ev := range evs {
			if e, ok := ev.(*event.SessionStart); ok {
				metas = append(metas, string(e.Meta))
				continue
			}
			p, c, ok := eventtest.Noted(ev)
			if !ok {
				continue
			}
			if notes++; !c.Valid(p) || c.Compact(p) == spaced {
				t.Errorf("spaced %v: %T %s noted valid %v, compact %v", spaced, ev, p, c.Valid(p), c.Compact(p))
			}
		}
		if notes != 5 {
			t.Errorf("spaced %v: %d payloads, want 5", spaced, notes)
		}
	}
	if len(metas) != 2 || metas[0] != metas[1] || !strings.Contains(metas[0], `"initialize":{`) {
		t.Errorf("Metas %q, want two, the same, with the initialize response", metas)
	}
}
