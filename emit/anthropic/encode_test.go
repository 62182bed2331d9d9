package anthropic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	wire "github.com/agentstream/agentstream/parse/anthropic"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const corpus = "../../testdata/anthropic"

func decode(t testing.TB, data []byte) []event.Event {
	t.Helper()
	d := wire.NewDecoder(bytes.NewReader(data), nil)
	var evs []event.Event
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
}

func encode(t testing.TB, evs []event.Event) ([]byte, []string) {
	t.Helper()
	var out bytes.Buffer
	var warnings []string
	e := NewEncoder(&out, &Config{Warn: func(err error) {
		var loss *event.LossError
		if !errors.As(err, &loss) {
			t.Errorf("warning is not a *event.LossError: %v", err)
		}
		warnings = append(warnings, err.Error())
	}})
	for _, ev := range evs {
		if err := e.Encode(ev); err != nil {
			t.Fatalf("Encode(%T): %v", ev, err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return out.Bytes(), warnings
}

// withoutPings drops the ping events, which the encoder does not write.
func withoutPings(b []byte) []byte {
	return []byte(strings.ReplaceAll(string(b), "event: ping\ndata: {\"type\":\"ping\"}\n\n", ""))
}

// TestRewrite: a body read and written back is the same body, byte for
// byte, but for the pings and the usage of message_start, which the
// encoder writes at message_delta.
func TestRewrite(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(corpus, "*-turn*.sse"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, warnings := encode(t, decode(t, data))
			if len(warnings) > 0 {
				t.Errorf("warnings: %q", warnings)
			}
			// Compare the events, with their data as JSON values.
			if diff := cmp.Diff(events(t, withoutPings(data)), events(t, got)); diff != "" {
				t.Errorf("body differs (-recorded +written):\n%s", diff)
			}
		})
	}
}

type sseEvent struct {
	Type string
	Data map[string]any
}

// events parses a body the simple way (it is well-formed), blanking
// the usage fields the encoder places differently and the split of tool
// input into fragments.
func events(t *testing.T, body []byte) []sseEvent {
	t.Helper()
	var out []sseEvent
	var input strings.Builder
	for _, msg := range strings.Split(strings.TrimSpace(string(body)), "\n\n") {
		var ev sseEvent
		for _, line := range strings.Split(msg, "\n") {
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				ev.Type = v
			} else if v, ok := strings.CutPrefix(line, "data: "); ok {
				if err := json.Unmarshal([]byte(v), &ev.Data); err != nil {
					t.Fatal(err)
				}
			}
		}
		switch ev.Type {
		case "message_start":
			ev.Data["message"].(map[string]any)["usage"] = nil
		case "message_delta":
			ev.Data["usage"] = nil
		case "content_block_delta":
			if d := ev.Data["delta"].(map[string]any); d["type"] == "input_json_delta" {
				input.WriteString(d["partial_json"].(string))
				continue
			}
		case "content_block_stop":
			if input.Len() > 0 {
				var v any
				if err := json.Unmarshal([]byte(input.String()), &v); err != nil {
					t.Fatal(err)
				}
				out = append(out, sseEvent{Type: "tool input", Data: map[string]any{"input": v}})
				input.Reset()
			}
		}
		out = append(out, ev)
	}
	return out
}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"hand-all-types.sse", "tooluse-turn1.sse"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join(corpus, name))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := encode(t, decode(t, data))
			golden := filepath.Join("testdata", name)
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (run go test -update and review the diff)", golden)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestEveryEventType walks one event of every type through the encoder.
func TestEveryEventType(t *testing.T) {
	t.Parallel()
	a := "main"
	evs := []event.Event{
		&event.SessionStart{Agent: a, Model: "m"},
		&event.BlockStart{Agent: a, Kind: event.Thinking},
		&event.Delta{Agent: a, Kind: event.Thinking, Text: "hmm"},
		&event.BlockEnd{Agent: a, Kind: event.Thinking, Signature: "sig"},
		&event.Delta{Agent: a, Kind: event.Text, Text: "Paris"},
		&event.BlockEnd{Agent: a, Kind: event.Text},
		&event.Citations{Agent: a, Items: []event.Citation{{Type: "char_location", CitedText: "Paris", DocumentIndex: ptr[int64](0)}}},
		&event.ToolCall{Agent: a, ID: "srv", Name: "web_search", Input: json.RawMessage(`{"q":"x"}`), Server: true},
		&event.ToolResult{Agent: a, ID: "srv", Name: "web_search", Server: true, Content: []event.Part{{Type: "text", Text: "not json"}}},
		&event.ToolCall{Agent: a, ID: "t1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.Unknown{Agent: a, Format: "anthropic", Type: "redacted_thinking", Raw: []byte(`{"type":"redacted_thinking","data":"x"}`)},
		&event.ToolResult{Agent: a, ID: "t1", Name: "Bash", Content: []event.Part{{Type: "text", Text: "a"}}},
		&event.SessionStart{Agent: "sub", ParentAgent: a, ParentToolID: "t1"},
		&event.Delta{Agent: "sub", Kind: event.Text, Text: "ignored"},
		&event.Notice{Agent: a, Kind: "status"},
		&event.Files{Agent: a},
		&event.Unknown{Agent: a, Format: "claude", Type: "x", Raw: []byte(`{}`)},
		&event.Delta{Agent: a, Kind: event.Text, Text: "Half"},
		&event.Error{Agent: a, Message: "Overloaded", Type: "overloaded_error"},
		&event.TurnStart{Agent: a, MessageID: "msg_9", Model: "m2"},
		&event.ToolCall{Agent: a, ID: "t2", Name: "Bash", Input: json.RawMessage(`"not an object"`)},
		&event.TurnEnd{Agent: a, StopReason: "tool_use", Usage: &event.Usage{InputTokens: 3, OutputTokens: 4, CacheReadTokens: 1, Has: event.HasInput | event.HasOutput | event.HasCacheRead}},
		&event.RunEnd{Agent: a, StopReason: "end_turn"},
	}
	out, warnings := encode(t, evs)
	want := []string{
		"anthropic cannot carry session metadata",
		"anthropic cannot carry client tool results (the client sends them in the next request)",
		"anthropic cannot carry subagents (only the main agent's turns are written)",
		"anthropic cannot carry notices",
		"anthropic cannot carry generated files",
		"anthropic cannot carry unknown claude events",
		"anthropic cannot carry run summaries",
	}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings differ (-want +got):\n%s", diff)
	}
	golden := filepath.Join("testdata", "every-event-type.sse")
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if wantOut, err := os.ReadFile(golden); err != nil || !bytes.Equal(out, wantOut) {
		t.Errorf("output differs from %s (run go test -update and review the diff)", golden)
	}
	decode(t, out) // reads back without a problem
}

