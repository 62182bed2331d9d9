package opencode

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

// recordings are OpenCode's stdout under testdata and, when it is there,
// in the shared corpus (its chat-raw-*.sse bodies are another format).
func recordings(t testing.TB) []string {
	t.Helper()
	files := eventtest.Corpus(t, "../../testdata/opencode", "*.jsonl")
	more, _ := filepath.Glob("../../../shared/corpus/opencode/*.jsonl")
	return append(files, more...)
}

// claudeLines names the lines of type system claude's, as convert's
// table does (Config.Foreign).
var claudeLines = eventtest.Foreign(map[string]string{"system": "claude"})

func newDecoder(r io.Reader) event.Decoder {
	return NewDecoder(r, &Config{Source: "in", Foreign: claudeLines})
}

// problems returns every problem a decoder reports, warnings included.
func problems(t *testing.T, data []byte) []string {
	t.Helper()
	_, probs := eventtest.EventsAndProblems(t, newDecoder(bytes.NewReader(data)))
	return probs
}

// item is what one raw line says, read without the decoder: the text of a
// text or reasoning part, a tool call with its result.
type item struct {
	Kind    string // text, thinking, tool
	Text    string
	ID      string
	Name    string
	Input   string
	Result  string
	IsError bool
}

// rawItems reads the lines with encoding/json into maps, as the lines
// hold them.
func rawItems(t *testing.T, data []byte) []item {
	t.Helper()
	var out []item
	for line := range bytes.Lines(data) {
		var l map[string]any
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatal(err)
		}
		p, _ := l["part"].(map[string]any)
		switch l["type"] {
		case "text", "reasoning":
			kind := "text"
			if l["type"] == "reasoning" {
				kind = "thinking"
			}
			out = append(out, item{Kind: kind, Text: p["text"].(string)})
		case "tool_use":
			st := p["state"].(map[string]any)
			in, _ := json.Marshal(st["input"])
			it := item{Kind: "tool", ID: p["callID"].(string), Name: p["tool"].(string), Input: string(in)}
			if st["status"] == "error" {
				it.Result, it.IsError = st["error"].(string), true
			} else {
				it.Result = st["output"].(string)
			}
			out = append(out, it)
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
			var v any
			if err := json.Unmarshal(b.Input, &v); err != nil {
				t.Fatal(err)
			}
			in, _ := json.Marshal(v)
			out = append(out, item{Kind: "tool", ID: b.ID, Name: b.Name, Input: string(in)})
		case assemble.TypeToolResult:
			last := &out[len(out)-1]
			if last.ID != b.ID {
				t.Fatalf("result %s does not follow its call", b.ID)
			}
			if b.Content != nil {
				last.Result = *b.Content
			}
			last.IsError = b.IsError
		}
	}
	return out
}

// TestRecordings: every recording reads with no problem reported, and
// assembles to the text, tool calls and results its lines hold.
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

// TestSplitReads: the same events whatever the reads.
func TestSplitReads(t *testing.T) {
	t.Parallel()
	eventtest.SplitInvariance(t, recordings(t), newDecoder)
}

