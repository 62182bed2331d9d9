package acp_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
	emitacp "github.com/agentstream/agentstream/emit/acp"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	parseacp "github.com/agentstream/agentstream/parse/acp"
)

// encode writes evs and returns the lines, the losses reported and
// Close's error.
func encode(t *testing.T, evs ...event.Event) (string, []string, error) {
	t.Helper()
	var out bytes.Buffer
	var losses []string
	enc := emitacp.NewEncoder(&out, &emitacp.Config{Warn: func(err error) {
		var le *event.LossError
		if errors.As(err, &le) {
			losses = append(losses, le.What)
		}
	}})
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	err := enc.Close()
	return out.String(), losses, err
}

func text(s string) []event.Event {
	return []event.Event{&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: s}, &event.BlockEnd{Kind: event.Text}}
}

func join(evs ...[]event.Event) []event.Event {
	var out []event.Event
	for _, e := range evs {
		out = append(out, e...)
	}
	return out
}

const sess = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":`

// TestEncode: what each kind of run becomes; a prompt response only for
// a stop reason the source gave.
func TestEncode(t *testing.T) {
	t.Parallel()
	start := []event.Event{&event.SessionStart{SessionID: "s", Prompt: "go"}}
	tests := []struct {
		name   string
		evs    []event.Event
		want   string
		losses []string
		cut    bool
	}{
		{
			name: "stop reason",
			evs:  join(start, []event.Event{&event.TurnStart{MessageID: "m1"}}, text("hi"), []event.Event{&event.TurnEnd{MessageID: "m1", StopReason: "stop", Usage: &event.Usage{InputTokens: 5, OutputTokens: 3, ReasoningTokens: 1, Has: event.HasInput | event.HasOutput | event.HasReasoning}}}),
			want: sess + `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"go"}}}}
` + sess + `{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"hi"}}}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":5,"outputTokens":2,"totalTokens":8,"thoughtTokens":1}}}
`,
		},
		{
			name: "only the output count given: inputTokens and totalTokens null, not 0",
			evs:  join(start[:0], []event.Event{&event.RunEnd{StopReason: "end_turn", Usage: &event.Usage{OutputTokens: 3, CacheReadTokens: 4, Has: event.HasOutput | event.HasCacheRead}}}),
			want: `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":null,"outputTokens":3,"totalTokens":null,"cachedReadTokens":4}}}
`,
		},
		{
			name: "only the input count given: outputTokens and totalTokens null, not 0",
			evs:  join(start[:0], []event.Event{&event.RunEnd{StopReason: "end_turn", Usage: &event.Usage{InputTokens: 5, Has: event.HasInput}}}),
			want: `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":5,"outputTokens":null,"totalTokens":null}}}
`,
		},
		{
			name:   "no stop reason",
			evs:    join(start, text("hi"), []event.Event{&event.TurnEnd{}}),
			want:   sess + `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"go"}}}}` + "\n" + sess + `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}` + "\n",
			losses: []string{emitacp.NoRunEnd},
		},
		{
			name: "cut inside a block",
			evs:  join(start, text("hi")[:2]),
			want: sess + `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"go"}}}}` + "\n" + sess + `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}` + "\n",
			cut:  true,
		},
		{
			name: "tool call and failed result, plan, run end",
			evs: join(start[:0], []event.Event{
				&event.ToolCall{ID: "c", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
				&event.ToolResult{ID: "c", Name: "Bash", IsError: true, Content: []event.Part{{Type: "text", Text: "no"}}},
				&event.TodoList{Items: []event.TodoItem{{Text: "a", Status: "completed"}}},
				&event.RunEnd{StopReason: "max_tokens"},
			}),
			want: `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"agentstream","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"Bash","kind":"execute","rawInput":{"command":"ls"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"agentstream","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","status":"failed","content":[{"type":"content","content":{"type":"text","text":"no"}}]}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"agentstream","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"medium","status":"completed"}]}}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"max_tokens"}}
`,
		},
		{
			name: "fatal error",
			evs:  join(start[:0], []event.Event{&event.Error{Message: "overloaded", Type: "overloaded_error", Fatal: true}, &event.RunEnd{IsError: true}}),
			want: `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"overloaded","data":{"type":"overloaded_error"}}}` + "\n",
		},
		{
			name: "file change outside a tool call",
			evs: []event.Event{
				&event.FileChange{ID: "f", Changes: []event.Change{{Path: "/a", Kind: "add"}}, Status: "completed"},
			},
			want:   `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"agentstream","update":{"sessionUpdate":"tool_call","toolCallId":"f","title":"/a","kind":"edit","status":"completed","locations":[{"path":"/a"}]}}}` + "\n",
			losses: []string{"the kinds of file changes (add, update, delete)", emitacp.NoRunEnd},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, losses, err := encode(t, tt.evs...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.losses, losses); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
			if cut := errors.Is(err, event.ErrTruncated); cut != tt.cut || (err != nil && !cut) {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

// normalise returns the lines of an ACP stream as JSON values, without
// what reading and writing again does not keep: a chunk's messageId (the
// event model has no id per block), and of a tool call its kind, status,
// locations and content at its announcement (written from the call's
// name alone), and an absent rawInput, written as {}.
func normalise(t *testing.T, data []byte) []any {
	t.Helper()
	var out []any
	for line := range bytes.Lines(data) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		if p, ok := m["params"].(map[string]any); ok {
			if u, ok := p["update"].(map[string]any); ok {
				delete(u, "messageId")
				if u["sessionUpdate"] == "tool_call" {
					for _, k := range []string{"kind", "status", "locations", "content"} {
						delete(u, k)
					}
					if _, ok := u["rawInput"]; !ok {
						u["rawInput"] = map[string]any{}
					}
				}
				if u["sessionUpdate"] == "tool_call_update" {
					for _, k := range []string{"kind", "title", "locations"} {
						delete(u, k)
					}
					if c, ok := u["content"].([]any); ok && len(c) == 0 {
						delete(u, "content")
					}
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// TestSelfConversion: an ACP agent's output read and written again is the
// same messages, but for what normalise names.
func TestSelfConversion(t *testing.T) {
	t.Parallel()
	files := eventtest.Corpus(t, "../../testdata/acp", "*.agent.jsonl")
	more, _ := filepath.Glob("../../../shared/corpus/acp/*.agent.jsonl")
	for _, path := range append(files, more...) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			enc := emitacp.NewEncoder(&out, nil)
			dec := parseacp.NewDecoder(bytes.NewReader(data), nil)
			if err := convert.Pipe(dec, enc, nil); err != nil {
				t.Fatal(err)
			}
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(normalise(t, data), normalise(t, out.Bytes())); diff != "" {
				t.Errorf("(-read +written):\n%s", diff)
			}
		})
	}
}

// corpus are the recordings of every format under testdata: the encoder's
// fuzz seeds.
func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range convert.Formats() {
		if f.NewDecoder == nil || f.Wrap != nil {
			continue
		}
		files, _ := filepath.Glob(filepath.Join("../../testdata", f.Name, "*"))
		for _, p := range files {
			if strings.HasSuffix(p, ".md") {
				continue
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[f.Name+"\x00"+p] = b
		}
	}
	return out
}

// FuzzEncoder: any input of any format, decoded and written as ACP,
// reads back without a problem, but for the truncation Close reported.
func FuzzEncoder(f *testing.F) {
	names := map[string]int{}
	var formats []convert.Format
	for _, fm := range convert.Formats() {
		if fm.NewDecoder != nil && fm.Wrap == nil {
			names[fm.Name] = len(formats)
			formats = append(formats, fm)
		}
	}
	for k, b := range corpus(f) {
		name, _, _ := strings.Cut(k, "\x00")
		f.Add(uint8(names[name]), b)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		from := formats[int(which)%len(formats)]
		var out bytes.Buffer
		in := func(r io.Reader) event.Decoder { return from.NewDecoder(r, &format.Options{}) }
		back := func(r io.Reader) event.Decoder { return parseacp.NewDecoder(r, nil) }
		eventtest.RoundTrip(t, data, in, backNoCut(back), emitacp.NewEncoder(&out, nil), &out)
	})
}

// backNoCut reads our output back, a prompt turn without its response
// (a run whose end ACP cannot say, emitacp.NoRunEnd) not counted as a problem:
// it is a reported loss.
func backNoCut(back func(io.Reader) event.Decoder) func(io.Reader) event.Decoder {
	return func(r io.Reader) event.Decoder { return &noCut{back(r)} }
}

type noCut struct{ event.Decoder }

func (d *noCut) Next() (event.Event, error) {
	ev, err := d.Decoder.Next()
	if errors.Is(err, event.ErrTruncated) {
		return nil, io.EOF
	}
	return ev, err
}

// TestClientSideNotWritten: what a transcript's client sent (its
// response to a permission request, a cancel) is not written as the
// agent's; the agent's request is, as it was.
func TestClientSideNotWritten(t *testing.T) {
	t.Parallel()
	permit := `{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t"},"options":[]}}`
	in := strings.Join([]string{
		`{"dir":"agent->client","msg":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}}`,
		`{"dir":"agent->client","msg":` + permit + `}`,
		`{"dir":"client->agent","msg":{"jsonrpc":"2.0","id":5,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}}`,
		`{"dir":"client->agent","msg":{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}}`,
		`{"dir":"agent->client","msg":{"jsonrpc":"2.0","id":2,"result":{"stopReason":"cancelled"}}}`,
	}, "\n")
	var out bytes.Buffer
	enc := emitacp.NewEncoder(&out, nil)
	if err := convert.Pipe(parseacp.NewDecoder(strings.NewReader(in), nil), enc, nil); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}
` + permit + `
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"cancelled"}}
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestToolContentKept: a tool call's diff, terminal and other content
// blocks read from ACP are written back as they were.
func TestToolContentKept(t *testing.T) {
	t.Parallel()
	content := `[{"type":"diff","path":"/a","oldText":"x","newText":"y"},{"type":"terminal","terminalId":"term-1"},{"type":"content","content":{"type":"text","text":"hi","annotations":{"priority":1}}},{"type":"content","content":{"type":"text","text":"plain"}}]`
	in := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"edit","status":"in_progress","rawInput":{"path":"/a"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"completed","content":` + content + `}}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}
`
	var out bytes.Buffer
	enc := emitacp.NewEncoder(&out, nil)
	if err := convert.Pipe(parseacp.NewDecoder(strings.NewReader(in), nil), enc, nil); err != nil {
		t.Fatal(err)
	}
	enc.Close()
	var got struct {
		Params struct {
			Update struct {
				Content json.RawMessage `json:"content"`
			} `json:"update"`
		} `json:"params"`
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if err := json.Unmarshal([]byte(lines[1]), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(content, string(got.Params.Update.Content)); diff != "" {
		t.Errorf("(-read +written):\n%s", diff)
	}
}

// TestCut: a cut input's output gets no session/prompt response, even
// after a turn that ended as a run ends.
func TestCut(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	enc := emitacp.NewEncoder(&out, nil)
	for _, ev := range []event.Event{
		&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "hi"}, &event.BlockEnd{Kind: event.Text},
		&event.TurnEnd{StopReason: "end_turn"},
	} {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := event.End(enc, true); !errors.Is(err, event.ErrTruncated) {
		t.Errorf("Cut: %v", err)
	}
	if strings.Contains(out.String(), "stopReason") {
		t.Errorf("a response was written:\n%s", out.String())
	}
}

// TestCutAfterFatalError: a fatal error's response ends the prompt turn,
// so it is written when the run ends (at its run end, or Close), never
// at a cut: a stream cut after the error but before the run's end reads
// back as cut (the error is reported lost). Uncut, the response comes
// last, after what followed the error.
func TestCutAfterFatalError(t *testing.T) {
	t.Parallel()
	evs := join(text("hi"), []event.Event{
		&event.Error{Message: "Overloaded", Type: "overloaded_error", Fatal: true},
		&event.BlockStart{Kind: event.Text}, &event.Delta{Kind: event.Text, Text: "more"},
	})
	var out bytes.Buffer
	var losses []string
	enc := emitacp.NewEncoder(&out, &emitacp.Config{Warn: func(err error) {
		var le *event.LossError
		if errors.As(err, &le) {
			losses = append(losses, le.What)
		}
	}})
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := event.End(enc, true); !errors.Is(err, event.ErrTruncated) {
		t.Errorf("Cut: %v", err)
	}
	if strings.Contains(out.String(), `"error"`) {
		t.Errorf("an error response was written at a cut:\n%s", out.String())
	}
	if want := "a fatal error of a run cut before its end (its session/prompt error response would end the prompt turn)"; !slices.Contains(losses, want) {
		t.Errorf("losses %q, want %q", losses, want)
	}

	got, _, _ := encode(t, append(evs, &event.BlockEnd{Kind: event.Text}, &event.RunEnd{IsError: true})...)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"message":"Overloaded"`) || strings.Count(got, `"error"`) != 1 {
		t.Errorf("the error response is not written once, last:\n%s", got)
	}
}