func TestTruncated(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := NewEncoder(&out, nil)
	for _, ev := range []event.Event{
		&event.BlockStart{Agent: "a", Kind: event.Text},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "Hel"},
	} {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); !errors.Is(err, event.ErrTruncated) {
		t.Fatalf("Close() = %v, want an error wrapping event.ErrTruncated", err)
	}
	if strings.Contains(out.String(), "message_stop") {
		t.Errorf("a truncated body has no message_stop, got:\n%s", out.String())
	}
}

func BenchmarkEncode(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(corpus, "long-text-turn1.sse"))
	if err != nil {
		b.Fatal(err)
	}
	evs := decode(b, data)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		e := NewEncoder(io.Discard, nil)
		for _, ev := range evs {
			e.Encode(ev)
		}
		e.Close()
	}
}

// FuzzEncoder feeds the events of an arbitrary body to the encoder and
// reads its output back: it must be a body our reader takes without a
// problem (but the truncation it reports when a block was left open).
func FuzzEncoder(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*.sse"))
	eventtest.FuzzPieces(f, files, "\n\n", 512)
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		in := func(r io.Reader) event.Decoder { return wire.NewDecoder(r, &wire.Config{MaxEventBytes: 4096}) }
		back := func(r io.Reader) event.Decoder { return wire.NewDecoder(r, nil) }
		eventtest.RoundTrip(t, data, in, back, NewEncoder(&out, nil), &out)
	})
}

// TestInvalidToolInput: a tool call whose input is not JSON (possible
// through the library API) is written as a JSON string, so that the body
// reads back, not as the invalid text.
func TestInvalidToolInput(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, []event.Event{
		&event.ToolCall{Agent: "a", ID: "toolu_1", Name: "Bash", Input: []byte("{bad")},
	})
	if want := `"partial_json":"\"{bad\""`; !strings.Contains(string(out), want) {
		t.Errorf("body has no %s:\n%s", want, out)
	}
	var got []json.RawMessage
	for _, ev := range decode(t, out) {
		if c, ok := ev.(*event.ToolCall); ok {
			got = append(got, c.Input)
		}
	}
	want := []json.RawMessage{json.RawMessage(`"{bad"`)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool call inputs read back (-want +got):\n%s\n%s", diff, out)
	}
}

