package gemini_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/gemini"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

// recordings are the stream-json and json files of testdata/gemini and,
// when it is there, of the shared corpus (not its session logs and model
// server bodies, which are other formats).
func recordings(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{"../../testdata/gemini", "../../../shared/corpus/gemini"} {
		for _, ext := range []string{"*.jsonl", "*.json"} {
			files, _ := filepath.Glob(filepath.Join(dir, ext))
			for _, f := range files {
				if !strings.Contains(filepath.Base(f), ".session.") {
					out = append(out, f)
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no recordings")
	}
	return out
}

// otherLines names the lines of other formats' types as convert's table
// does (Config.Foreign).
var otherLines = eventtest.Foreign(map[string]string{"system": "claude", "thread.started": "codex"})

func newDecoder(r io.Reader, name string) event.Decoder {
	return gemini.NewDecoder(r, &gemini.Config{Source: name, Foreign: otherLines})
}

// item is one piece of content: text, a tool call or a tool result.
type item struct {
	Kind, ID, Name, Text string
	Input                any
	IsError              bool
}

// fromLines reads the content of a recording from its raw lines,
// independently of the decoder: the text of each run of assistant
// messages, each tool_use and each tool_result.
func fromLines(t *testing.T, data []byte) []item {
	t.Helper()
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{\n")) {
		var o map[string]any
		if err := json.Unmarshal(data, &o); err != nil {
			t.Fatal(err)
		}
		if s, ok := o["response"].(string); ok && s != "" {
			return []item{{Kind: "text", Text: s}}
		}
		return nil
	}
	var out []item
	text, inText := "", false
	flush := func() {
		if inText {
			out = append(out, item{Kind: "text", Text: text})
		}
		text, inText = "", false
	}
	names := map[string]string{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		switch m["type"] {
		case "message":
			if m["role"] != "assistant" {
				flush()
				continue
			}
			if m["delta"] != true {
				flush()
			}
			text += m["content"].(string)
			inText = true
			if m["delta"] != true {
				flush()
			}
		case "tool_use":
			flush()
			id := m["tool_id"].(string)
			names[id] = m["tool_name"].(string)
			out = append(out, item{Kind: "tool_call", ID: id, Name: names[id], Input: m["parameters"]})
		case "tool_result":
			flush()
			id := m["tool_id"].(string)
			r := item{Kind: "tool_result", ID: id, Name: names[id], IsError: m["status"] == "error"}
			if s, ok := m["output"].(string); ok {
				r.Text = s
			}
			out = append(out, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// fromBlocks is the content of assembled blocks.
func fromBlocks(t *testing.T, blocks []*assemble.Block) []item {
	t.Helper()
	var out []item
	for _, b := range blocks {
		switch b.Type {
		case assemble.TypeText:
			out = append(out, item{Kind: "text", Text: b.Text})
		case assemble.TypeToolCall:
			var in any
			if err := json.Unmarshal(b.Input, &in); err != nil {
				t.Fatal(err)
			}
			out = append(out, item{Kind: "tool_call", ID: b.ID, Name: b.Name, Input: in})
		case assemble.TypeToolResult:
			r := item{Kind: "tool_result", ID: b.ID, Name: b.Name, IsError: b.IsError}
			if b.Content != nil {
				r.Text = *b.Content
			}
			out = append(out, r)
		}
	}
	return out
}

// TestRecordings: every recording reads with no problem and assembles to
// the text, tool calls and results its lines hold.
func TestRecordings(t *testing.T) {
	t.Parallel()
	for _, path := range recordings(t) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			evs, problems := eventtest.EventsAndProblems(t, newDecoder(bytes.NewReader(data), path))
			if len(problems) > 0 {
				t.Errorf("problems: %q", problems)
			}
			a := assemble.New(0)
			var blocks []*assemble.Block
			for _, ev := range evs {
				bs, err := a.Add(ev)
				if err != nil {
					t.Fatal(err)
				}
				blocks = append(blocks, bs...)
			}
			blocks = append(blocks, a.Flush()...)
			if diff := cmp.Diff(fromLines(t, data), fromBlocks(t, blocks)); diff != "" {
				t.Errorf("content differs from the lines' (-lines +assembled):\n%s", diff)
			}
			if n := len(evs); n == 0 {
				t.Fatal("no events")
			}
			if _, ok := evs[len(evs)-1].(*event.RunEnd); !ok {
				t.Errorf("the last event is %T, not the run's end", evs[len(evs)-1])
			}
		})
	}
}

// TestReads: how the input is split into reads (one byte, halves)
// changes no event and no problem.
func TestReads(t *testing.T) {
	t.Parallel()
	for _, path := range recordings(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			fuzzcheck.Check(t, data, func(r io.Reader) event.Decoder { return newDecoder(r, "in") })
		})
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
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Check(t, data, func(r io.Reader) event.Decoder {
			return gemini.NewDecoder(r, &gemini.Config{Source: "in", MaxEventBytes: 4096})
		})
	})
}

// TestMapping: what the decoder makes of each line type, and of what the
// real CLI does that its docs do not say.
func TestMapping(t *testing.T) {
	t.Parallel()
	const init = `{"type":"init","timestamp":"t0","session_id":"s1","model":"auto"}` + "\n"
	const prompt = `{"type":"message","timestamp":"t1","role":"user","content":"hi"}` + "\n"
	const result = `{"type":"result","timestamp":"t9","status":"success","stats":{"total_tokens":30,"input_tokens":20,"output_tokens":10,"cached":5,"input":15,"duration_ms":7,"tool_calls":0}}` + "\n"
	start := &event.SessionStart{
		Agent: "s1", SessionID: "s1", Model: "auto", Prompt: "hi",
		Meta: json.RawMessage(strings.TrimSpace(init)), MetaKind: gemini.MetaKind,
	}
	end := &event.RunEnd{
		Agent: "s1", DurationMS: 7, Usage: &event.Usage{InputTokens: 20, OutputTokens: 10, CacheReadTokens: 5, Has: event.HasInput | event.HasOutput | event.HasCacheRead},
		Meta: json.RawMessage(strings.TrimSpace(result)), MetaKind: gemini.MetaKind,
	}
	tests := []struct {
		name     string
		in       string
		want     []event.Event
		problems []string
	}{
		{
			name: "a null count is not given, not 0",
			in:   init + prompt + `{"type":"result","timestamp":"t9","status":"success","stats":{"total_tokens":null,"input_tokens":null,"output_tokens":10,"cached":null,"input":null,"tool_calls":0}}` + "\n",
			want: []event.Event{
				start,
				&event.RunEnd{
					Agent: "s1", Usage: &event.Usage{OutputTokens: 10, Has: event.HasOutput},
					Meta: json.RawMessage(`{"type":"result","timestamp":"t9","status":"success","stats":{"total_tokens":null,"input_tokens":null,"output_tokens":10,"cached":null,"input":null,"tool_calls":0}}`), MetaKind: gemini.MetaKind,
				},
			},
		},
		{
			name: "deltas are one block until another line",
			in: init + prompt + `{"type":"message","timestamp":"t2","role":"assistant","content":"a","delta":true}
{"type":"message","timestamp":"t3","role":"assistant","content":"b","delta":true}
` + result,
			want: []event.Event{
				start,
				&event.BlockStart{Agent: "s1", Kind: event.Text},
				&event.Delta{Agent: "s1", Kind: event.Text, Text: "a"},
				&event.Delta{Agent: "s1", Kind: event.Text, Text: "b"},
				&event.BlockEnd{Agent: "s1", Kind: event.Text},
				end,
			},
		},
		{
			name: "a failing shell command is a success; a missing file an error with its type",
			in: init + prompt + `{"type":"tool_use","timestamp":"t2","tool_name":"run_shell_command","tool_id":"c1","parameters":{"command":"false"}}
{"type":"tool_result","timestamp":"t3","tool_id":"c1","status":"success","output":"exit 1"}
{"type":"tool_use","timestamp":"t4","tool_name":"read_file","tool_id":"c2","parameters":{"file_path":"x"}}
{"type":"tool_result","timestamp":"t5","tool_id":"c2","status":"error","output":"File not found.","error":{"type":"file_not_found","message":"File not found: x"}}
` + result,
			want: []event.Event{
				start,
				&event.ToolCall{Agent: "s1", ID: "c1", Name: "run_shell_command", Input: json.RawMessage(`{"command":"false"}`)},
				&event.ToolResult{Agent: "s1", ID: "c1", Name: "run_shell_command", Content: []event.Part{{Type: "text", Text: "exit 1"}}},
				&event.ToolCall{Agent: "s1", ID: "c2", Name: "read_file", Input: json.RawMessage(`{"file_path":"x"}`)},
				&event.ToolResult{
					Agent: "s1", ID: "c2", Name: "read_file", IsError: true,
					Content:    []event.Part{{Type: "text", Text: "File not found."}},
					Structured: json.RawMessage(`{"type":"file_not_found","message":"File not found: x"}`),
				},
				end,
			},
		},
		{
			name: "an API error is a failed result: a fatal error, then the run's end",
			in: init + prompt + `{"type":"error","timestamp":"t2","severity":"warning","message":"slow"}
{"type":"result","timestamp":"t3","status":"error","error":{"type":"unknown","message":"[API Error: 400]"}}
`,
			want: []event.Event{
				start,
				&event.Error{
					Agent: "s1", Message: "slow", Type: "warning",
					Raw: json.RawMessage(`{"type":"error","timestamp":"t2","severity":"warning","message":"slow"}`),
				},
				&event.Error{
					Agent: "s1", Message: "[API Error: 400]", Type: "unknown", Fatal: true,
					Raw: json.RawMessage(`{"type":"unknown","message":"[API Error: 400]"}`),
				},
				&event.RunEnd{
					Agent: "s1", IsError: true, Errors: []string{"[API Error: 400]"},
					Meta:     json.RawMessage(`{"type":"result","timestamp":"t3","status":"error","error":{"type":"unknown","message":"[API Error: 400]"}}`),
					MetaKind: gemini.MetaKind,
				},
			},
		},
		{
			name: "no result line: a truncation, the open message left open",
			in:   init + prompt + `{"type":"message","timestamp":"t2","role":"assistant","content":"a","delta":true}` + "\n",
			want: []event.Event{
				start,
				&event.BlockStart{Agent: "s1", Kind: event.Text},
				&event.Delta{Agent: "s1", Kind: event.Text, Text: "a"},
			},
			problems: []string{"in:3:1: stream ended inside an assistant message, without its result line"},
		},
		{
			name: "unknown types are kept; other formats' lines are problems",
			in: init + prompt + `{"type":"future","timestamp":"t2","x":1}
{"type":"system","subtype":"init","session_id":"c","model":"m"}
{"type":"thread.started","thread_id":"t"}
` + result,
			want: []event.Event{
				start,
				&event.Unknown{Agent: "s1", Format: "gemini", Type: "future", Raw: []byte(`{"type":"future","timestamp":"t2","x":1}`)},
				end,
			},
			problems: []string{
				`in:4:1: a "system" line of another format (it looks like claude); skipped`,
				`in:5:1: a "thread.started" line of another format (it looks like codex); skipped`,
			},
		},
		{
			name: "a mistyped field: kept as unknown, reported",
			in:   init + prompt + `{"type":"tool_use","timestamp":"t2","tool_name":3,"tool_id":"c","parameters":{}}` + "\n" + result,
			want: []event.Event{
				start,
				&event.Unknown{Agent: "s1", Format: "gemini", Type: "tool_use", Raw: []byte(`{"type":"tool_use","timestamp":"t2","tool_name":3,"tool_id":"c","parameters":{}}`)},
				end,
			},
			problems: []string{"in:3:1: tool_use line with a field of an unexpected type (tool_name is a JSON number, not a string); kept as unknown"},
		},
		{
			// The type is read from the first member; a later one, even
			// null, or a timestamp of the wrong type, is read as
			// encoding/json reads the line.
			name: "a line that names its type again, or a mistyped timestamp",
			in: init + prompt + `{"type":"message","timestamp":"t2","role":"assistant","content":"a","type":null}
{"type":"message","timestamp":5,"role":"assistant","content":"a"}
{"type":"message","role":"assistant","content":"a","type":"future","timestamp":"t"}
` + result,
			want: []event.Event{
				start,
				&event.Unknown{Agent: "s1", Format: "gemini", Type: "message", Raw: []byte(`{"type":"message","timestamp":5,"role":"assistant","content":"a"}`)},
				&event.Unknown{Agent: "s1", Format: "gemini", Type: "future", Raw: []byte(`{"type":"message","role":"assistant","content":"a","type":"future","timestamp":"t"}`)},
				end,
			},
			problems: []string{
				"in:3:1: a line without a type; skipped",
				"in:4:1: message line with a field of an unexpected type (timestamp is a JSON number, not a string); kept as unknown",
			},
		},
		{
			name:     "nothing of the format",
			in:       `{"a":1}` + "\n",
			problems: []string{"in:1:1: a line without a type; skipped", "in: no Gemini CLI stream-json line in the input"},
		},
		{
			name:     "json output, cut inside its object",
			in:       "{\n  \"session_id\": \"s\",\n  \"response\": \"Hel",
			problems: []string{"in:1:1: json output ends inside its object"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, problems := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(tt.in), "in"))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJSONOutput: --output-format json is the same run: its session, its
// answer, its error and its usage (thought tokens are output).
func TestJSONOutput(t *testing.T) {
	t.Parallel()
	in := `{
  "session_id": "s",
  "response": "Hi <b>",
  "stats": {"models": {"m1": {"api": {"totalRequests": 1, "totalErrors": 0, "totalLatencyMs": 3},
    "tokens": {"input": 5, "prompt": 10, "candidates": 4, "total": 20, "cached": 5, "thoughts": 6, "tool": 0}}},
    "tools": {"totalCalls": 0}, "files": {}}
}
`
	got, problems := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(in), "in"))
	if len(problems) > 0 {
		t.Fatalf("problems: %q", problems)
	}
	want := []event.Event{
		&event.SessionStart{Agent: "s", SessionID: "s"},
		&event.BlockStart{Agent: "s", Kind: event.Text},
		&event.Delta{Agent: "s", Kind: event.Text, Text: "Hi <b>"},
		&event.BlockEnd{Agent: "s", Kind: event.Text},
		&event.RunEnd{
			Agent: "s", Turns: 1, Usage: &event.Usage{InputTokens: 10, OutputTokens: 10, CacheReadTokens: 5, ReasoningTokens: 6, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasReasoning},
			Meta: json.RawMessage(strings.TrimSpace(in)), MetaKind: gemini.MetaKindJSON,
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestDetect: the first line of each recording is detected; other
// formats' first lines are not.
func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want bool
	}{
		{`{"type":"init","timestamp":"t","session_id":"s","model":"auto"}`, true},
		{`{"type":"message","timestamp":"t","role":"user","content":"x"}`, true},
		{`{"type":"result","timestamp":"t","status":"success"}`, true},
		{"{", true},
		{`{"session_id":"s","response":"x"}`, true},
		{`{"type":"result","subtype":"success","session_id":"s","is_error":false}`, false},
		{`{"type":"system","subtype":"init","session_id":"s"}`, false},
		{`{"type":"error","message":"x"}`, false},
		{`{"sessionId":"s","projectHash":"h"}`, false},
		{`{"type":"init"}`, false},
		{`[`, false},
	}
	for _, tt := range tests {
		if got := gemini.Detect(format.Head{Payload: []byte(tt.line)}); got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.line, got, tt.want)
		}
	}
	if gemini.Detect(format.Head{SSE: true, Payload: []byte(tests[0].line)}) {
		t.Error("SSE detected")
	}
}