// TestCutBeforeFirstTurn: a session cut before its first prompt turn
// (during its setup, or right after it) is written as nothing, since its
// setup answers alone read back as a session that ended; uncut, they are
// written as they were. What begins a turn writes what was held first,
// and the output of a cut then reads back as cut.
func TestCutBeforeFirstTurn(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../testdata/acp/gemini-plain-text.agent.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	l := strings.SplitAfter(string(data), "\n") // initialize, session/new, available_commands_update, three chunks, the response
	half := func(s string) string { return s[:len(s)/2] }
	image := sess + `{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"aGk=","mimeType":"image/png"}}}}` + "\n"
	spill := "the cut of a session cut before its first prompt turn after more than 100 bytes of setup (written as it came, it reads as a session that ended)"
	tests := []struct {
		name    string
		in      string
		maxHeld int
		cut     bool   // the input reads as cut
		want    string // the output
		back    string // the output read back: "cut", "ended" or "nothing"
		loss    string // a loss reported, if any
	}{
		{"cut inside the update after the setup", l[0] + l[1] + half(l[2]), 0, true, "", "nothing", emitacp.SetupCut},
		{"cut inside the first chunk", l[0] + l[1] + l[2] + half(l[3]), 0, true, "", "nothing", emitacp.SetupCut},
		{"the setup alone, not cut", l[0] + l[1] + l[2], 0, false, l[0] + l[1] + l[2], "ended", ""},
		{"cut after the first chunk", l[0] + l[1] + l[2] + l[3] + half(l[4]), 0, true, l[0] + l[1] + l[2] + l[3], "cut", ""},
		{"an image chunk begins the turn", l[0] + l[1] + image + half(l[3]), 0, true, l[0] + l[1] + image, "cut", ""},
		{"past the cap, written as it came", l[0] + l[1] + half(l[2]), 100, true, l[0] + l[1], "ended", spill},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			var losses []string
			enc := emitacp.NewEncoder(&out, &emitacp.Config{MaxHeld: tt.maxHeld, Warn: func(err error) {
				var le *event.LossError
				if errors.As(err, &le) {
					losses = append(losses, le.What)
				}
			}})
			cut := false
			problem := func(err error) bool {
				cut = cut || errors.Is(err, event.ErrTruncated)
				return true
			}
			if err := convert.Pipe(parseacp.NewDecoder(strings.NewReader(tt.in), nil), enc, &convert.PipeOptions{Problem: problem}); err != nil {
				t.Fatal(err)
			}
			if cut != tt.cut {
				t.Fatalf("the input read as cut: %v, want %v", cut, tt.cut)
			}
			if err := event.End(enc, cut); errors.Is(err, event.ErrTruncated) != cut {
				t.Errorf("End(cut %v) = %v", cut, err)
			}
			if diff := cmp.Diff(tt.want, out.String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if tt.loss != "" && !slices.Contains(losses, tt.loss) {
				t.Errorf("losses %q, want %q", losses, tt.loss)
			}
			if slices.Contains(losses, emitacp.SetupCut) != (tt.loss == emitacp.SetupCut) {
				t.Errorf("losses %q: SetupCut reported where it should not be, or not where it should", losses)
			}
			if got := readBack(out.Bytes()); got != tt.back {
				t.Errorf("read back: %s, want %s", got, tt.back)
			}
		})
	}
}

