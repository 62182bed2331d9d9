package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const corpus = "../../testdata/claude"

func corpusFiles(t testing.TB) []string {
	t.Helper()
	return eventtest.Corpus(t, corpus, "*.json*")
}

// item is one result of Next: an event or a problem.
type item = eventtest.Item

func decodeAll(r io.Reader, cfg *Config) []item { return eventtest.All(NewDecoder(r, cfg)) }

func TestGolden(t *testing.T) {
	t.Parallel()
	eventtest.DumpFiles(t, corpusFiles(t), *update, func(r io.Reader, source string) event.Decoder {
		return NewDecoder(r, &Config{Source: source})
	})
}

// TestReaders: every recording gives the same events and problems,
// deltas as they came, however its bytes arrive.
func TestReaders(t *testing.T) {
	t.Parallel()
	eventtest.AllReads(t, corpusFiles(t), func(r io.Reader) event.Decoder { return NewDecoder(r, nil) })
}

const (
	initLine = `{"type":"system","subtype":"init","session_id":"s1","model":"m","tools":["Bash"],"cwd":"/w","uuid":"u0"}`
	textLine = `{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"hi"}],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1,"service_tier":"standard"}},"parent_tool_use_id":null,"session_id":"s1","uuid":"u1"}`
	resLine  = `{"type":"result","subtype":"success","is_error":false,"duration_ms":5,"num_turns":1,"result":"hi","stop_reason":"end_turn","session_id":"s1","total_cost_usd":0.25,"usage":{"input_tokens":1,"output_tokens":2},"uuid":"u2"}`
)

func ptr[T any](v T) *T { return &v }