// TestLimits: a json output object over the cap is one problem.
func TestLimits(t *testing.T) {
	t.Parallel()
	in := "{\n  \"response\": \"" + strings.Repeat("x", 200) + "\"\n}\n"
	dec := gemini.NewDecoder(strings.NewReader(in), &gemini.Config{Source: "in", MaxEventBytes: 100})
	_, problems := eventtest.EventsAndProblems(t, dec)
	if len(problems) != 1 || !strings.Contains(problems[0], "longer than 100 bytes") {
		t.Errorf("problems = %q", problems)
	}
	var perr *event.ParseError
	_, err := gemini.NewDecoder(strings.NewReader(in), &gemini.Config{MaxEventBytes: 100}).Next()
	if !errors.As(err, &perr) || !errors.Is(err, event.ErrTooLarge) {
		t.Errorf("err = %v", err)
	}
}

// TestCompactNotes: a payload of a line without white space outside its
// strings is noted compact; one of a line with some, valid only (even
// where the payload itself has none: the decoder knows of the line).
func TestCompactNotes(t *testing.T) {
	t.Parallel()
	for _, spaced := range []bool{false, true} {
		in := strings.Join([]string{
			`{"type":"init","timestamp":"t0","session_id":"s1","model":"auto"}`,
			`{"type":"tool_use","timestamp":"t2","tool_name":"ls","tool_id":"c1","parameters":{"dir":"."}}`,
			`{"type":"other","timestamp":"t3"}`,
			`{"type":"error","timestamp":"t4","severity":"warning","message":"m"}`,
			`{"type":"result","timestamp":"t9","status":"success"}`,
		}, "\n") + "\n"
		if spaced {
			in = strings.ReplaceAll(in, `,"`, `, "`)
		}
		evs, probs := eventtest.EventsAndProblems(t, newDecoder(strings.NewReader(in), "in"))
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
		if notes != 5 {
			t.Errorf("spaced %v: %d payloads, want 5", spaced, notes)
		}
	}
}