// readBack says how the acp decoder reads b: "nothing" (no event), "cut"
// (it reports the truncation) or "ended".
func readBack(b []byte) string {
	d := parseacp.NewDecoder(bytes.NewReader(b), nil)
	events := false
	for {
		_, err := d.Next()
		switch {
		case err == io.EOF && events:
			return "ended"
		case err == io.EOF:
			return "nothing"
		case errors.Is(err, event.ErrTruncated):
			return "cut"
		case err == nil:
			events = true
		}
	}
}

// TestLiveSetup: on a live input (convert.AbandonHold's SetLive, passed
// on) the setup answers leave at the first Flush, before any prompt turn
// begins, and a cut then leaves them written, warned; a recording (not
// live) cut during its setup still writes nothing.
func TestLiveSetup(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../testdata/acp/gemini-plain-text.agent.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	l := strings.SplitAfter(string(data), "\n") // initialize, session/new, available_commands_update, ...
	to, ok := convert.Lookup(emitacp.Name)
	if !ok {
		t.Fatal("no acp in the format table")
	}
	for _, live := range []bool{true, false} {
		// The setup answers and half the update after them: the decoder
		// gives the session's start at the cut.
		in := l[0] + l[1] + l[2][:len(l[2])/2]
		want, loss, back := l[0]+l[1], emitacp.LiveSetupCut, "ended"
		if !live {
			want, loss, back = "", emitacp.SetupCut, "nothing"
		}
		var out bytes.Buffer
		var losses []string
		warn := func(err error) {
			var le *event.LossError
			if errors.As(err, &le) {
				losses = append(losses, le.What)
			}
		}
		hold := convert.HoldAbandoned(emitacp.New(&out, &format.Options{Warn: warn}), parseacp.Format(), to, warn)
		hold.SetLive(live)
		var flushed []string // the output after each Flush
		flush := func() error {
			err := hold.Flush()
			flushed = append(flushed, out.String())
			return err
		}
		if err := convert.Pipe(parseacp.NewDecoder(strings.NewReader(in), nil), hold, &convert.PipeOptions{Flush: flush, Problem: func(error) bool { return true }}); err != nil {
			t.Fatal(err)
		}
		if len(flushed) == 0 || flushed[0] != want {
			t.Errorf("live %v: output at the first Flush %q, want %q", live, flushed, want)
		}
		if err := event.End(hold, true); !errors.Is(err, event.ErrTruncated) {
			t.Errorf("live %v: End(cut) = %v", live, err)
		}
		if got := out.String(); got != want {
			t.Errorf("live %v: output %q, want %q", live, got, want)
		}
		if !slices.Equal(losses, []string{loss}) {
			t.Errorf("live %v: losses %q, want %q", live, losses, loss)
		}
		if got := readBack(out.Bytes()); got != back {
			t.Errorf("live %v: read back %s, want %s", live, got, back)
		}
	}
}