func TestDecode(t *testing.T) {
	t.Parallel()
	const (
		badA = `{"type":"assistant","message":5,"session_id":"s1"}`
		badU = `{"type":"user","message":5,"session_id":"s1"}`
		// A user line's content as blocks with no tool result, and as a
		// string.
		userBlocks = `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"a\nb"}]},"session_id":"s1"}`
		userString = `{"type":"user","message":{"role":"user","content":"a\nb"},"session_id":"s1"}`
	)
	start := &event.SessionStart{
		Agent: "s1", SessionID: "s1", Model: "m", Tools: []string{"Bash"}, Cwd: "/w",
		Meta: json.RawMessage(initLine), MetaKind: MetaKind,
	}
	text := []item{
		{Event: &event.TurnStart{Agent: "s1", MessageID: "msg_1", Model: "m", Usage: &event.Usage{InputTokens: 1, OutputTokens: 1, ServiceTier: "standard", Has: event.HasInput | event.HasOutput}}},
		{Event: &event.BlockStart{Agent: "s1", Kind: event.Text}},
		{Event: &event.Delta{Agent: "s1", Kind: event.Text, Text: "hi"}},
		{Event: &event.BlockEnd{Agent: "s1", Kind: event.Text}},
	}
	end := []item{
		{Event: &event.TurnEnd{Agent: "s1", MessageID: "msg_1", StopReason: "end_turn"}},
		{Event: &event.RunEnd{
			Agent: "s1", StopReason: "end_turn", Turns: 1, DurationMS: 5, CostUSD: ptr(0.25),
			Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, Has: event.HasInput | event.HasOutput}, Result: "hi", Meta: json.RawMessage(resLine), MetaKind: MetaKind,
		}},
	}
	whole := append(append([]item{{Event: start}}, text...), end...)
	cat := func(parts ...[]item) []item {
		var out []item
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name  string
		input string
		cfg   *Config
		want  []item
	}{
		{"lines", initLine + "\n" + textLine + "\n" + resLine + "\n", nil, whole},
		{"no final newline", initLine + "\n" + textLine + "\n" + resLine, nil, whole},
		{"BOM and CRLF", "\ufeff" + initLine + "\r\n" + textLine + "\r\n" + resLine + "\r\n", nil, whole},
		{"blank lines and keep_alive", "\n" + initLine + "\n\n{\"type\":\"keep_alive\"}\n" + textLine + "\n  \n" + resLine + "\n", nil, whole},
		{"fused objects", initLine + textLine + "\n" + resLine + "\n", nil, whole},
		{"array", "[" + initLine + ",\n  " + textLine + ",\n" + resLine + "]\n", nil, whole},
		{"array with BOM", "\ufeff  [" + initLine + "," + textLine + "," + resLine + "]", nil, whole},
		{
			"bad line in the middle", initLine + "\n{\"type\": nope}\n" + textLine + "\n" + resLine + "\n", &Config{Source: "in"},
			cat([]item{{Event: start}, {Err: "in:2:1: not a JSON object: invalid character 'o' in literal null (expecting 'u')"}}, text, end),
		},
		{
			"bad object fused after a good one", initLine + "{\"type\":\n" + textLine + "\n" + resLine + "\n", &Config{Source: "in"},
			cat([]item{{Event: start}, {Err: "in:1:" + fmt.Sprint(len(initLine)+1) + ": not a JSON object: unexpected EOF"}}, text, end),
		},
		{
			"several bad objects fused", initLine + badA + "{bad}" + badU + "\n" + textLine + "\n" + resLine + "\n", &Config{Source: "in"},
			cat([]item{
				{Event: start},
				{Event: &event.Unknown{Agent: "s1", Format: MetaKind, Type: "assistant", Raw: []byte(badA)}},
				{Event: &event.Unknown{Agent: "s1", Format: MetaKind, Type: "user", Raw: []byte(badU)}},
				{Err: "in:1:" + fmt.Sprint(len(initLine)+1) + ": assistant message: a JSON number, not an object"},
				{Err: "in:1:" + fmt.Sprint(len(initLine+badA)+1) + ": not a JSON object: invalid character 'b' looking for beginning of object key string"},
				{Err: "in:1:" + fmt.Sprint(len(initLine+badA+"{bad}")+1) + ": user message: a JSON number, not an object"},
			}, text, end),
		},
		{
			"line too long", initLine + "\n" + textLine + "\n" + resLine + "\n", &Config{Source: "in", MaxEventBytes: len(initLine) + 10},
			[]item{
				{Event: start},
				{Err: "in:2:1: line longer than " + fmt.Sprint(len(initLine)+10) + " bytes (raise the cap, MaxEventBytes)"},
				{Err: "in:3:1: line longer than " + fmt.Sprint(len(initLine)+10) + " bytes (raise the cap, MaxEventBytes)"},
				{Err: "in:3:1: stream ended before the result line"},
			},
		},
		{
			"no result", initLine + "\n" + textLine + "\n", &Config{Source: "in"},
			cat([]item{{Event: start}}, text, []item{{Err: "in:2:1: stream ended before the result line"}}),
		},
		{"empty", "", nil, nil},
		{
			// The problem is the byte where the comma should be (json's
			// SyntaxError offset), not one found by scanning on past it.
			"array: no comma after an element", "[0\"0\n", &Config{Source: "in"},
			[]item{
				{Err: "in:1:2: not a JSON object: a JSON number, not an object"},
				{Err: "in:1:3: in the top-level JSON array: expected comma after array element"},
			},
		},
		{
			"array: bad element after a comma", "[0, {\"a\" 1}]", &Config{Source: "in"},
			[]item{
				{Err: "in:1:2: not a JSON object: a JSON number, not an object"},
				{Err: "in:1:10: in the top-level JSON array: invalid character '1' after object key"},
			},
		},
		{
			"leading blank lines keep line numbers", "\n \n{bad}\n" + initLine + "\n" + textLine + "\n" + resLine + "\n", &Config{Source: "in"},
			cat([]item{{Err: "in:3:1: not a JSON object: invalid character 'b' looking for beginning of object key string"}}, whole),
		},
		{
			"unknown line type", `{"type":"brand_new","x":1,"session_id":"s1"}` + "\n", nil,
			[]item{
				{Event: &event.Unknown{Agent: "s1", Format: "claude", Type: "brand_new", Raw: []byte(`{"type":"brand_new","x":1,"session_id":"s1"}`)}},
				{Err: "<input>:1:1: stream ended before the result line"},
			},
		},
		{
			// Read with the line as a Messages API message (blocks),
			// or not (a string): the same notice.
			"user text blocks", userBlocks + "\n" + resLine, nil,
			[]item{{Event: &event.Notice{Agent: "s1", Kind: "user", Message: "a …", Raw: []byte(userBlocks)}}, end[1]},
		},
		{
			"user text", userString + "\n" + resLine, nil,
			[]item{{Event: &event.Notice{Agent: "s1", Kind: "user", Message: "a …", Raw: []byte(userString)}}, end[1]},
		},
		{
			"synthetic error", `{"type":"assistant","message":{"id":"x","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"API Error: 529"}]},"session_id":"s1","error":"server_error"}` + "\n" + resLine, nil,
			[]item{
				{Event: &event.Error{
					Agent: "s1", Message: "API Error: 529", Type: "server_error", Fatal: true,
					Raw: json.RawMessage(`{"type":"server_error","message":"API Error: 529"}`),
				}},
				end[1],
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for name, r := range map[string]io.Reader{
				"whole":         strings.NewReader(tt.input),
				"OneByteReader": iotest.OneByteReader(strings.NewReader(tt.input)),
				"HalfReader":    iotest.HalfReader(strings.NewReader(tt.input)),
			} {
				got := decodeAll(r, tt.cfg)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s: events differ (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

// TestPartialSnapshot checks the deduplication of partial mode: deltas are
// emitted as they come, the assistant snapshot of the same block is
// compared, not repeated, and a snapshot that completes lost deltas fills
// them in.
func TestPartialSnapshot(t *testing.T) {
	t.Parallel()
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"session_id":"s1","parent_tool_use_id":null}`
	}
	snap := func(block string) string {
		return `{"type":"assistant","message":{"id":"msg_1","model":"m","role":"assistant","content":[` + block + `]},"session_id":"s1","parent_tool_use_id":null}`
	}
	head := []string{
		initLine,
		se(`{"type":"message_start","message":{"id":"msg_1","model":"m","content":[],"usage":{"input_tokens":3,"output_tokens":1}}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}`),
	}
	tail := []string{
		se(`{"type":"content_block_stop","index":0}`),
		se(`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"Bash","input":{}}}`),
		se(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}`),
		se(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"command\": \"ls\"}"}}`),
		snap(`{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}`),
		se(`{"type":"content_block_stop","index":1}`),
		se(`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}`),
		se(`{"type":"message_stop"}`),
		snap(`{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}`), // late repeat: ignored
		resLine,
	}
	mk := func(middle ...string) string {
		return strings.Join(append(append(append([]string{}, head...), middle...), tail...), "\n")
	}
	a := "s1"
	want := func(extra []item, problem string) []item {
		out := []item{
			{Event: &event.SessionStart{Agent: a, SessionID: "s1", Model: "m", Tools: []string{"Bash"}, Cwd: "/w", Meta: json.RawMessage(initLine), MetaKind: MetaKind}},
			{Event: &event.TurnStart{Agent: a, MessageID: "msg_1", Model: "m", Usage: &event.Usage{InputTokens: 3, OutputTokens: 1, Has: event.HasInput | event.HasOutput}}},
			{Event: &event.BlockStart{Agent: a, Kind: event.Text}},
			{Event: &event.Delta{Agent: a, Kind: event.Text, Text: "Hel"}},
		}
		out = append(out, extra...)
		out = append(out, item{Event: &event.BlockEnd{Agent: a, Kind: event.Text}})
		if problem != "" {
			out = append(out, item{Err: problem})
		}
		return append(out,
			item{Event: &event.ToolCall{Agent: a, ID: "t1", Name: "Bash", Input: json.RawMessage(`{"command": "ls"}`), InputDeltas: []int{0, 17}}},
			item{Event: &event.TurnEnd{Agent: a, MessageID: "msg_1", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 3, OutputTokens: 9, Has: event.HasInput | event.HasOutput}}},
			item{Event: &event.RunEnd{
				Agent: "s1", StopReason: "end_turn", Turns: 1, DurationMS: 5, CostUSD: ptr(0.25),
				Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, Has: event.HasInput | event.HasOutput}, Result: "hi", Meta: json.RawMessage(resLine), MetaKind: MetaKind,
			}},
		)
	}
	tests := []struct {
		name  string
		input string
		want  []item
	}{
		{
			"snapshot matches", mk(se(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}}`), snap(`{"type":"text","text":"Hello"}`)),
			want([]item{{Event: &event.Delta{Agent: a, Kind: event.Text, Text: "lo"}}}, ""),
		},
		{
			"snapshot completes lost deltas", mk(snap(`{"type":"text","text":"Hello"}`)),
			want([]item{{Event: &event.Delta{Agent: a, Kind: event.Text, Text: "lo"}}}, ""),
		},
		{
			"snapshot differs", mk(snap(`{"type":"text","text":"Goodbye"}`)),
			want(nil, "<input>:5:1: assistant snapshot of text block 0 of message msg_1 differs from its stream events; kept the stream events"),
		},
		{"no snapshot", mk(), want(nil, "")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := decodeAll(strings.NewReader(tt.input), nil)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events differ (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzDecoder(f *testing.F) {
	eventtest.FuzzPieces(f, corpusFiles(f), "\n", 512)
	f.Add([]byte(initLine + textLine + "\n[" + resLine))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Check(t, data, func(r io.Reader) event.Decoder { return NewDecoder(r, &Config{MaxEventBytes: 4096}) })
		want := decodeAll(bytes.NewReader(data), &Config{MaxEventBytes: 4096})
		got := decodeAll(iotest.OneByteReader(bytes.NewReader(data)), &Config{MaxEventBytes: 4096})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("OneByteReader gives other events:\n%s", diff)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"long-text.jsonl", "partial-long-text.jsonl"} {
		data, err := os.ReadFile(filepath.Join(corpus, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				eventtest.Drain(NewDecoder(bytes.NewReader(data), nil))
			}
		})
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestArrayElementCap: MaxEventBytes caps an element of the top-level
// array (--output-format json) as it caps a line: an element a little
// over the cap is reported and skipped, one far over it is reported
// without being read whole, and the input ends there.
func TestArrayElementCap(t *testing.T) {
	t.Parallel()
	const max = 1000
	big := `{"type":"assistant","message":{"id":"msg_9","model":"m","content":[{"type":"text","text":"` +
		strings.Repeat("x", 4000) + `"}]},"session_id":"s1"}` // over max, within its slack
	tooLarge := func(line, col int) item {
		return item{Err: fmt.Sprintf("in:%d:%d: array element larger than %d bytes (raise the cap, MaxEventBytes)", line, col, max)}
	}
	cfg := &Config{Source: "in", MaxEventBytes: max}

	t.Run("lines", func(t *testing.T) {
		t.Parallel()
		got := decodeAll(strings.NewReader(initLine+"\n"+big+"\n"+resLine+"\n"), cfg)
		if len(got) < 2 || !strings.Contains(got[1].Err, "line longer than 1000 bytes") {
			t.Errorf("want the line reported as too long, got %v", got)
		}
	})
	t.Run("a little over", func(t *testing.T) {
		t.Parallel()
		in := " [" + initLine + ",\n" + big + ",\n" + resLine + "]"
		got := decodeAll(strings.NewReader(in), cfg)
		if len(got) != 3 || got[1] != tooLarge(2, 1) || got[2].Event == nil { // at the element's first byte
			t.Errorf("want SessionStart, %q, RunEnd; got %v", tooLarge(2, 1).Err, got)
		}
	})
	t.Run("far over", func(t *testing.T) {
		t.Parallel()
		const huge = 64 << 20
		src := &countingReader{r: io.MultiReader(
			strings.NewReader("["+initLine+`,{"type":"assistant","message":{"content":[{"type":"text","text":"`),
			io.LimitReader(zeros{}, huge),
			strings.NewReader(`"}]}},`+resLine+"]"),
		)}
		d := NewDecoder(src, cfg)
		var got []item
		for {
			ev, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if !errors.Is(err, event.ErrTooLarge) && !errors.Is(err, event.ErrTruncated) {
					t.Fatalf("Next: %v", err)
				}
				got = append(got, item{Err: err.Error()})
				continue
			}
			got = append(got, item{Event: ev})
		}
		want := []item{
			{Event: &event.SessionStart{
				Agent: "s1", SessionID: "s1", Model: "m", Tools: []string{"Bash"}, Cwd: "/w",
				Meta: json.RawMessage(initLine), MetaKind: MetaKind,
			}},
			tooLarge(1, len("["+initLine)+1),
			{Err: fmt.Sprintf("in:1:%d: stream ended before the result line", len("["+initLine)+1)},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if src.n > 1<<20 {
			t.Errorf("read %d bytes of the input, want the element's cap and buffers, far below its %d bytes", src.n, huge)
		}
	})
}

// zeros reads as an endless run of '0'.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}

// TestToolMemory: the decoder forgets a client tool call once its result
// has arrived, and keeps at most maxOpen without one: beyond it the
// oldest is forgotten, reported once, positioned.
func TestToolMemory(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	in.WriteString(initLine + "\n")
	call := func(id string) {
		fmt.Fprintf(&in, `{"type":"assistant","message":{"id":"msg_%s","model":"m","content":[{"type":"tool_use","id":%q,"name":"Bash","input":{}}]},"session_id":"s1"}`+"\n", id, id)
	}
	result := func(id string) {
		fmt.Fprintf(&in, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"ok"}]},"session_id":"s1"}`+"\n", id)
	}
	for i := range 3000 {
		id := fmt.Sprintf("a%d", i)
		call(id)
		result(id)
	}
	const extra = 100
	for i := range maxOpen + extra {
		call(fmt.Sprintf("u%d", i))
	}
	result("u0")                      // forgotten: no name
	result(fmt.Sprintf("u%d", extra)) // the oldest still held
	d := NewDecoder(strings.NewReader(in.String()), &Config{Source: "in"})
	var named []string
	var problems []string
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if r, ok := ev.(*event.ToolResult); ok && r.Name == "Bash" {
			named = append(named, r.ID)
		}
	}
	if len(named) != 3001 || named[3000] != fmt.Sprintf("u%d", extra) {
		t.Errorf("%d results named by their call (last %q), want 3001 (last u%d)", len(named), named[len(named)-1], extra)
	}
	line := 1 + 2*3000 + maxOpen + 1 // the call that went over the cap
	want := []string{
		fmt.Sprintf("in:%d:1: more than %d tool calls waiting for their result; forgot the oldest, u0, whose result will not be named (later ones are not reported)", line, maxOpen),
		fmt.Sprintf("in:%d:1: stream ended before the result line", 1+2*3000+maxOpen+extra+2),
	}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(d.toolOf) != maxOpen-1 || d.pending.Len() != maxOpen-1 {
		t.Errorf("decoder remembers %d tool calls (%d ids), want %d", len(d.toolOf), d.pending.Len(), maxOpen-1)
	}
}

// TestScopeMemory: the decoder remembers at most maxOpen agent scopes;
// beyond it the oldest is forgotten, reported once, positioned.
// TestManyRuns: a log of more runs than maxOpen, one after the other,
// is not too many scopes at once: no problem, one SessionStart per run,
// the scopes of one run held.
func TestManyRuns(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	const n = 2 * maxOpen
	for i := range n {
		fmt.Fprintf(&in, `{"type":"system","subtype":"init","session_id":"s%d","model":"m","tools":[],"cwd":"/"}`+"\n", i)
		fmt.Fprintf(&in, `{"type":"assistant","message":{"id":"m%d","model":"m","content":[{"type":"text","text":"x"}]},"session_id":"s%d"}`+"\n", i, i)
		fmt.Fprintf(&in, `{"type":"result","subtype":"success","is_error":false,"result":"x","session_id":"s%d"}`+"\n", i)
	}
	items := eventtest.Collect(NewDecoder(strings.NewReader(in.String()), &Config{Source: "in"}))
	starts := 0
	for _, it := range items {
		if it.Err != "" {
			t.Errorf("problem %s", it.Err)
		}
		if _, ok := it.Event.(*event.SessionStart); ok {
			starts++
		}
	}
	if starts != n {
		t.Errorf("%d SessionStarts, want %d", starts, n)
	}
	d := NewDecoder(strings.NewReader(in.String()), nil)
	eventtest.Drain(d)
	if got := d.started.Len(); got != 1 {
		t.Errorf("%d scopes held at the end, want 1", got)
	}
}

func TestScopeMemory(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	in.WriteString(initLine + "\n")
	const n = 2 * maxOpen
	for i := range n {
		fmt.Fprintf(&in, `{"type":"assistant","message":{"id":"m%d","model":"m","content":[{"type":"text","text":"x"}]},"parent_tool_use_id":"t%d","session_id":"s1"}`+"\n", i, i)
	}
	d := NewDecoder(strings.NewReader(in.String()), &Config{Source: "in"})
	starts := 0
	var problems []string
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if _, ok := ev.(*event.SessionStart); ok {
			starts++
		}
	}
	if starts != n+1 {
		t.Errorf("%d SessionStarts, want %d", starts, n+1)
	}
	want := fmt.Sprintf("in:%d:1: more than %d agent scopes; forgot the oldest, \"s1\": a line of it after this opens it again (later ones are not reported)", maxOpen+1, maxOpen)
	if len(problems) == 0 || problems[0] != want {
		t.Errorf("problems %q, want first %q", problems, want)
	}
	if d.started.Len() != maxOpen {
		t.Errorf("decoder remembers %d scopes, want %d", d.started.Len(), maxOpen)
	}
}

// TestCompactNotes: a payload of a line without white space outside its
// strings is noted compact; one of a line with some, valid only (even
// where the payload itself has none: the decoder knows of the line). The
// second init repeats the first's lists, which the init reader compares
// whole: a line spaced only there is still seen spaced.
func TestCompactNotes(t *testing.T) {
	t.Parallel()
	lines := []string{
		`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Bash","Read"],"model":"m","slash_commands":["a"],"agents":["x"],"skills":[],"uuid":"u0"}`,
		`{"type":"system","subtype":"status","status":"requesting","session_id":"s1","uuid":"u1"}`,
		`{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"stop_reason":"tool_use"},"parent_tool_use_id":null,"session_id":"s1","uuid":"u2"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u3","tool_use_result":{"stdout":"ok","stderr":""}}`,
		`{"type":"user","message":{"role":"user","content":"hi"},"parent_tool_use_id":null,"session_id":"s1","uuid":"u4"}`,
		`{"type":"newer_type","session_id":"s1","uuid":"u5"}`,
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"num_turns":1,"result":"done","session_id":"s1","uuid":"u6"}`,
		`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Bash","Read"],"model":"m","slash_commands":["a"],"agents":["x"],"skills":[],"uuid":"u7"}`,
	}
	const payloads = 7 // init, status, tool result, user, newer_type, result, init again
	for _, tt := range []struct {
		name   string
		spaced func(i int) bool // line i is written with white space
	}{
		{"compact", func(int) bool { return false }},
		{"spaced", func(int) bool { return true }},
		{"second init spaced", func(i int) bool { return i == len(lines)-1 }},
	} {
		var in strings.Builder
		for i, l := range lines {
			if tt.spaced(i) {
				l = strings.ReplaceAll(l, `,"`, `, "`) // in the init's lists too
			}
			in.WriteString(l + "\n")
		}
		var spaced []bool // of each payload, in order
		for i := range lines {
			if i != 2 { // the assistant line carries none
				spaced = append(spaced, tt.spaced(i))
			}
		}
		evs, probs := eventtest.EventsAndProblems(t, NewDecoder(strings.NewReader(in.String()), nil))
		if len(probs) > 0 {
			t.Fatalf("%s: problems: %q", tt.name, probs)
		}
		notes := 0
		for _, ev := range evs {
			p, c, ok := eventtest.Noted(ev)
			if _, call := ev.(*event.ToolCall); !ok || call { // the assistant line's, not noted
				continue
			}
			if notes >= len(spaced) {
				t.Fatalf("%s: more than %d payloads", tt.name, len(spaced))
			}
			if !c.Valid(p) || c.Compact(p) == spaced[notes] {
				t.Errorf("%s: %T %s noted valid %v, compact %v", tt.name, ev, p, c.Valid(p), c.Compact(p))
			}
			notes++
		}
		if notes != payloads {
			t.Errorf("%s: %d payloads, want %d", tt.name, notes, payloads)
		}
	}
}
