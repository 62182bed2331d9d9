package convert

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
)

// TestForeignLines: a line of another format inside a stream is a
// positioned problem naming that format, not an unknown event; an unknown
// type of the format read is still kept as Unknown.
func TestForeignLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       string
		unknown  []string
		problems []string
	}{
		{
			name: "jsonenv",
			in: "data: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"x\"}\n\n" +
				"data: {\"type\":\"thread.started\",\"thread_id\":\"t\"}\n\n" +
				"data: {\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n\n" +
				"data: {\"type\":\"checkpoint\",\"agent\":\"a\",\"final\":true,\"delta\":\"{}\"}\n\n" +
				"data: {\"type\":\"future\",\"x\":1}\n\n" +
				"data: [DONE]\n\n",
			unknown: []string{"checkpoint"},
			problems: []string{
				"in:3:1: expected a JSON envelope: this line looks like codex; skipped",
				"in:5:1: expected a JSON envelope: this line looks like claude; skipped",
				"in:9:1: expected a JSON envelope: no agent and final fields; skipped",
			},
		},
		{
			name: "claude",
			in: `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","tools":[]}
{"type":"thread.started","thread_id":"t"}
{"type":"text","agent":"a","final":false,"delta":"x"}
{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}
{"type":"future_line","session_id":"s","uuid":"u"}
{"type":"response.created","response":{}}
{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"","session_id":"s","duration_ms":1,"duration_api_ms":1,"total_cost_usd":0}
`,
			unknown: []string{"future_line"},
			problems: []string{
				"in:2:1: a thread.started line of another format (it looks like codex); skipped",
				"in:3:1: a text line of another format (it looks like jsonenv); skipped",
				"in:4:1: a content_block_delta line of another format (it looks like anthropic); skipped",
				"in:6:1: a response.created line of another format (it looks like openai-responses); skipped",
			},
		},
		{
			name: "codex",
			in: `{"type":"thread.started","thread_id":"t"}
{"type":"system","subtype":"init","session_id":"s","model":"m"}
{"type":"text","agent":"a","final":false,"delta":"x"}
{"type":"thread.archived","thread_id":"t"}
{"type":"response.output_text.delta","delta":"x"}
{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message"}}
{"jsonrpc":"2.0","method":"session/update","params":{}}
`,
			unknown: []string{"thread.archived"},
			problems: []string{
				"in:2:1: system line of another format (it looks like claude); skipped",
				"in:3:1: text line of another format (it looks like jsonenv); skipped",
				"in:5:1: response.output_text.delta line of another format (it looks like openai-responses); skipped",
				"in:6:1: event_msg line of another format (it looks like codex-session); skipped",
				"in:7:1: a line of another format (it looks like acp); skipped",
			},
		},
		{
			name: "anthropic",
			in: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[]}}\n\n" +
				"data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"x\"}\n\n" +
				"data: {\"type\":\"assistant\",\"session_id\":\"s\",\"message\":{\"id\":\"m\",\"type\":\"message\"}}\n\n" +
				"data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\n" +
				"event: message_annotation\ndata: {\"type\":\"message_annotation\"}\n\n" +
				"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			unknown: []string{"message_annotation"},
			problems: []string{
				"in:4:1: text event of another format (it looks like jsonenv); skipped",
				"in:6:1: assistant event of another format (it looks like claude); skipped",
				"in:8:1: an event of another format (it looks like openai-chat); skipped",
			},
		},
		{
			name: "agui",
			in: "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n" +
				"data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"x\"}\n\n" +
				"data: {\"type\":\"response.created\",\"response\":{}}\n\n" +
				"data: {\"type\":\"FUTURE_EVENT\"}\n\n" +
				"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n",
			unknown: []string{"FUTURE_EVENT"},
			problems: []string{
				"in:3:1: text event of another format (it looks like jsonenv); skipped",
				"in:5:1: response.created event of another format (it looks like openai-responses); skipped",
			},
		},
		{
			name: "gemini",
			in: `{"type":"init","timestamp":"t0","session_id":"s","model":"m"}
{"type":"future","timestamp":"t1"}
{"type":"system","subtype":"init","session_id":"c","model":"m"}
{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message"}}
{"type":"result","timestamp":"t2","status":"success","stats":{}}
`,
			unknown: []string{"future"},
			problems: []string{
				`in:3:1: a "system" line of another format (it looks like claude); skipped`,
				`in:4:1: a "event_msg" line of another format (it looks like codex-session); skipped`,
			},
		},
		{
			name: "gemini-session",
			in: `{"sessionId":"s","projectHash":"p","startTime":"t","lastUpdated":"t","kind":"main"}
{"type":"init","timestamp":"t0","session_id":"s","model":"m"}
{"jsonrpc":"2.0","method":"session/update","params":{}}
`,
			problems: []string{
				"in:2:1: a init line of Gemini CLI stream-json, not of its session log (read it with --from gemini); skipped",
				"in:3:1: a line of another format (it looks like acp); skipped",
			},
		},
		{
			name: "opencode",
			in: `{"type":"step_start","timestamp":1,"sessionID":"s","part":{"id":"p","messageID":"m","sessionID":"s","type":"step-start"}}
{"jsonrpc":"2.0","method":"session/update","params":{}}
{"type":"future","timestamp":2,"sessionID":"s"}
{"sessionId":"s","projectHash":"p","startTime":"t","lastUpdated":"t","kind":"main"}
`,
			unknown: []string{"future"},
			problems: []string{
				"in:2:1: a line of another format (it looks like acp); skipped",
				"in:4:1: a line of another format (it looks like gemini-session); skipped",
				"in:4:1: stream ended inside a step (step_start without its step_finish)",
			},
		},
		{
			name: "acp",
			in: `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}
{"type":"step_start","timestamp":1,"sessionID":"s","part":{"id":"p","messageID":"m","sessionID":"s","type":"step-start"}}
{"foo":1}
`,
			problems: []string{
				"in:2:1: a line of another format (it looks like opencode), not a JSON-RPC 2.0 message; skipped",
				`in:3:1: not a JSON-RPC 2.0 message (no "jsonrpc": "2.0"); skipped`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, ok := Lookup(tt.name)
			if !ok {
				t.Fatalf("no format %q", tt.name)
			}
			evs, problems := eventtest.EventsAndProblems(t, f.NewDecoder(strings.NewReader(tt.in), &format.Options{Source: "in"}))
			var unknown []string
			for _, ev := range evs {
				if u, ok := ev.(*event.Unknown); ok {
					unknown = append(unknown, u.Type)
				}
			}
			if diff := cmp.Diff(tt.unknown, unknown); diff != "" {
				t.Errorf("unknown events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// recording is one file of testdata/ or the shared corpus, the format
// detection finds it in, and its first unit.
type recording struct {
	path string
	f    Format
	head format.Head
	data []byte
}

// foreignRecordings returns the recordings of testdata/ and, when it is
// there, ../shared/corpus/ that detection (not a guess) finds a format of.
func foreignRecordings(t *testing.T) []recording {
	t.Helper()
	var out []recording
	for _, root := range []string{"../testdata", "../../shared/corpus"} {
		files, _ := filepath.Glob(filepath.Join(root, "*", "*"))
		for _, path := range files {
			switch filepath.Ext(path) {
			case ".sse", ".jsonl", ".json":
			default:
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(bytes.NewReader(b))
			f, guessed, err := Detect(br)
			if err != nil || guessed {
				continue
			}
			h, _ := head(br)
			out = append(out, recording{path, f, h, b})
		}
	}
	if len(out) < 100 {
		t.Fatalf("%d recordings, want 100 or more", len(out))
	}
	return out
}

// asked is a format.Foreign that records the lines its Foreign names.
type asked struct {
	foreign format.Foreign
	mu      sync.Mutex
	named   []string // "format: line"
}

func (a *asked) ask(line []byte) string {
	k := a.foreign(line)
	if k != "" {
		a.mu.Lock()
		a.named = append(a.named, k+": "+string(line))
		a.mu.Unlock()
	}
	return k
}

// nopReporter discards what a checker reports.
type nopReporter struct{}

func (nopReporter) Report(string, int, int, string) {}
func (nopReporter) Problem(error)                   {}
func (nopReporter) Event(event.Event, int)          {}

// TestForeignOwnLines: over every recording, neither the decoder nor the
// checker of its format is told that one of its lines is another
// format's.
func TestForeignOwnLines(t *testing.T) {
	t.Parallel()
	for _, rec := range foreignRecordings(t) {
		a := &asked{foreign: foreignTo(formats, rec.f.Name)}
		eventtest.Collect(rec.f.NewDecoder(bytes.NewReader(rec.data), &format.Options{Source: rec.path, Foreign: a.ask}))
		if rec.f.Check != nil {
			rec.f.Check(bytes.NewReader(rec.data), &format.CheckConfig{Source: rec.path, Foreign: a.ask}, nopReporter{})
		}
		if len(a.named) > 0 {
			t.Errorf("%s (%s): lines named another format's:\n%s", rec.path, rec.f.Name, strings.Join(a.named, "\n"))
		}
	}
}

// looksLike finds the format a decoder's problem names.
var looksLike = regexp.MustCompile(`looks like ([a-z-]+)[);]`)

// TestForeignNamesFormat: the first unit of every recording (what
// detection read) is named as its format by the decoder of every other
// format; and a decoder that asks about it, inside a recording of its
// own, reports it as a line of that format.
func TestForeignNamesFormat(t *testing.T) {
	t.Parallel()
	recs := foreignRecordings(t)
	// One host recording per format, whose first unit is a JSON object.
	hosts := map[string]recording{}
	for _, rec := range recs {
		if _, ok := hosts[rec.f.Name]; !ok && isObject(rec.head.Payload) && json.Valid(rec.head.Payload) {
			hosts[rec.f.Name] = rec
		}
	}
	reported := 0
	for _, rec := range recs {
		line := rec.head.Payload
		if !isObject(line) || !json.Valid(line) {
			continue // the first line of an array, or of an indented object
		}
		for _, host := range formats {
			if host.Name == rec.f.Name || host.NewDecoder == nil {
				continue
			}
			if got := foreignTo(formats, host.Name)(line); got != rec.f.Name {
				t.Errorf("%s: the %s decoder is told its first line is %q, want %q", rec.path, host.Name, got, rec.f.Name)
			}
			h, ok := hosts[host.Name]
			if !ok {
				continue
			}
			a := &asked{foreign: foreignTo(formats, host.Name)}
			_, problems := eventtest.EventsAndProblems(t, host.NewDecoder(bytes.NewReader(splice(h, line)), &format.Options{Source: "in", Foreign: a.ask}))
			var named []string
			for _, p := range problems {
				if m := looksLike.FindStringSubmatch(p); m != nil {
					named = append(named, m[1])
				}
			}
			var want []string
			if len(a.named) > 0 {
				want = []string{rec.f.Name}
				reported++
			}
			if !slices.Equal(named, want) {
				t.Errorf("%s inside %s (%s): problems name %q, want %q:\n%s", rec.path, h.path, host.Name, named, want, strings.Join(problems, "\n"))
			}
		}
	}
	if reported == 0 {
		t.Error("no decoder reported a line of another format")
	}
}

// splice returns the recording with line put after its first unit, in its
// framing.
func splice(rec recording, line []byte) []byte {
	sep, unit := []byte("\n"), append(slices.Clone(line), '\n')
	if rec.head.SSE {
		sep, unit = []byte("\n\n"), append(append([]byte("data: "), line...), "\n\n"...)
	}
	i := bytes.Index(rec.data, sep)
	if i < 0 {
		return append(append(slices.Clone(rec.data), sep...), unit...)
	}
	i += len(sep)
	return slices.Concat(rec.data[:i], unit, rec.data[i:])
}