// TestFailedTurn: a failed turn ends its body with an error event (of an
// API error type) instead of message_stop, and once: a failed turn whose
// error event was written already gets no second one.
func TestFailedTurn(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, []event.Event{
		&event.TurnStart{MessageID: "m1"},
		&event.Delta{Kind: event.Text, Text: "hi"},
		&event.BlockEnd{Kind: event.Text},
		&event.TurnEnd{MessageID: "m1", Error: "boom"},
		&event.TurnStart{MessageID: "m2"},
		&event.Error{Message: "bad request", Type: "invalid_request_error", Fatal: true},
		&event.TurnEnd{MessageID: "m2", Error: "bad request"},
	})
	var got []string
	for _, ev := range decode(t, out) {
		switch ev := ev.(type) {
		case *event.Error:
			got = append(got, ev.Type+": "+ev.Message)
		case *event.TurnEnd:
			got = append(got, "turn end "+ev.MessageID)
		}
	}
	// Read back, the failed turn's error is typed as it was written
	// (turn_failed, kept in an api_error's message).
	want := []string{"turn end m1", "turn_failed: boom", "turn end m2", "invalid_request_error: bad request"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s\n%s", diff, out)
	}
	if !strings.Contains(string(out), `{"type":"api_error","message":"turn_failed: boom"}`) {
		t.Errorf("the failed turn's error is not an api_error:\n%s", out)
	}
	if strings.Contains(string(out), "message_stop") {
		t.Errorf("a failed turn ended with message_stop:\n%s", out)
	}
}

// TestCutKeepsMessageOpen: a stream cut after the main agent's turn
// ended but before its run did (inside a subagent's turn, inside a later
// choice) leaves the last message without message_stop, with the stop
// reason and usage the source gave in its message_delta; a non-fatal API
// error that came last is not written as the error event that would end
// the message (reported). Read back, each output is a cut body.
func TestCutKeepsMessageOpen(t *testing.T) {
	t.Parallel()
	turn := []event.Event{
		&event.TurnStart{Agent: "a", MessageID: "m1"},
		&event.BlockStart{Agent: "a", Kind: event.Text},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "hi"},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
	}
	tools := append(slices.Clone(turn),
		&event.ToolCall{Agent: "a", ID: "toolu_1", Name: "Task", Input: []byte(`{}`)},
		&event.TurnEnd{Agent: "a", MessageID: "m1", StopReason: "tool_use", Usage: &event.Usage{InputTokens: 3, OutputTokens: 4, Has: event.HasInput | event.HasOutput}},
		&event.Notice{Agent: "a", Kind: "task_progress"}, // releases the held end
		&event.TurnStart{Agent: "sub", MessageID: "m2"},
		&event.BlockStart{Agent: "sub", Kind: event.Text},
	)
	for _, tc := range []struct {
		name     string
		evs      []event.Event
		want     []string // in the output
		wantLoss string
	}{
		{"later choice", append(slices.Clone(turn),
			&event.TurnEnd{Agent: "a", MessageID: "m1", StopReason: "end_turn", Usage: &event.Usage{InputTokens: 3, OutputTokens: 4, Has: event.HasInput | event.HasOutput}},
			&event.BlockStart{Agent: "choice 1", Kind: event.Text},
		), []string{`"stop_reason":"end_turn"`, `"output_tokens":4`}, ""},
		{"subagent", tools, []string{`"stop_reason":"tool_use"`}, ""},
		{"non-fatal error", append(slices.Clone(turn[:3]),
			&event.Error{Agent: "a", Type: "rate_limit_error", Message: "slow down"},
		), nil, "a non-fatal error that came last before the input was cut (its error event would end the response the cut left open)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			var losses []string
			e := NewEncoder(&out, &Config{Warn: func(err error) {
				var le *event.LossError
				if errors.As(err, &le) {
					losses = append(losses, le.What)
				}
			}})
			for _, ev := range tc.evs {
				if err := e.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			if err := event.End(e, true); !errors.Is(err, event.ErrTruncated) {
				t.Fatalf("Cut() = %v, want an error wrapping event.ErrTruncated", err)
			}
			body := out.String()
			if strings.Contains(body, "message_stop") || strings.Contains(body, "event: error") {
				t.Errorf("the cut output ends its message:\n%s", body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("no %s in:\n%s", w, body)
				}
			}
			if tc.wantLoss != "" && !slices.Contains(losses, tc.wantLoss) {
				t.Errorf("losses %q, want %q", losses, tc.wantLoss)
			}
			dec := wire.NewDecoder(strings.NewReader(body), nil)
			cut := false
			for {
				_, err := dec.Next()
				if err == io.EOF {
					break
				}
				cut = cut || errors.Is(err, event.ErrTruncated)
			}
			if !cut {
				t.Errorf("the output reads back as finished:\n%s", body)
			}
		})
	}
}