// TestToolNamesBounded checks that a result takes the name of its call
// while the decoder remembers the call: the last 1024 calls without a
// result (the oldest beyond them forgotten), a call's name the last one
// given for its id, and a call forgotten once its result came.
func TestToolNamesBounded(t *testing.T) {
	t.Parallel()
	const remembered = 1024
	var in strings.Builder
	in.WriteString(`{"type":"init","timestamp":"t","session_id":"s","model":"m"}` + "\n")
	use := func(id int, name string) {
		in.WriteString(`{"type":"tool_use","timestamp":"t","tool_name":"` + name + `","tool_id":"c` + strconv.Itoa(id) + `","parameters":{}}` + "\n")
	}
	result := func(id int) {
		in.WriteString(`{"type":"tool_result","timestamp":"t","tool_id":"c` + strconv.Itoa(id) + `","status":"success","output":"x"}` + "\n")
	}
	for id := range remembered + 1 {
		use(id, "x") // c0 is forgotten
	}
	use(5, "y")
	for _, id := range []int{0, 5, remembered, remembered, 1} {
		result(id)
	}
	dec := newDecoder(strings.NewReader(in.String()), "names")
	var got []string
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if r, ok := ev.(*event.ToolResult); ok {
			got = append(got, r.ID+":"+r.Name)
		}
	}
	want := []string{"c0:", "c5:y", "c1024:x", "c1024:", "c1:x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the results' names (-want +got):\n%s", diff)
	}
}