const (
	start  = `{"type":"step_start","timestamp":1,"sessionID":"s","part":{"id":"p1","messageID":"m1","sessionID":"s","type":"step-start"}}`
	text   = `{"type":"text","timestamp":2,"sessionID":"s","part":{"id":"p2","messageID":"m1","sessionID":"s","type":"text","text":"hi"}}`
	tool   = `{"type":"tool_use","timestamp":3,"sessionID":"s","part":{"type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"ls"},"output":"a\n","metadata":{"exit":0},"title":"ls"},"id":"p3","sessionID":"s","messageID":"m1"}}`
	calls  = `{"type":"step_finish","timestamp":4,"sessionID":"s","part":{"id":"p4","reason":"tool-calls","messageID":"m1","sessionID":"s","type":"step-finish","tokens":{"input":10,"output":2,"reasoning":1,"cache":{"read":3,"write":0}},"cost":0.5}}`
	stop   = `{"type":"step_finish","timestamp":4,"sessionID":"s","part":{"id":"p4","reason":"stop","messageID":"m1","sessionID":"s","type":"step-finish","tokens":{"input":10,"output":2,"reasoning":0,"cache":{"read":0,"write":0}},"cost":0}}`
	apiErr = `{"type":"error","timestamp":5,"sessionID":"s","error":{"name":"APIError","data":{"message":"bad","statusCode":400}}}`
)

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// TestRunEnd: with no run-end line, a run has ended after a step that
// finished for good or an error; a run cut inside a step or right after
// a tool-calls step is reported cut.
func TestRunEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []string
	}{
		{"stop", lines(start, text, stop), nil},
		{"error", lines(start, text, apiErr), nil},
		{"error alone", lines(apiErr), nil},
		{"tool-calls then stop", lines(start, tool, calls, start, text, stop), nil},
		{"inside a step", lines(start, text), []string{"in:2:1: stream ended inside a step (step_start without its step_finish)"}},
		{"after tool-calls", lines(start, tool, calls), []string{"in:3:1: stream ended after a step that finished with tool-calls: the run's next step is missing"}},
		{"cut inside a line", lines(start, text) + stop[:40], []string{
			"in:3:1: expected a JSON object: unexpected end of JSON input",
			"in:3:1: stream ended inside a step (step_start without its step_finish)",
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

// TestEvents: what a step, a tool line and an error become.
func TestEvents(t *testing.T) {
	t.Parallel()
	evs, probs := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(lines(start, tool, calls, apiErr))))
	if len(probs) > 0 {
		t.Fatalf("problems: %q", probs)
	}
	exit, cost := 0, 0.5
	want := []event.Event{
		&event.SessionStart{SessionID: "s"},
		&event.TurnStart{MessageID: "m1"},
		&event.ToolCall{ID: "c1", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.ToolResult{ID: "c1", Name: "bash", Status: "completed", Content: []event.Part{{Type: "text", Text: "a\n"}}, ExitCode: &exit, Structured: json.RawMessage(`{"exit":0}`)},
		&event.TurnEnd{MessageID: "m1", StopReason: "tool-calls", CostUSD: &cost, Usage: &event.Usage{InputTokens: 10, OutputTokens: 3, ReasoningTokens: 1, CacheReadTokens: 3, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasCacheWrite | event.HasReasoning}},
		&event.Error{Message: "bad", Type: "APIError", Fatal: true, Raw: json.RawMessage(apiErr)},
	}
	if diff := cmp.Diff(want, evs); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestBadLines: problems are positioned, what is intact is read.
func TestBadLines(t *testing.T) {
	t.Parallel()
	in := lines(start, "not json", `{"type":"text","timestamp":2,"sessionID":"s"}`, `{"type":"text","timestamp":"x","sessionID":"s","part":{}}`,
		`{"type":"system","subtype":"init","session_id":"x"}`, `{"type":"future","timestamp":1,"sessionID":"s"}`, stop)
	evs, probs := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(in)))
	want := []string{
		"in:2:1: expected a JSON object",
		"in:3:1: text line without its part; kept as unknown",
		"in:4:1: text: timestamp is a JSON string, not a number",
		"in:5:1: system line of another format (it looks like claude); skipped",
	}
	if diff := cmp.Diff(want, probs); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	var unknown []string
	for _, ev := range evs {
		if u, ok := ev.(*event.Unknown); ok {
			unknown = append(unknown, u.Type)
		}
	}
	if diff := cmp.Diff([]string{"text", "text", "future"}, unknown); diff != "" {
		t.Errorf("unknown (-want +got):\n%s", diff)
	}
}

// TestDetect: OpenCode's lines and no one else's.
func TestDetect(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		start:  true,
		apiErr: true,
		`{"type":"tool_use","timestamp":"2026-11-26T22:00:43.984Z","tool_name":"read_file","tool_id":"x","parameters":{}}`: false, // Gemini
		`{"type":"text","agent":"a","final":false,"delta":"x"}`:                                                            false, // the envelope
		`{"type":"system","subtype":"init","session_id":"s"}`:                                                              false,
		"data: " + start: false,
	} {
		h, _ := format.Sniff([]byte(in+"\n"), true)
		if got := Detect(h); got != want {
			t.Errorf("Detect(%.60s) = %v, want %v", in, got, want)
		}
	}
}

// TestValidate: the recordings keep the rules; breaking lines are named.
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
	bad := lines(text, start, start,
		`{"type":"tool_use","timestamp":3,"sessionID":"other","part":{"type":"tool","tool":"read","callID":"c","state":{"status":"running","input":{}}}}`,
		`{"type":"step_finish","timestamp":4,"sessionID":"s","part":{"type":"step-finish"}}`)
	var reps eventtest.Reports
	check(strings.NewReader(bad), &format.CheckConfig{Source: "in"}, &reps)
	want := eventtest.Reports{
		"OPC002 1 text line outside a step",
		"OPC002 3 step_start inside the step started at line 2",
		`OPC001 4 sessionID "other" is not the run's, "s"`,
		`OPC003 4 tool_use "c" in state "running": run.ts writes completed and error only`,
		"OPC004 5 step_finish without a reason",
		"OPC004 5 step_finish without tokens",
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
	f.Add([]byte(lines(start, text) + stop[:30]))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Check(t, data, newDecoder)
	})
}

// TestCompactNotes: a payload of a line without white space outside its
// strings is noted compact; one of a line with some, valid only (even
// where the payload itself has none: the decoder knows of the line).
func TestCompactNotes(t *testing.T) {
	t.Parallel()
	for _, spaced := range []bool{false, true} {
		in := lines(start, tool, calls, apiErr, `{"type":"other","timestamp":6,"sessionID":"s"}`)
		if spaced {
			in = strings.ReplaceAll(in, `,"`, `, "`)
		}
		evs, probs := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(in)))
		if len(probs) > 0 {
			t.Fatalf("problems: %q", probs)
		}
		notes := 0
		for _, ev := range evs {
			p, c, ok := eventtest.Noted(ev)
			if !ok {
				continue
			}
			if notes++; !c.Valid(p) || c.Compact(p) == spaced {
				t.Errorf("spaced %v: %T %s noted valid %v, compact %v", spaced, ev, p, c.Valid(p), c.Compact(p))
			}
		}
		if notes != 4 {
			t.Errorf("spaced %v: %d payloads, want 4", spaced, notes)
		}
	}
}
