package agui

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	parse "github.com/agentstream/agentstream/parse/agui"
)

const corpus = "../../testdata/agui"

func encode(t testing.TB, evs []event.Event) (out string, warnings []string, err error) {
	t.Helper()
	var b bytes.Buffer
	enc := NewEncoder(&b, &Config{Warn: eventtest.Warnings(t, &warnings)})
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatalf("Encode(%T): %v", ev, err)
		}
	}
	err = enc.Close()
	return b.String(), warnings, err
}

// types returns the event types of an AG-UI stream, in order.
func types(t testing.TB, s string) []string {
	t.Helper()
	var out []string
	for _, m := range strings.Split(strings.TrimSuffix(s, "\n\n"), "\n\n") {
		if m == "" {
			continue
		}
		data, ok := strings.CutPrefix(m, "data: ")
		if !ok {
			t.Fatalf("not an SSE data message: %q", m)
		}
		var h struct{ Type string }
		if err := json.Unmarshal([]byte(data), &h); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		out = append(out, h.Type)
	}
	return out
}

func TestEncode(t *testing.T) {
	t.Parallel()
	const a = "main"
	text := eventtest.TextBlock(a, "hi", 2)
	tests := []struct {
		name     string
		in       []event.Event
		want     []string
		cut      bool
		warnings []string
	}{
		{
			"a run that ends with its last turn",
			append(append([]event.Event{&event.TurnStart{Agent: a, MessageID: "msg_1"}}, text...), &event.TurnEnd{Agent: a, MessageID: "msg_1", StopReason: "end_turn"}),
			[]string{"RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STEP_FINISHED", "RUN_FINISHED"},
			false,
			[]string{"agui cannot carry stop reasons"},
		},
		{
			"cut inside a block: no RUN_FINISHED",
			[]event.Event{&event.BlockStart{Agent: a, Kind: event.Text}, &event.Delta{Agent: a, Kind: event.Text, Text: "ha"}},
			[]string{"RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"},
			true, nil,
		},
		{
			"cut inside a turn: no RUN_FINISHED",
			append([]event.Event{&event.TurnStart{Agent: a, MessageID: "msg_1"}}, text...),
			[]string{"RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"},
			true, nil,
		},
		{
			"a fatal error with the run's usage, then a retry in a new run",
			append([]event.Event{
				&event.Error{Agent: a, Message: "overloaded", Type: "overloaded_error", Fatal: true},
				&event.RunEnd{Agent: a, IsError: true, Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, Has: event.HasInput | event.HasOutput}},
			}, append(text, &event.RunEnd{Agent: a})...),
			[]string{"RUN_ERROR", "RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"},
			false, nil,
		},
		{
			"a non-fatal error is a CUSTOM event",
			[]event.Event{&event.Error{Agent: a, Message: "retrying"}, &event.RunEnd{Agent: a}},
			[]string{"RUN_STARTED", "CUSTOM", "RUN_FINISHED"},
			false, nil,
		},
		{
			"a subagent ends at its parent's tool result",
			[]event.Event{
				&event.SessionStart{Agent: a, SessionID: "s"},
				&event.ToolCall{Agent: a, ID: "t1", Name: "Task", Input: json.RawMessage(`{}`)},
				&event.SessionStart{Agent: "sub", ParentAgent: a, ParentToolID: "t1", Name: "helper"},
				&event.ToolCall{Agent: "sub", ID: "t2", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`), InputDeltas: []int{3, 13}},
				&event.ToolResult{Agent: "sub", ID: "t2", Content: []event.Part{{Type: "text", Text: "a"}}, IsError: true},
				&event.ToolResult{Agent: a, ID: "t1", Content: []event.Part{{Type: "text", Text: "done"}}},
				&event.RunEnd{Agent: a, Result: "done"},
			},
			[]string{
				"RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "SUBAGENT_STARTED",
				"TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT",
				"TOOL_CALL_RESULT", "SUBAGENT_FINISHED", "RUN_FINISHED",
			},
			false,
			[]string{"agui cannot carry tool result is_error"},
		},
		{
			"unknown events of other formats are RAW",
			[]event.Event{&event.Unknown{Agent: a, Format: "claude", Type: "x", Raw: []byte(`{"type":"x"}`)}, &event.Unknown{Agent: a, Format: "xml", Raw: []byte(`<x/>`)}},
			[]string{"RUN_STARTED", "RAW", "RAW", "RUN_FINISHED"},
			false, nil,
		},
		{"nothing", nil, nil, false, nil},
	}
	t.Run("the source was cut between turns: no RUN_FINISHED", func(t *testing.T) {
		t.Parallel()
		var b bytes.Buffer
		enc := NewEncoder(&b, nil)
		for _, ev := range append(append([]event.Event{&event.TurnStart{Agent: a}}, text...), &event.TurnEnd{Agent: a}) {
			enc.Encode(ev)
		}
		if err := enc.Cut(); !errors.Is(err, event.ErrTruncated) {
			t.Errorf("Cut() = %v, want a truncation", err)
		}
		if diff := cmp.Diff([]string{"RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STEP_FINISHED"}, types(t, b.String())); diff != "" {
			t.Errorf("event types (-want +got):\n%s", diff)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, warnings, err := encode(t, tt.in)
			if diff := cmp.Diff(tt.want, types(t, out)); diff != "" {
				t.Errorf("event types (-want +got):\n%s\n%s", diff, out)
			}
			if got := errors.Is(err, event.ErrTruncated); got != tt.cut || (err != nil && !got) {
				t.Errorf("Close() = %v, want a truncation: %v", err, tt.cut)
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRoundTrip: every recording read, written and read again gives the
// same events.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, file := range eventtest.Corpus(t, corpus, "*.sse") {
		if strings.Contains(file, "hand-bad-order") {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := eventtest.Collect(parse.NewDecoder(bytes.NewReader(data), &parse.Config{Source: "in"}))
			out, _, _ := encode(t, eventtest.Events(want))
			got := eventtest.Collect(parse.NewDecoder(strings.NewReader(out), &parse.Config{Source: "in"}))
			if diff := cmp.Diff(eventsOnly(want), eventsOnly(got)); diff != "" {
				t.Errorf("events differ after a round trip (-read +rewritten):\n%s\n%s", diff, out)
			}
		})
	}
}

// eventsOnly drops the problems: their positions are the input's.
func eventsOnly(items []eventtest.Item) []eventtest.Item {
	var out []eventtest.Item
	for _, it := range items {
		if it.Event != nil {
			out = append(out, it)
		}
	}
	return out
}

// FuzzRoundTrip: whatever the decoder makes of an input, the encoder
// writes a stream the decoder reads without a problem (but the cut Close
// reports), and a second pass through both changes nothing.
func FuzzRoundTrip(f *testing.F) {
	for _, file := range eventtest.Corpus(f, corpus, "*.sse") {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	dec := func(r io.Reader) event.Decoder { return parse.NewDecoder(r, &parse.Config{MaxEventBytes: 4096}) }
	f.Fuzz(func(t *testing.T, data []byte) {
		var once bytes.Buffer
		eventtest.RoundTrip(t, data, dec, dec, NewEncoder(&once, nil), &once)
		var twice bytes.Buffer
		eventtest.RoundTrip(t, once.Bytes(), dec, dec, NewEncoder(&twice, nil), &twice)
		if diff := cmp.Diff(once.String(), twice.String()); diff != "" {
			t.Fatalf("a second pass changed the output (-first +second):\n%s", diff)
		}
	})
}