// TestToolStopAtClose: the message_stop held back after a message with
// tool calls is written before the next message, and at Close.
func TestToolStopAtClose(t *testing.T) {
	t.Parallel()
	out, _ := encode(t, []event.Event{
		&event.TurnStart{Agent: "a", MessageID: "m1"},
		&event.ToolCall{Agent: "a", ID: "toolu_1", Name: "Bash", Input: []byte(`{}`)},
		&event.TurnEnd{Agent: "a", MessageID: "m1", StopReason: "tool_use"},
		&event.ToolResult{Agent: "a", ID: "toolu_1"},
		&event.TurnStart{Agent: "a", MessageID: "m2"},
		&event.ToolCall{Agent: "a", ID: "toolu_2", Name: "Bash", Input: []byte(`{}`)},
		&event.TurnEnd{Agent: "a", MessageID: "m2", StopReason: "tool_use"},
	})
	if n := strings.Count(string(out), "event: message_stop"); n != 2 {
		t.Errorf("%d message_stop, want 2:\n%s", n, out)
	}
	if i, j := strings.Index(string(out), "event: message_stop"), strings.Index(string(out), `"id":"m2"`); i < 0 || j < i {
		t.Errorf("the first message_stop does not come before the second message:\n%s", out)
	}
}

// TestThroughBufio: through a bufio.Writer, whose free space the encoder
// appends to where a message fits, the output is the same, whatever the
// room left (small buffers make messages that do not fit).
func TestThroughBufio(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(corpus, "*-turn*.sse"))
	if err != nil || len(files) == 0 {
		t.Fatal("no recordings", err)
	}
	for _, name := range append(files, filepath.Join(corpus, "hand-all-types.sse")) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		evs := decode(t, data)
		want, _ := encode(t, evs)
		for _, size := range []int{16, 100, 333, 4096} {
			var out bytes.Buffer
			w := bufio.NewWriterSize(&out, size)
			e := NewEncoder(w, nil)
			for _, ev := range evs {
				if err := e.Encode(ev); err != nil {
					t.Fatalf("%s: Encode(%T): %v", name, ev, err)
				}
			}
			if err := e.Close(); err != nil {
				t.Fatalf("%s: Close: %v", name, err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("%s through a bufio.Writer of %d bytes: other output", name, size)
			}
		}
	}
}

// TestPlainWriterEachEvent: an encoder given a writer that is no
// bufio.Writer (it then writes through one of its own) has written all
// of an event's output when Encode returns, as much as an encoder whose
// bufio.Writer is flushed after each event.
func TestPlainWriterEachEvent(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(corpus, "hand-all-types.sse"))
	if err != nil {
		t.Fatal(err)
	}
	var plain, buffered bytes.Buffer
	w := bufio.NewWriter(&buffered)
	pe, be := NewEncoder(&plain, nil), NewEncoder(w, nil)
	for i, ev := range decode(t, data) {
		perr, berr := pe.Encode(ev), be.Encode(ev)
		if ferr := w.Flush(); ferr != nil {
			t.Fatal(ferr)
		}
		if (perr == nil) != (berr == nil) || plain.String() != buffered.String() {
			t.Fatalf("after event %d (%T): %d bytes written (%v), want %d (%v)", i, ev, plain.Len(), perr, buffered.Len(), berr)
		}
	}
	perr, berr := pe.Close(), be.Close()
	if ferr := w.Flush(); ferr != nil {
		t.Fatal(ferr)
	}
	if (perr == nil) != (berr == nil) || plain.String() != buffered.String() || plain.Len() == 0 {
		t.Fatalf("after Close: %d bytes written (%v), want %d (%v)", plain.Len(), perr, buffered.Len(), berr)
	}
}
